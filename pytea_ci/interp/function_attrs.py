"""Attributes of functions, bound methods and properties, which library code reads: a decorator's
`fn.__module__`/`fn.__qualname__`, `f.__code__` handed to `types.FunctionType` (a library's
`copy_func`), the code object's names (`fn.__code__.co_varnames`: a decorator that finds an argument's
position), `method.__func__`, `@prop.setter` in a class body."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.runtime import FunctionVal
from pytea_ci.models.values import BoundMethod, Builtin, PropertyVal

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter


def attr_of_function(self: "Interpreter", obj: FunctionVal, name: str) -> Any:
    """A function's own names (an installed package's registry keys on `fn.__module__`, `fn.__name__`);
    what was set on it (`functools.wraps` sets `__name__`, `__qualname__`, `__doc__`, `__wrapped__`) first."""
    if name in obj.attrs:
        return obj.attrs[name]
    if name == "__doc__":
        return ast.get_docstring(obj.node, clean=False) if not isinstance(obj.node, ast.Lambda) else None
    if name == "__module__":
        return obj.globals.get("__name__")
    if name in ("__name__", "__qualname__"):
        return obj.name if name == "__name__" else obj.qualname or obj.name
    if name == "__code__":  # handed to `types.FunctionType` to copy the function (a library's copy_func)
        return obj
    if name == "__defaults__":
        return tuple(obj.defaults) if obj.defaults else None
    if name in _CODE:  # `__code__` is the function itself (above)
        return _CODE[name](obj)
    if name == "replace":  # `f.__code__.replace(co_name=...)`: the same code under other names (kornia's clone)
        return Builtin("code.replace", lambda ctx, **kw: obj if set(kw) <= _RENAMES else ctx.unknown("code.replace"))
    return self.derived(f"attribute {name}", obj)


def _varnames(fn: FunctionVal) -> tuple[str, ...]:
    """`co_varnames`: the parameters (positional, keyword-only, then `*args` and `**kw`), then the names the body binds (its local variables), in the order
    they first appear. The function's own scope only: nested functions, classes, lambdas and
    comprehensions have scopes of their own (as in CPython before 3.12)."""
    node, a = fn.node, fn.node.args
    names = [x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)] + [x.arg for x in (a.vararg, a.kwarg) if x]
    if isinstance(node, ast.Lambda):
        return tuple(names)
    declared = {n for st in _own_nodes(node.body) if isinstance(st, (ast.Global, ast.Nonlocal)) for n in st.names}
    bound = {n for n in (_bound(x) for x in _own_nodes(node.body)) if n is not None} - declared
    seen = set(names)
    for x in _own_nodes(node.body):
        name = x.id if isinstance(x, ast.Name) else _bound(x)
        if name in bound and name not in seen:
            seen.add(name)
            names.append(name)
    return tuple(names)


def _bound(x: ast.AST) -> str | None:
    """The name node `x` binds in its scope, if any."""
    if isinstance(x, ast.Name) and isinstance(x.ctx, (ast.Store, ast.Del)):
        return x.id
    if isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return x.name
    if isinstance(x, ast.alias):
        return x.asname or x.name.split(".")[0]
    if isinstance(x, ast.ExceptHandler) or isinstance(x, (ast.MatchAs, ast.MatchStar)):
        return x.name
    return x.rest if isinstance(x, ast.MatchMapping) else None


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
           ast.GeneratorExp)


def _own_nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of `body` in source order, not entering nested scopes (whose names are theirs)."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        x = stack.pop()
        out.append(x)
        if isinstance(x, _SCOPES):
            continue  # (its decorators and defaults are evaluated outside, but bind nothing)
        stack.extend(reversed(list(ast.iter_child_nodes(x))))
    return out


_RENAMES = frozenset({"co_name", "co_qualname"})  # `code.replace` arguments that leave what the code does alone
_CODE = {
    "co_varnames": _varnames,
    "co_argcount": lambda fn: len(fn.node.args.posonlyargs) + len(fn.node.args.args),
    "co_posonlyargcount": lambda fn: len(fn.node.args.posonlyargs),
    "co_kwonlyargcount": lambda fn: len(fn.node.args.kwonlyargs),
    "co_name": lambda fn: fn.name,
    "co_filename": lambda fn: fn.path,
    "co_firstlineno": lambda fn: min([fn.node.lineno, *(d.lineno for d in getattr(fn.node, "decorator_list", ()))]),
}


def attr_of_bound_method(self: "Interpreter", obj: BoundMethod, name: str) -> Any:
    """A method's `__func__` and `__self__`; other names are its function's (`m.__code__`, `m.__name__`)."""
    if name == "__func__":
        return obj.func
    if name == "__self__":
        return obj.self_val
    if isinstance(obj.func, FunctionVal):
        return attr_of_function(self, obj.func, name)
    return self.derived(f"attribute {name}", obj)


def attr_of_property(self: "Interpreter", obj: PropertyVal, name: str) -> Any:
    """`@prop.setter` / `.getter` / `.deleter` in a class body: the property with that function."""
    if name in ("setter", "getter", "deleter"):
        def with_fn(ctx: Any, fn: Any) -> PropertyVal:
            return PropertyVal(obj.fget, fn) if name == "setter" else PropertyVal(fn, obj.fset) if name == "getter" else obj
        return Builtin(f"property.{name}", with_fn)
    if name in ("fget", "fset"):
        return getattr(obj, name)
    return self.derived(f"attribute {name}", obj)
