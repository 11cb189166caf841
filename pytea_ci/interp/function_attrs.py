"""Attributes of functions, bound methods and properties, which library code reads: a decorator's
`fn.__module__`/`fn.__qualname__`, `f.__code__` handed to `types.FunctionType` (a library's
`copy_func`), `method.__func__`, `@prop.setter` in a class body."""

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
    return self.derived(f"attribute {name}", obj)


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
