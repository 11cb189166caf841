"""Library mode, driver side: which classes of the analyzed files are torch `nn.Module`s, read from source.

A class is one when a base is torch's `nn.Module` / `nn.Sequential` as its file binds the name, or a class of
the project that is one. Names are resolved in the class's file first: a base `Module` or `d2l.Module` is the
file's own class of that name when it has one (else the project's classes of that name, any of them), a
top-level alias (`nn_Module = nn.Module`) is read as what it names, and in a file that imports nothing of torch,
`nn.Module` whose `nn` it imports from another package (`from flax import linen as nn`) is that framework's (in a
file that imports torch, another package's `Sequential` or `BaseModule` is taken to be built on torch's, as
mmengine's are). So a textbook that keeps one
module per framework (d2l: `mxnet.py`, `jax.py`, `tensorflow.py` beside `torch.py`, each with its own
`class Module`) gets targets from its torch module only: the others' classes reach no tensor operation.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

TORCH_BASES = {"Module", "nn.Module", "torch.nn.Module", "Sequential", "nn.Sequential", "torch.nn.Sequential"}


class _Class(Protocol):
    path: str
    node: ast.ClassDef
    bases: list[str]


C = TypeVar("C", bound=_Class)


@dataclass(frozen=True)
class Bindings:
    """What a file's top level binds that a base name may go through."""

    aliases: dict[str, str] = field(default_factory=dict)  # `nn_Module = nn.Module`: name -> the dotted name
    foreign: frozenset[str] = frozenset()  # names a file that imports no torch takes from another framework
    torch: bool = True  # the file imports torch


def bindings(tree: ast.Module | None, project: frozenset[str]) -> Bindings:
    """The top-level aliases and foreign imports of a file (`project`: the names of the project's folders and
    modules, which an absolute import may name)."""
    aliases: dict[str, str] = {}
    foreign: set[str] = set()
    for node in tree.body if tree is not None else []:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, (ast.Name, ast.Attribute)):
            aliases[node.targets[0].id] = ast.unparse(node.value)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname and _foreign(a.name, project):
                    foreign.add(a.asname)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and _foreign(node.module, project):
            foreign.update(a.asname or a.name for a in node.names)
    torch = tree is not None and any(_imports_torch(n) for n in tree.body)
    if torch:  # a torch file: another package's `Module` or `Sequential` there is built on torch's (mmengine's)
        foreign = set()
    return Bindings(aliases, frozenset(foreign), torch)


def _imports_torch(node: ast.stmt) -> bool:
    if isinstance(node, ast.Import):
        return any(a.name.split(".", 1)[0] == "torch" for a in node.names)
    return isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".", 1)[0] == "torch"


def _foreign(module: str, project: frozenset[str]) -> bool:
    """Neither torch nor, by every name on its dotted path, a module of the project."""
    parts = module.split(".")
    return parts[0] != "torch" and not all(p in project for p in parts)


def project_names(paths: Sequence[str]) -> frozenset[str]:
    """Every folder and module name on the analyzed files' paths (what `import NAME` of the project can be)."""
    names: set[str] = set()
    for p in paths:
        parts = os.path.normpath(p).split(os.sep)
        names.update(parts[:-1])
        names.add(os.path.splitext(parts[-1])[0])
    return frozenset(names)


def module_classes(classes: dict[str, list[C]], files: dict[str, Bindings]) -> list[C]:
    """The classes that are nn.Modules (see the module docstring), in the order of their names."""
    every = [i for name in sorted(classes) for i in classes[name]]
    modules: set[int] = set()
    names: set[str] = set()  # the names of the module classes found so far
    changed = True
    while changed:
        changed = False
        for info in every:
            # a class of a torch file named as a module class of the project is one too, whatever its bases
            # (mmseg's `FeatureFusionModule(BaseModule)` beside fast_scnn's `FeatureFusionModule(nn.Module)`:
            # mmengine's `BaseModule` is a torch module, which its name does not say)
            if id(info) not in modules and (
                    (info.node.name in names and files.get(info.path, Bindings()).torch)
                    or any(_is_module_base(info, b, classes, files, modules) for b in info.bases)):
                modules.add(id(info))
                names.add(info.node.name)
                changed = True
    return [i for i in every if id(i) in modules]


def _is_module_base(info: C, base: str, classes: dict[str, list[C]], files: dict[str, Bindings],
                    modules: set[int], seen: int = 0) -> bool:
    bound = files.get(info.path, Bindings())
    head, last = base.split(".", 1)[0], base.rsplit(".", 1)[-1]
    if head in bound.aliases and seen < 5:  # `nn_Module` where the file says `nn_Module = nn.Module`
        return _is_module_base(info, bound.aliases[head] + base[len(head):], classes, files, modules, seen + 1)
    torch_like = base in TORCH_BASES or base.endswith("nn.Module")
    named = classes.get(last, [])
    own = [c for c in named if c is not info and os.path.realpath(c.path) == os.path.realpath(info.path)]
    if own and (head == last or not torch_like):  # `Module`, `d2l.Module`: the file's own class of that name
        if any(id(c) in modules for c in own) or not (torch_like and bound.torch):
            return any(id(c) in modules for c in own)  # (a torch file's own `Sequential(nn.ModuleDict)`: torch's name)
    if head in bound.foreign:  # imported from another framework: neither torch's nor a class of the project
        return False
    if torch_like:
        return True
    if last in bound.aliases and seen < 5:  # `d2l.nn_Module`: the file's own alias of that name
        return _is_module_base(info, bound.aliases[last], classes, files, modules, seen + 1)
    return any(id(c) in modules for c in named)  # a class of the project of that name (any of them)
