"""Names read before they are bound, as CPython decides it: a name bound anywhere in a function's own
body (assigned, a loop or `with` target, imported, defined, an `except ... as` name) is a local of the
whole function, so reading it where it has no value on the path taken raises UnboundLocalError (of an
enclosing function's local, NameError) — the path ends as that exception, never reading a global of the
same name or building a value out of nothing (issue 31: `return a, b, c` with `c` unbound).

Statements the interpreter does not follow (no `ex_` handler: they bind nothing it sees) and
comprehensions (their targets are their own; a walrus inside one binds where the analyzer binds it)
are left out, so a name only they bind is never taken as unbound.

A global of the entry point's module (`__main__`: no other module sets its names) that no statement of
it binds (no assignment, import, definition, `global`
declaration or pattern capture anywhere in the file), that is no builtin, and whose module has no
star import and never touches its namespace dynamically (`globals()`, `vars()`, `exec`, `setattr`,
`sys.modules`, `__dict__`), is CPython's NameError where it is read."""

from __future__ import annotations

import ast
import builtins
import functools
from typing import TYPE_CHECKING

from pytea_ci.interp.runtime import Scope, UserException

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_BUILTINS = frozenset(dir(builtins))
_DYNAMIC = frozenset({"globals", "vars", "locals", "exec", "eval", "setattr", "__import__", "__dict__", "modules",
                      "builtins", "__builtins__", "get_ipython"})


@functools.lru_cache(maxsize=2048)
def local_names(fn: ast.AST, followed: frozenset[str]) -> frozenset[str]:
    """The names `fn`'s body binds (not its parameters, which are always bound), minus those declared
    `global`/`nonlocal`; `followed`: the statement kinds the interpreter runs."""
    out: set[str] = set()
    declared: set[str] = set()
    stack: list[ast.AST] = list(getattr(fn, "body", [])) if not isinstance(fn, ast.Lambda) else []
    while stack:
        n = stack.pop()
        if isinstance(n, ast.stmt) and type(n).__name__ not in followed:
            continue
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            declared.update(n.names)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in n.names if a.name != "*")
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
        if isinstance(n, _NESTED):
            out.add(n.name)
            stack.extend(n.decorator_list)
            continue
        if isinstance(n, (ast.Lambda, *_COMPREHENSIONS)):
            continue
        stack.extend(ast.iter_child_nodes(n))
    return frozenset(out - declared)


def followed_statements(interp: "Interpreter") -> frozenset[str]:
    """The statement kinds the interpreter runs (its `ex_` methods)."""
    kinds = getattr(type(interp), "_followed_statements", None)
    if kinds is None:
        kinds = frozenset(name[3:] for name in dir(type(interp)) if name.startswith("ex_"))
        type(interp)._followed_statements = kinds  # type: ignore[attr-defined]
    return kinds


def check_bound(interp: "Interpreter", name: str, scope: Scope) -> None:
    """Raise CPython's exception when `name` is a function local with no value on this path."""
    s: Scope | None = scope
    while s is not None:
        if name in s.locals or name in s.global_names or name in s.nonlocal_names:
            return
        if s.func is not None and not s.is_class and s.locals is not s.globals \
                and name in local_names(s.func.node, followed_statements(interp)):
            raise UserException("UnboundLocalError" if s is scope else "NameError")
        s = s.parent


def never_bound(tree: ast.Module, name: str) -> bool:
    """`name` is read as a global of the module `tree` that nothing can have bound (module docstring)."""
    if name in _BUILTINS or name.startswith("__"):
        return False
    bound = module_bindings(tree)
    return bound is not None and name not in bound


@functools.lru_cache(maxsize=256)
def module_bindings(tree: ast.Module) -> frozenset[str] | None:
    """Every name some statement of `tree` binds, at any depth; None when the module's namespace may
    get names the source does not show (a star import, `globals()`, `exec`, ...)."""
    out: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, (ast.Store, ast.Del)):
                out.add(n.id)
            elif n.id in _DYNAMIC:
                return None
        elif isinstance(n, ast.Attribute) and n.attr in _DYNAMIC:
            return None
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            if any(a.name == "*" for a in n.names):
                return None
            out.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, (*_NESTED, ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and n.name:
            out.add(n.name)
        elif isinstance(n, ast.MatchMapping) and n.rest:
            out.add(n.rest)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            out.update(n.names)
    return frozenset(out)
