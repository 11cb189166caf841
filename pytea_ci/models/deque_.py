"""`collections.deque` as a list with both ends: its items are known while the program adds known
items (timm keeps a model's pretrained tags in one, `DefaultCfg.tags`). A bounded deque (`maxlen`)
drops items the way the real one does; an iterable not understood gives a deque whose items are not
known (iterating it gives a value not understood, never zero items for certain)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import native_class
from pytea_ci.models.values import Instance, Unknown


def _items(self: Instance) -> Any:
    return self.attrs.get("_items")


def _bound(self: Instance, drop_left: bool) -> None:
    """A bounded deque keeps `maxlen` items, dropping from the end opposite to where they were added."""
    items, maxlen = _items(self), self.attrs.get("maxlen")
    if isinstance(items, list) and isinstance(maxlen, int) and len(items) > maxlen:
        self.attrs["_items"] = items[len(items) - maxlen:] if drop_left else items[:maxlen]


@native_class("collections.deque")
class Deque:
    def init(ctx: Ctx, self: Instance, iterable: Any = (), maxlen: Any = None) -> None:
        got = ctx.iterate(iterable)
        self.attrs.update(_items=list(got) if got is not None else ctx.unknown("deque of items not known"),
                          maxlen=maxlen)
        _bound(self, True)

    def append(ctx: Ctx, self: Instance, x: Any) -> None:
        _add(ctx, self, [x], left=False)

    def appendleft(ctx: Ctx, self: Instance, x: Any) -> None:
        _add(ctx, self, [x], left=True)

    def extend(ctx: Ctx, self: Instance, xs: Any) -> None:
        _add(ctx, self, ctx.iterate(xs), left=False)

    def extendleft(ctx: Ctx, self: Instance, xs: Any) -> None:
        got = ctx.iterate(xs)
        _add(ctx, self, got[::-1] if got is not None else None, left=True)

    def pop(ctx: Ctx, self: Instance) -> Any:
        return _take(ctx, self, -1)

    def popleft(ctx: Ctx, self: Instance) -> Any:
        return _take(ctx, self, 0)

    def clear(ctx: Ctx, self: Instance) -> None:
        self.attrs["_items"] = []

    def __iter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        items = _items(self)
        return list(items) if isinstance(items, list) else items

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        items = _items(self)
        return len(items) if isinstance(items, list) else ctx.unknown("len of a deque of items not known")

    def __getitem__(ctx: Ctx, self: Instance, i: Any) -> Any:  # noqa: N805
        items = _items(self)
        if isinstance(items, list) and isinstance(i, int) and -len(items) <= i < len(items):
            return items[i]
        return ctx.unknown("deque item")


def _add(ctx: Ctx, self: Instance, xs: list[Any] | None, left: bool) -> None:
    items = _items(self)
    if not isinstance(items, list) or xs is None:
        self.attrs["_items"] = items if isinstance(items, Unknown) else ctx.unknown("deque of items not known")
        return
    self.attrs["_items"] = [*xs[::-1], *items] if left else [*items, *xs]
    _bound(self, not left)


def _take(ctx: Ctx, self: Instance, where: int) -> Any:
    items = _items(self)
    if isinstance(items, list) and items:
        return items.pop(where)
    if isinstance(items, list):
        ctx.user_error("IndexError", "pop from an empty deque")
    return ctx.unknown("deque item")
