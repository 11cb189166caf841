"""Lazy exports of installed packages (issue 21): the `__init__.py` of a followed package does not run
its `from .sub import *` statements until one of their names is asked for, and a `_LazyModule`
package (transformers, diffusers) gives the names it writes under `if TYPE_CHECKING:` (`lazy_name`).
Any module of a followed package leaves for their first read the top-level imports its own code reads
only inside functions ("late imports", issue 36 item 3, at the end of this file).

Model libraries gather everything in their package `__init__`: `import timm` runs `from .beit import *`,
`from .byobnet import *`, ... for about a hundred model files (each building a large table of pretrained
configurations and registering its model functions), about 500k interpreter steps, to use one model.
Python 3.15's explicit lazy imports (PEP 810) name the fix: an import whose names are not used at
import time can run when one of them is first used. Here, in the `__init__.py` of a followed package
only (never in the project's code), a top-level relative `from .sub import *` is *deferred* when every
name the file reads is bound in it by other means or is a builtin (so the file's own code needs nothing
the star imports bring). A deferred statement is recorded, not run; a name of the package module that
is not there (`from timm.models import resnet50`, `timm.models.resnet50`) is then searched in the star
sources' text and confirmed on their syntax (a top-level definition, assignment or import binding it,
or a name of a literal `__all__`; a source's own star imports are searched two levels down): the module
that defines it is imported and the name bound. Else the sources whose text names it at all are
imported (a name bound at run time); a name no source mentions is not there (the attribute is a value
not understood, as any missing attribute of a module). `from package import *` and `package.__dict__`
run every deferred statement first.

Explicit re-exports (`from .models import create_model`) run as written: they are cheap next to the
star imports, and an import that runs them keeps the modules it loads its own, so it stays one import
that `kept.py` can keep (a name resolved later binds names in modules loaded before it).

What changes: the side effects of a deferred module's import happen when (and only if) one of its names
is used — a registry the skipped modules would have filled (timm's `@register_model`) lacks their
entries; models of such registries (`models/timm_.py`) read the package source instead. The tables are
static facts of each file (kept per path for the process), so restored imports resolve the same way.
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
from pytea_ci.models.values import Unknown
from pytea_ci.packages import index
from pytea_ci.packages.index import absolute, type_checking_imports, is_type_checking
from pytea_ci.packages.site import not_found, package_origin, site_of

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

_BUILTINS = frozenset(dir(builtins)) | {"__name__", "__file__", "__package__", "__path__", "__spec__", "__doc__"}
_DYNAMIC = frozenset({"globals", "locals", "vars", "dir", "__getattr__", "__dir__", "exec", "eval"})
_STAR_DEPTH = 2


@dataclass
class Deferred:
    """The star imports of one `__init__.py` that run on first use."""

    stars: list[ast.ImportFrom] = field(default_factory=list)
    nodes: frozenset[tuple[int, int]] = frozenset()  # (line, column) of each: a file may be parsed again


_TABLES: dict[str, Deferred | None] = {}


def table(interp: "Interpreter", path: str) -> Deferred | None:
    """The deferred statements of `path` (None: not a followed package's `__init__.py`, or nothing)."""
    if path not in _TABLES:
        site = site_of(interp)
        tree = interp.shared.parse(path) if site is not None and os.path.basename(path) == "__init__.py" \
            and site.package_of(path) is not None else None
        _TABLES[path] = _deferred(tree) if isinstance(tree, ast.Module) else None
    return _TABLES[path]


def _deferred(tree: ast.Module) -> Deferred | None:
    read, bound = _names(tree)
    if read & _DYNAMIC or read - bound - _BUILTINS:
        return None  # the module looks at its namespace, or reads a name a star import may bring
    stars = [s for s in tree.body if isinstance(s, ast.ImportFrom) and s.level and any(a.name == "*" for a in s.names)]
    return Deferred(stars, frozenset((n.lineno, n.col_offset) for n in stars)) if stars else None


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


def resolve_star(interp: "Interpreter", mod: ModuleVal, name: str) -> Any:
    """`mod.name` from a deferred star import: the source that defines it, else all of them."""
    found = table(interp, mod.path)
    if found is None or not found.stars or name.startswith("_"):
        return None
    scope = Scope(mod.globals, mod.globals)
    sources = [interp.resolve_relative(stmt, scope) for stmt in reversed(found.stars)]  # the last one wins
    for dotted in [d for d in sources if _defines(interp, d, name, _STAR_DEPTH)] + \
            [d for d in sources if _mentions(interp, d, name)]:
        target = interp.import_module(dotted, scope, ast.Pass())
        if isinstance(target, ModuleVal) and (name in target.globals or _resolved(interp, target, name)):
            mod.globals[name] = target.globals[name]
            return mod.globals[name]
    return None


def _mentions(interp: "Interpreter", dotted: str, name: str) -> bool:
    """Whether the text of module `dotted` names `name` at all (a name bound at run time, by `setattr`
    or a registry appending to `__all__`, is written somewhere in it)."""
    path = interp.find_module_file(dotted)
    text = read_source(path) if path is not None else None
    return text is not None and re.search(rf"\b{re.escape(name)}\b", text) is not None


def _resolved(interp: "Interpreter", target: ModuleVal, name: str) -> bool:
    return resolve_star(interp, target, name) is not None


def force(interp: "Interpreter", mod: ModuleVal) -> None:
    """Run every statement of `mod` still deferred (names already bound are kept)."""
    found = table(interp, mod.path)
    if found is None:
        return
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
    return any(_defines(interp, absolute(package, s), name, depth - 1)
               for s in tree.body if isinstance(s, ast.ImportFrom) and any(a.name == "*" for a in s.names))


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


# ----- names exported by `_LazyModule` (transformers, diffusers) -----------------------------------------
_LAZY: dict[str, dict[str, tuple[int, str, str]]] = {}  # module file -> name -> (level, module, name there)


def lazy_name(interp: "Interpreter", mod: Any, name: str) -> Any:
    """A name a followed package's module does not define when run but exports lazily (transformers,
    diffusers: `sys.modules[__name__] = _LazyModule(...)`, with the real imports written under
    `if TYPE_CHECKING:` for type checkers): read from those imports, and the one module that
    defines it imported. None when the module says nothing of `name`."""
    site = site_of(interp)
    if site is None or site.package_of(mod.path) is None:
        return None
    if site.compiled(f"{mod.name}.{name}"):
        return not_found(interp, f"{mod.name}.{name}")
    table = _lazy_table(interp, mod.path)
    if name not in table:
        return None
    level, module, there = table[name]
    pkg = mod.globals.get("__package__") or mod.name
    base = pkg.split(".")
    if level > 1:
        base = base[: len(base) - (level - 1)]
    dotted = ".".join([*base, module] if module else base) if level else module
    target = interp.import_module(dotted, _scope(mod), ast.Pass())
    if isinstance(target, Unknown):
        return target
    return interp.getattr(target, there)


def _scope(mod: Any) -> Any:
    return Scope(mod.globals, mod.globals)


def _lazy_table(interp: "Interpreter", path: str) -> dict[str, tuple[int, str, str]]:
    if path not in _LAZY:
        tree = interp.shared.parse(path)
        table: dict[str, tuple[int, str, str]] = {}
        if isinstance(tree, ast.Module):
            for stmt in tree.body:
                if isinstance(stmt, ast.If) and is_type_checking(stmt.test):
                    for node in type_checking_imports(stmt.body):
                        for alias in node.names:
                            if alias.name != "*":
                                table.setdefault(alias.asname or alias.name, (node.level, node.module or "", alias.name))
        _LAZY[path] = table
    return _LAZY[path]


def indexed(interp: "Interpreter", mod: Any, name: str) -> Any:
    """A name of a followed package's module that neither running its `__init__` nor its `TYPE_CHECKING`
    imports bound (a module `__getattr__`, an import structure computed at run time): the module of
    the package that defines it, from the package's index (`index.py`), imported. An unknown naming
    the candidates when several modules define it; None when none does."""
    site = site_of(interp)
    package = site.package_of(mod.path) if site is not None else None
    init = site.find(package) if site is not None and package is not None else None
    if site is None or package is None or init is None or name.startswith("_"):
        return None
    version = "|".join(str(v) for v in site.versions.get(package, ()))
    found = index.lookup(os.path.dirname(init), package, version, site.disk.folder if site.disk else None,
                         mod.name, name)
    if found is None:
        return None
    if found.module is None:
        return package_origin(interp, package, index.origin_text(name, found))
    target = interp.import_module(found.module, _scope(mod), ast.Pass())
    if isinstance(target, ModuleVal) and name in target.globals:
        mod.globals[name] = target.globals[name]
        return mod.globals[name]
    return target if isinstance(target, Unknown) else interp.getattr(target, name)


# ----- imports a module's own code reads only inside its functions ---------------------------------------
# A top-level `import m` / `from m import a, b` of a followed package's module whose names the module's
# code never reads while it is imported (outside function bodies: class bodies, decorators, defaults and
# annotations count as import time) runs when one of its names is first read: a global of the module
# (`Interpreter._global`) or an attribute of it (`attr_of_module`, before its submodules: the imported value
# wins, as in CPython where the import statement rebinds the name after the submodule's import bound it).
# Only when its module is a followed package's not loaded yet (an import of a loaded module costs
# nothing), and never for a name bound twice in the module (a fallback, `global`, `del`), a name a
# submodule of the package has (its import binds the submodule there), or in a module that reads its
# namespace (`globals()`, a module `__getattr__`, a star import). The statement then runs in the module,
# at its line, as written; `from m import *` and `m.__dict__` run every one left (`force_late`).
# transformers 5's `modeling_layers` imports `AutoModel` for the generic heads a BERT script never builds;
# its import (every auto class's docstring rewritten over every model type) was 6.9 of the cold check's
# 11.8 CPU seconds. What changes, as for the deferred star imports above: the side effects of a module
# imported late happen when one of its names is read, and not at all when none is (a registry it would
# fill lacks its entries until then). A name bound late in a module loaded by an earlier import does not
# stop the import that read it from being kept (`interp/kept.py` `_late`): a restored one leaves it
# unbound, and the module binds it again on its next read. The tables are static facts of each file, not
# charged to the path (a restored import is charged as its cold run).
@dataclass
class Late:
    """The top-level imports of one followed module that its import-time code never reads."""

    by_name: dict[str, ast.Import | ast.ImportFrom]
    nodes: frozenset[tuple[int, int]]


_LATE: dict[str, Late | None] = {}
_RESOLVING: set[tuple[int, str, str]] = set()


def late_table(interp: "Interpreter", path: str) -> Late | None:
    """The late imports of the followed package module `path` (None: none, or not such a module)."""
    if path not in _LATE:
        site = site_of(interp)
        unpaid = interp.shared.unpaid  # a fact of the file, read for any path (a restored import's module
        tree = interp.shared.parse(path) if site is not None and site.package_of(path) is not None else None
        interp.shared.unpaid = unpaid  # too): not charged, so a restored import is charged as its cold run
        _LATE[path] = _late(tree, _submodules(path)) if isinstance(tree, ast.Module) else None
    return _LATE[path]


def _submodules(path: str) -> frozenset[str]:
    """The names of a package's submodules (of an `__init__.py`; none for a module)."""
    if os.path.basename(path) != "__init__.py":
        return frozenset()
    try:
        names = os.listdir(os.path.dirname(path))
    except OSError:
        return frozenset()
    return frozenset(n[:-3] if n.endswith(".py") else n for n in names)


def _late(tree: ast.Module, submodules: frozenset[str] = frozenset()) -> Late | None:
    """(`submodules`: a package's submodule binds its name in the package when it is imported, as CPython
    does, so an import binding a name a submodule has runs as written: else the submodule would stay.)"""
    eager, bound, dynamic = _import_time_reads(tree)
    if dynamic:
        return None
    by_name: dict[str, ast.Import | ast.ImportFrom] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and (stmt.module == "__future__" or any(a.name == "*" for a in stmt.names)):
            continue
        if not isinstance(stmt, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(stmt, ast.Import) and any(a.asname is None and "." in a.name for a in stmt.names):
            continue  # `import a.b` binds `a` and loads `a.b`: run as written
        names = [(a.asname or a.name).split(".")[0] for a in stmt.names]
        if all(n not in eager and bound.get(n) == 1 and n not in submodules for n in names):
            for n in names:
                by_name[n] = stmt
    nodes = frozenset((s.lineno, s.col_offset) for s in by_name.values())
    return Late(by_name, nodes) if by_name else None


def _import_time_reads(tree: ast.Module) -> tuple[set[str], dict[str, int], bool]:
    """The names the module's code reads while it is imported (outside function bodies: class bodies,
    decorators, defaults and annotations included), how many statements bind each name anywhere in the
    module (a `global` declaration counts as one), and whether the module looks at its own namespace."""
    eager: set[str] = set()
    bound: dict[str, int] = {}
    dynamic = False

    def bind(name: str) -> None:
        bound[name] = bound.get(name, 0) + 1

    def visit(node: ast.AST, in_function: bool) -> None:
        nonlocal dynamic
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            params = [*args.posonlyargs, *args.args, *args.kwonlyargs, *([args.vararg] if args.vararg else []),
                      *([args.kwarg] if args.kwarg else [])]
            parts = [*args.defaults, *(d for d in args.kw_defaults if d is not None),
                     *(a.annotation for a in params if a.annotation is not None)]
            if not isinstance(node, ast.Lambda):
                parts += [*node.decorator_list, *([node.returns] if node.returns is not None else [])]
            for part in parts:
                visit(part, in_function)
            if not isinstance(node, ast.Lambda):
                if not in_function:
                    bind(node.name)
                if node.name in ("__getattr__", "__dir__") and not in_function:
                    dynamic = True
            body = node.body if isinstance(node.body, list) else [node.body]
            for stmt in body:
                visit(stmt, True)
            return
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                if node.id in _DYNAMIC:
                    dynamic = True
                if not in_function:
                    eager.add(node.id)
            elif not in_function:
                bind(node.id)
        elif isinstance(node, ast.Global):
            for n in node.names:
                bind(n)
        elif not in_function:
            if isinstance(node, ast.ClassDef):
                bind(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for a in node.names:
                    if a.name != "*":
                        bind((a.asname or a.name).split(".")[0])
                    else:
                        dynamic = True  # a star import may bind any name
            elif isinstance(node, ast.ExceptHandler) and node.name:
                bind(node.name)
            elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
                bind(node.name)
        for child in ast.iter_child_nodes(node):
            visit(child, in_function)

    for stmt in tree.body:
        visit(stmt, False)
    return eager, bound, dynamic


def skip_late(interp: "Interpreter", node: ast.Import | ast.ImportFrom, scope: Scope) -> bool:
    """Whether the top-level import being run is left for when the module's code first reads one of its
    names: its module is a followed package's, not loaded yet."""
    if scope.locals is not scope.globals:
        return False
    found = late_table(interp, interp.cur_path)
    if found is None or (node.lineno, node.col_offset) not in found.nodes:
        return False
    site = site_of(interp)
    if site is None:
        return False
    if isinstance(node, ast.ImportFrom):
        dotted = interp.resolve_relative(node, scope)
        targets = [dotted, *(f"{dotted}.{a.name}" for a in node.names)] if dotted else [a.name for a in node.names]
    else:
        targets = [a.name for a in node.names]
    return any(t not in interp.modules and site.find(t) is not None for t in targets)


def late_name(interp: "Interpreter", g: dict[str, Any], name: str) -> Any:
    """`name` of the module whose globals are `g`, bound by a late import not run yet: run it now (in
    the module, as it would have run at its line) and give the name (None: not such a name)."""
    path = g.get("__file__")
    if not isinstance(path, str):
        return None
    found = late_table(interp, path)
    stmt = found.by_name.get(name) if found is not None else None
    key = (id(interp), path, name)
    if stmt is None or key in _RESOLVING:
        return None
    _RESOLVING.add(key)
    saved = interp.cur_path
    interp.cur_path = path
    try:
        scope = Scope(g, g)
        with interp.at(stmt):
            if isinstance(stmt, ast.ImportFrom):
                interp.import_from(stmt, scope)
            else:
                for alias in stmt.names:
                    interp.bind_name(alias.asname or alias.name, interp.import_module(alias.name, scope, stmt), scope)
    finally:
        interp.cur_path = saved
        _RESOLVING.discard(key)
    return g.get(name)


def force_late(interp: "Interpreter", mod: ModuleVal) -> None:
    found = late_table(interp, mod.path)
    if found is not None:
        for name in list(found.by_name):
            if name not in mod.globals:
                late_name(interp, mod.globals, name)
