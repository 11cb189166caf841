"""`collections.abc.Sequence` as a base of a class, with CPython's mixin methods: a class that defines
`__getitem__` and `__len__` gets `__iter__` (`self[0]`, `self[1]`, ... until IndexError), `__contains__`,
`index` and `count` computed from them, as `_collections_abc.py` does (transformers 5's per-layer config
view is such a class, iterated by `zip`). What cannot be computed (items not known) is unknown.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import native_class
from pytea_ci.models.values import Instance, IterVal


def _items(ctx: Ctx, self: Instance) -> list[Any]:
    """The items of `for v in self` (a subclass's own `__iter__` included): inexact when some are left out."""
    items, truncated = ctx.iteration_of(self)
    out = list(items)
    if truncated:
        ctx.mark_inexact(out)
    return out


def _is(ctx: Ctx, value: Any, item: Any) -> Any:
    """`item is value or item == value`."""
    return ctx.compare_values("in", value, [item])


@native_class("collections.abc.Sequence")
class Sequence:
    def __iter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        items, truncated = ctx.index_items(self)
        return IterVal(items, truncated)

    def __contains__(ctx: Ctx, self: Instance, value: Any) -> Any:  # noqa: N805
        return ctx.compare_values("in", value, _items(ctx, self))

    def count(ctx: Ctx, self: Instance, value: Any) -> Any:  # noqa: N805
        items = _items(ctx, self)
        hits = [_is(ctx, value, v) for v in items]
        if ctx.known_length(items) != len(items) or not all(isinstance(h, bool) for h in hits):
            return ctx.unknown("count of a sequence whose items are not known")
        return sum(hits)

    def index(ctx: Ctx, self: Instance, value: Any, start: Any = 0, stop: Any = None) -> Any:  # noqa: N805
        if not (isinstance(start, int) and start == 0) or stop is not None:
            return ctx.unknown("index of a sequence between bounds")
        items, truncated = ctx.index_items(self)
        for i, v in enumerate(items):
            hit = _is(ctx, value, v)
            if hit is not False:
                return i if hit is True else ctx.unknown("index of a sequence whose items are not known")
        if truncated:
            return ctx.unknown("index of a sequence whose items are not known")
        ctx.user_error("ValueError", "Sequence.index(x): x not in sequence")
        return None
