"""A stand-in for torchvision in reproductions that only import its names (never run them):
every torchvision.* module exists and every name in it is a placeholder class."""
import importlib.abc
import importlib.machinery
import sys
import types

import torch.nn as nn


class _Meta(type(nn.Module)):
    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return f"{cls.__name__}.{name}"


class _Placeholder(nn.Module, metaclass=_Meta):
    def __init__(self, *a, **k):
        super().__init__()


def _getattr(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return type(name, (_Placeholder,), {})


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname.startswith("torchvision."):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        m = types.ModuleType(spec.name)
        m.__path__ = []
        m.__getattr__ = _getattr
        return m

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _Finder())
__path__ = []
__version__ = "0.0"
def __getattr__(name):
    return _getattr(name)
