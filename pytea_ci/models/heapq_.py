"""`heapq` as CPython runs it. `nlargest`/`nsmallest` (a recommender's top-k ranking: `nlargest(k, scores,
key=scores.get)`): `key` is called on every item and the result is a list of `min(n, len)` of the items;
which ones the analyzer knows only when every key is a plain value, else the list holds one of the items as
the representative of each, its length still known. The heap operations (`heappush`, `heappop`, `heapify`,
`heappushpop`, `heapreplace`) run CPython's own on a list of plain values; on another list, what they give
is one of its items and the list holds only some of its items after."""

from __future__ import annotations

import heapq
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model
from pytea_ci.models.text import plain
from pytea_ci.shapes.dim import dmax, dmin, is_dim


def _pick(largest: bool) -> Any:
    def run(ctx: Ctx, n: Any, iterable: Any, key: Any = None) -> Any:
        items = ctx.iterate(iterable)
        if items is None or not is_dim(n) or isinstance(n, bool):
            return ctx.unknown(f"heapq.{'nlargest' if largest else 'nsmallest'} of items not known")
        keys = [ctx.call(key, x) for x in items] if key is not None else list(items)
        exact = isinstance(n, int) and all(plain(ctx, k) for k in keys) and not isinstance(iterable, (set, frozenset)) \
            and ctx.known_length(iterable) == len(items)
        if exact:
            chosen = (heapq.nlargest if largest else heapq.nsmallest)(n, range(len(items)), key=keys.__getitem__)
            return [items[i] for i in chosen]
        total = ctx.known_length(iterable)
        count = dmin(dmax(n, 0), total if total is not None else ctx.length_of(list(items)))
        return ctx.sized_items([ctx.some_value(list(items), "an item heapq picks")] if items else [], count)

    return run


model("heapq.nlargest")(_pick(True))
model("heapq.nsmallest")(_pick(False))


def _heap_op(name: str) -> Any:
    """`heappush`/`heappop`/`heapify`/`heappushpop`/`heapreplace` on a list: CPython's own function where
    the list's items and the pushed one are known plain values; else the list changed in a way not known
    (holding only some of its items after) and what it returns is one of the items."""
    fn = getattr(heapq, name)

    def run(ctx: Ctx, heap: Any, *args: Any) -> Any:
        if not isinstance(heap, list):
            return ctx.unknown(f"heapq.{name} of a value not understood")
        ctx.note_mutation(heap)
        if id(heap) not in ctx.inexact and all(plain(ctx, v) for v in (*heap, *args)):
            try:
                return fn(heap, *args)
            except IndexError:
                ctx.user_error("IndexError", "index out of range")
            except TypeError:
                ctx.user_error("TypeError", f"heapq.{name}")
        out = ctx.some_value([*heap, *args], f"an item heapq.{name} gives") if name != "heapify" else None
        if name in ("heappush", "heappushpop", "heapreplace") and args:
            heap.append(args[0])
        ctx.mark_inexact(heap)
        return None if name in ("heapify", "heappush") else out

    return run


for _name in ("heappush", "heappop", "heapify", "heappushpop", "heapreplace"):
    model(f"heapq.{_name}")(_heap_op(_name))
