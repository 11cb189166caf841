"""Which classes library mode takes for torch modules: the names a base goes through are resolved in its file
(`library/module_bases.py`). A textbook with one module per framework, each with its own `class Module` (d2l:
`torch.py`, `jax.py`, `mxnet.py`), gets targets from its torch module only; main took every class named or
derived from `Module` anywhere (d2l: 44 of its 65 targets reached no tensor operation)."""
from __future__ import annotations

import os
import textwrap

from pytea_ci.library import targets as lib

FILES = {
    "book/torch.py": """
        import torch
        from torch import nn
        from book import torch as d2l
        nn_Module = nn.Module

        class Module(d2l.nn_Module):
            def forward(self, x):
                return x

        class LinearRegression(d2l.Module):
            def __init__(self):
                super().__init__()
                self.net = nn.LazyLinear(1)

        class Block(nn.Module):
            pass
    """,
    "book/jax.py": """
        from flax import linen as nn
        from book import jax as d2l

        class Module(nn.Module):
            pass

        class LinearRegression(d2l.Module):
            pass

        class Dense(nn.Module):
            pass
    """,
    "book/mxnet.py": """
        from mxnet.gluon import nn
        from book import mxnet as d2l
        nn_Module = nn.Block

        class Module(d2l.nn_Module):
            pass

        class LinearRegression(d2l.Module):
            pass
    """,
    "book/user.py": """
        from book import torch as d2l

        class Softmax(d2l.LinearRegression):
            pass
    """,
}


def _modules(tmp_path, extra: dict[str, str] | None = None) -> set[tuple[str, str]]:
    paths = []
    for rel, text in {**FILES, **(extra or {})}.items():
        path = tmp_path / rel
        path.parent.mkdir(exist_ok=True, parents=True)
        path.write_text(textwrap.dedent(text))
        paths.append(str(path))
    return {(os.path.relpath(c.path, tmp_path), c.node.name) for c in lib.module_classes(lib.classes_of(paths))}


def test_only_the_classes_whose_bases_are_torch_modules_as_their_files_bind_them(tmp_path) -> None:
    assert _modules(tmp_path) == {("book/torch.py", "Module"), ("book/torch.py", "LinearRegression"),
                                  ("book/torch.py", "Block"), ("book/user.py", "Softmax")}


def test_a_framework_imported_by_a_project_folder_of_the_same_name_is_the_project(tmp_path) -> None:
    assert ("book/jax.py", "Dense") in _modules(tmp_path, {"flax/linen.py": "import torch\nnn = torch.nn\n"})
