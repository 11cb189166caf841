"""`collections.abc.Mapping` and `MutableMapping` as bases of a class, with CPython's mixin methods:
a class that defines `__getitem__`, `__iter__` and `__len__` (and `__setitem__`, `__delitem__`) gets
`get`, `__contains__`, `keys`, `items`, `values` (and `pop`, `setdefault`, `update`) computed from
them, as `_collections_abc.py` does (transformers 5's `AttentionInterface` returns the attention
function by `super().get(name, default)`). What cannot be computed (items not known) is unknown.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import native_class
from pytea_ci.models.values import MISSING, Instance

MAPPINGS = ("collections.abc.Mapping", "collections.abc.MutableMapping")


def _method(ctx: Ctx, self: Any, name: str) -> Any:
    return ctx.getattr(self, name)


def _lookup(ctx: Ctx, self: Any, key: Any) -> tuple[bool, Any]:
    """`self[key]`, or (False, None) when it raises KeyError."""
    return ctx.attempt("KeyError", _method(ctx, self, "__getitem__"), key)


def _keys(ctx: Ctx, self: Any) -> list[Any] | None:
    return ctx.iterate(ctx.call(_method(ctx, self, "__iter__")))


@native_class("collections.abc.Mapping")
class Mapping:
    def get(ctx: Ctx, self: Instance, key: Any, default: Any = None) -> Any:
        found, value = _lookup(ctx, self, key)
        return value if found else default

    def __contains__(ctx: Ctx, self: Instance, key: Any) -> Any:  # noqa: N805
        return _lookup(ctx, self, key)[0]

    def keys(ctx: Ctx, self: Instance) -> Any:
        keys = _keys(ctx, self)
        return list(keys) if keys is not None else ctx.unknown("keys of a mapping not known")

    def items(ctx: Ctx, self: Instance) -> Any:
        keys = _keys(ctx, self)
        if keys is None:
            return ctx.unknown("items of a mapping not known")
        return [(k, ctx.getitem(self, k)) for k in keys]

    def values(ctx: Ctx, self: Instance) -> Any:
        keys = _keys(ctx, self)
        return [ctx.getitem(self, k) for k in keys] if keys is not None else ctx.unknown("values of a mapping not known")


@native_class("collections.abc.MutableMapping", bases=(Mapping,))
class MutableMapping:
    def pop(ctx: Ctx, self: Instance, key: Any, default: Any = MISSING) -> Any:
        found, value = _lookup(ctx, self, key)
        if not found:
            if default is MISSING:
                ctx.user_error("KeyError", "pop")
            return default
        ctx.call(_method(ctx, self, "__delitem__"), key)
        return value

    def setdefault(ctx: Ctx, self: Instance, key: Any, default: Any = None) -> Any:
        found, value = _lookup(ctx, self, key)
        if found:
            return value
        ctx.call(_method(ctx, self, "__setitem__"), key, default)
        return default

    def update(ctx: Ctx, self: Instance, other: Any = (), **kwargs: Any) -> Any:
        pairs = list(other.items()) if isinstance(other, dict) else ctx.iterate(other)
        if pairs is None or not all(isinstance(p, tuple) and len(p) == 2 for p in pairs):
            return ctx.unknown("update of a mapping with items not known")
        for k, v in [*pairs, *kwargs.items()]:
            ctx.call(_method(ctx, self, "__setitem__"), k, v)
        return None
