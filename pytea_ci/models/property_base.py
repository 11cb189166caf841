"""Classes of the program deriving from `property` (transformers' `classproperty`, `functools.cached_property`
look-alikes): the base they get (`stmts.ex_ClassDef` swaps it in for `property`) keeps what CPython's
`property.__init__` keeps — `fget`, `fset`, `fdel`, `__doc__` — and is a descriptor as `property` is:
read on an instance it calls `fget`, on the class it is itself; assigned, it calls `fset`. A subclass's
own `__get__` (`return self.fget(owner_cls)`) then reads a known `fget`."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import native_class
from pytea_ci.models.values import Instance


@native_class("builtins.property.__base__", identity_eq=True)
class property_base:
    def init(ctx: Ctx, self: Instance, fget: Any = None, fset: Any = None, fdel: Any = None,  # noqa: N805
             doc: Any = None) -> None:
        self.attrs.update(fget=fget, fset=fset, fdel=fdel, __doc__=doc)

    def __get__(ctx: Ctx, self: Instance, obj: Any, owner: Any = None) -> Any:  # noqa: N805
        if obj is None:
            return self
        fget = self.attrs.get("fget")
        if fget is None:
            ctx.user_error("AttributeError", "property has no getter")
        return ctx.call(fget, obj)

    def __set__(ctx: Ctx, self: Instance, obj: Any, value: Any) -> None:  # noqa: N805
        fset = self.attrs.get("fset")
        if fset is None:
            ctx.user_error("AttributeError", "property has no setter")
        ctx.call(fset, obj, value)

    def getter(ctx: Ctx, self: Instance, fn: Any) -> Any:  # noqa: N805
        return _copy(ctx, self, fget=fn)

    def setter(ctx: Ctx, self: Instance, fn: Any) -> Any:  # noqa: N805
        return _copy(ctx, self, fset=fn)

    def deleter(ctx: Ctx, self: Instance, fn: Any) -> Any:  # noqa: N805
        return _copy(ctx, self, fdel=fn)


def _copy(ctx: Ctx, prop: Instance, **changed: Any) -> Any:
    """`type(self)(fget, fset, fdel, doc)` with one accessor replaced, as CPython's `property.setter` does."""
    a = {k: prop.attrs.get(k) for k in ("fget", "fset", "fdel")} | changed
    return ctx.call(prop.cls, a["fget"], a["fset"], a["fdel"], prop.attrs.get("__doc__"))
