"""`max` and `min` as CPython picks: of sizes (concrete or symbolic) the largest/smallest as a size
term, of concrete values Python's answer, with `key=` (the first item whose key is largest/smallest)
and `default=` (of an empty iterable); not known otherwise."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.ranges import whole_order
from pytea_ci.models.registry import model
from pytea_ci.models.values import is_concrete
from pytea_ci.shapes.dim import ASSUMED_SIZE, INPUT, Sym, dmax, dmin, is_dim, is_input_size


def _concrete(*vals: Any) -> bool:
    return all(is_concrete(v) for v in vals)


def _of_data(ctx: Ctx, iterable: Any, big: bool) -> Any:
    """`max(len(w) for w in words)` over data read at run time: the items seen represent all of them, so
    the largest (smallest) is not one of them but a size of its own, as much an input of the run as they
    are, and at least as large as their lower bounds; not known when an item is not such a size."""
    items, truncated = ctx.loop_items(iterable)
    if not truncated or not items or not all(is_dim(x) and is_input_size(x) for x in items):
        return ctx.unknown("min/max of unknown")
    lows = [x if isinstance(x, int) else x.lo if isinstance(x, Sym) and x.lo is not None else 0 for x in items]
    return ctx.fresh("max" if big else "min", kind=INPUT, lo=min(lows),
                     note=f"the {'largest' if big else 'smallest'} of sizes of data read at run time {ASSUMED_SIZE}")


def _unordered_items(ctx: Ctx, v: Any) -> "list[Any] | None":
    """The items of `v` in an order not known, when the largest (smallest) of them does not depend on it:
    no two of them are equal values of different kinds (`max([1, 1.0])` is the first of them)."""
    items = ctx.shuffled(v)
    if items is None or len({type(x) for x in items}) > 1 and not all(is_dim(x) for x in items):
        return None
    return items


def _pick(ctx: Ctx, args: tuple[Any, ...], big: bool) -> Any:
    items = list(args) if len(args) > 1 else (ctx.iterate(args[0]) if args else None)
    if items is None and len(args) == 1:
        items = _unordered_items(ctx, args[0])
    if items is None and len(args) == 1:
        return _of_data(ctx, args[0], big)
    if not items:
        return ctx.unknown("min/max of unknown")
    if all(is_dim(x) for x in items) and (whole := whole_order(list(dict.fromkeys(items)))) is not None:
        return whole[1] if big else whole[0]  # every position of one order, whatever the order: lo..hi
    if all(is_dim(x) for x in items):
        out = items[0]
        for x in items[1:]:
            out = dmax(out, x) if big else dmin(out, x)
        return out
    if _concrete(*items):
        return max(items) if big else min(items)
    return ctx.unknown("min/max")


def _pick_by(ctx: Ctx, args: tuple[Any, ...], kwargs: dict[str, Any], big: bool) -> Any:
    """`max`/`min` with `key=` and/or `default=` (of one iterable), as CPython picks: the default when
    the iterable is empty, else the first item whose key is largest (smallest); not known unless every
    key is a concrete value."""
    if set(kwargs) - {"key", "default"} or ("default" in kwargs and len(args) != 1) or not args:
        return ctx.unknown("min/max with these arguments")
    if "default" in kwargs and ctx.known_length(args[0]) == 0:
        return kwargs["default"]
    unordered = len(args) == 1 and ctx.shuffled(args[0]) is not None
    items = list(args) if len(args) > 1 else ctx.members(args[0])
    if not items:
        return ctx.unknown("min/max of unknown")
    key = kwargs.get("key")
    if key is None:
        return _pick(ctx, (items[0], items[0]) if len(items) == 1 else tuple(items), big)
    keys = [ctx.call(key, x) for x in items]
    if not _concrete(*keys):
        return ctx.unknown("min/max by a key not known")
    best = 0
    for i, k in enumerate(keys):
        if (k > keys[best]) if big else (k < keys[best]):
            best = i
    if unordered and sum(1 for k in keys if not (k < keys[best] or keys[best] < k)) > 1:
        return ctx.unknown("min/max by a key two items tie on, in an order not known")
    return items[best]


@model("builtins.max")
def max_(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return _pick(ctx, args, True) if not kwargs else _pick_by(ctx, args, kwargs, True)


@model("builtins.min")
def min_(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return _pick(ctx, args, False) if not kwargs else _pick_by(ctx, args, kwargs, False)
