"""Lazy imports in installed packages (issue 21): the `__init__.py` of a followed package does not run
its re-exports until a name is asked for.

Model libraries gather everything in their package `__init__`: `import timm` runs `from .beit import *`,
`from .byobnet import *`, ... for about a hundred model files (each building a large table of pretrained
configurations and registering its model functions), about 500k interpreter steps, to use one model.
Python 3.15's explicit lazy imports (PEP 810) name the fix: an import whose names are not used at
import time can run when one of them is first used. Here, in the `__init__.py` of a followed package
only (never in the project's code), a top-level `from .sub import a, b` or `from .sub import *` is
*deferred* when the file itself never reads the names it binds (for a star import: when every name the
file reads is bound in the file by other means or is a builtin). A deferred statement is recorded, not
run; the package module's attribute `a` (`timm.create_model`, `from timm.models import resnet50`)
runs it then:

* an explicit name runs its statement as written (binding all of its names);
* a name of a star import is searched in the star sources' text, then confirmed on their syntax (a
  top-level definition, assignment or import binding it, or a name of a literal `__all__`; a star
  source's own star imports are searched two levels down): the module that defines it is imported and
  the name bound. When no source is found to define it, every deferred star import of the module runs
  (the eager cost, the eager result);
* `from package import *` and `package.__dict__` run every deferred statement first.

What changes: the side effects of a deferred module's import happen when (and only if) one of its names
is used — a registry the skipped modules would have filled (timm's `@register_model`) lacks their
entries; models of such registries (`models/timm_.py`) read the package source instead. The tables are
static facts of each file (kept per path for the process), so restored imports (`package_cache.py`)
resolve the same way.
"""

from __future__ import annotations

import ast
import builtins
import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytea_ci.fsio import read_source
from pytea_ci.interp.runtime import ModuleVal, Scope

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

_BUILTINS = frozenset(dir(builtins)) | {"__name__", "__file__", "__package__", "__path__", "__spec__", "__doc__"}
_DYNAMIC = frozenset({"globals", "locals", "vars", "dir", "__getattr__", "__dir__", "exec", "eval"})
_STAR_DEPTH = 2


@dataclass
class Deferred:
    """The statements of one `__init__.py` that run on first use."""

    explicit: dict[str, ast.ImportFrom] = field(default_factory=dict)  # bound name -> its statement
    stars: list[ast.ImportFrom] = field(default_factory=list)
    nodes: frozenset[tuple[int, int]] = frozenset()  # (line, column) of each: a file may be parsed again


_TABLES: dict[str, Deferred | None] = {}


def table(interp: "Interpreter", path: str) -> Deferred | None:
    """The deferred statements of `path` (None: not a followed package's `__init__.py`, or nothing)."""
    if path not in _TABLES:
        site = interp.site
        tree = interp.shared.parse(path) if site is not None and os.path.basename(path) == "__init__.py" \
            and site.package_of(path) is not None else None
        _TABLES[path] = _deferred(tree) if isinstance(tree, ast.Module) else None
    return _TABLES[path]


def _deferred(tree: ast.Module) -> Deferred | None:
    read, bound = _names(tree)
    if read & _DYNAMIC:
        return None  # the module looks at its own namespace: run it as written
    out = Deferred()
    stars_ok = not (read - bound - _BUILTINS)
    for stmt in tree.body:
        if not isinstance(stmt, ast.ImportFrom) or not stmt.level or stmt.module == "__future__":
            continue
        if any(a.name == "*" for a in stmt.names):
            if stars_ok:
                out.stars.append(stmt)
            continue
        names = [a.asname or a.name for a in stmt.names]
        if not set(names) & read:
            out.explicit.update(dict.fromkeys(names, stmt))
    out.nodes = frozenset((n.lineno, n.col_offset) for n in [*out.explicit.values(), *out.stars])
    return out if out.nodes else None


def _names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """The names a file reads, and those it binds by any means other than a star import."""
    read: set[str] = set()
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names if a.name != "*")
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return read, bound


def skip(interp: "Interpreter", node: ast.ImportFrom, scope: Scope) -> bool:
    """Whether the import statement being run is deferred (recorded in its module's table)."""
    if scope.locals is not scope.globals or not node.level:
        return False
    found = table(interp, interp.cur_path)
    return found is not None and (node.lineno, node.col_offset) in found.nodes


def resolve(interp: "Interpreter", mod: ModuleVal, name: str) -> Any:
    """`mod.name` bound by a deferred explicit import: run it now. None when not deferred there."""
    found = table(interp, mod.path)
    if found is None or name not in found.explicit:
        return None
    _run(interp, mod, found.explicit[name])
    return mod.globals.get(name)


def resolve_star(interp: "Interpreter", mod: ModuleVal, name: str) -> Any:
    """`mod.name` from a deferred star import: the source that defines it, else all of them."""
    found = table(interp, mod.path)
    if found is None or not found.stars or name.startswith("_"):
        return None
    scope = Scope(mod.globals, mod.globals)
    for stmt in reversed(found.stars):  # the last star import binding a name wins
        dotted = interp.resolve_relative(stmt, scope)
        if _defines(interp, dotted, name, _STAR_DEPTH):
            target = interp.import_module(dotted, scope, stmt)
            if isinstance(target, ModuleVal) and (name in target.globals or _resolved(interp, target, name)):
                mod.globals[name] = target.globals[name]
                return mod.globals[name]
    force(interp, mod)
    return mod.globals.get(name)


def _resolved(interp: "Interpreter", target: ModuleVal, name: str) -> bool:
    return (resolve(interp, target, name) or resolve_star(interp, target, name)) is not None


def force(interp: "Interpreter", mod: ModuleVal) -> None:
    """Run every statement of `mod` still deferred (names already bound are kept)."""
    found = table(interp, mod.path)
    if found is None:
        return
    for stmt in dict.fromkeys(found.explicit.values()):
        if any((a.asname or a.name) not in mod.globals for a in stmt.names):
            _run(interp, mod, stmt)
    scope = Scope(mod.globals, mod.globals)
    for stmt in found.stars:
        target = interp.import_module(interp.resolve_relative(stmt, scope), scope, stmt)
        if isinstance(target, ModuleVal):
            for key, value in _exported(target):
                mod.globals.setdefault(key, value)


def _exported(target: ModuleVal) -> list[tuple[str, Any]]:
    names = target.globals.get("__all__")
    if isinstance(names, (list, tuple)):
        return [(n, target.globals[n]) for n in names if isinstance(n, str) and n in target.globals]
    return [(k, v) for k, v in target.globals.items() if isinstance(k, str) and not k.startswith("_")]


def _run(interp: "Interpreter", mod: ModuleVal, stmt: ast.ImportFrom) -> None:
    saved = interp.cur_path
    interp.cur_path = mod.path
    try:
        with interp.at(stmt):
            interp.import_from(stmt, Scope(mod.globals, mod.globals))
    finally:
        interp.cur_path = saved


def _defines(interp: "Interpreter", dotted: str, name: str, depth: int) -> bool:
    """Whether module `dotted` binds `name` at its top level (read as text, then as syntax)."""
    path = interp.find_module_file(dotted)
    text = read_source(path) if path is not None else None
    if path is None or text is None or not re.search(rf"\b{re.escape(name)}\b", text):
        return False
    tree = interp.shared.parse(path)
    if not isinstance(tree, ast.Module):
        return False
    if name in _top_names(tree.body) or name in _literal_all(tree.body):
        return True
    if depth <= 0:
        return False
    package = dotted if os.path.basename(path) == "__init__.py" else dotted.rpartition(".")[0]
    return any(_defines(interp, _absolute(package, s), name, depth - 1)
               for s in tree.body if isinstance(s, ast.ImportFrom) and any(a.name == "*" for a in s.names))


def _absolute(package: str, stmt: ast.ImportFrom) -> str:
    if not stmt.level:
        return stmt.module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - (stmt.level - 1)])
    return f"{base}.{stmt.module}" if stmt.module else base


def _top_names(body: list[ast.stmt]) -> set[str]:
    out: set[str] = set()
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(stmt.name)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            out.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in stmt.names if a.name != "*")
        elif isinstance(stmt, ast.If):
            out |= _top_names(stmt.body) | _top_names(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            out |= _top_names(stmt.body) | _top_names(stmt.orelse)
    return {n for n in out if not n.startswith("_")}


def _literal_all(body: list[ast.stmt]) -> set[str]:
    for stmt in body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets) \
                and isinstance(stmt.value, (ast.List, ast.Tuple)):
            return {e.value for e in stmt.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return set()
