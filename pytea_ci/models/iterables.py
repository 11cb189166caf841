"""`itertools`, `dict.fromkeys` and `collections.Counter` over iterables whose items are all known (lists, tuples, strings,
concrete ranges): the items CPython produces, computed by CPython itself over the analyzer's values.
The functions that only arrange items (product, permutations, combinations, chain, islice, zip_longest,
pairwise) never look at them, so any items do; starmap calls its function on each row as the program
would; compress, groupby and accumulate read them, so theirs
must be plain values. groupby gives its keys; a group's items depend on when it is read (CPython empties
it once the groupby moves on) and are not followed. An iterable whose items are not all known, a key or function argument, a result
past `_MAX_ITEMS` gives items not known — never a guess. The infinite iterators `count` and `cycle` (of known
items) are `Endless` values: `islice` of one and `zip` with one beside a finite iterable take its first items as
CPython does; anything else treats it as a value not understood (a loop over `count()` runs as over one). A Counter of plain items is CPython's own (a dict: its methods and operators are
CPython's). As every iterator of the analyzer, the result is a list (iterated twice, it gives its
items twice)."""

from __future__ import annotations

import collections
import itertools
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, prop, register
from pytea_ci.models.text import plain
from pytea_ci.models.values import Builtin, Unknown
from pytea_ci.shapes.dim import is_dim
from pytea_ci.shapes.tensor import Origin

_MAX_ITEMS = 4096


class Endless(Unknown):
    """`itertools.cycle(items)` (items known, at least one) or `itertools.count(start, step)`: its i-th item
    is known. Otherwise it is what it was before: an Unknown, so any use not listed stays not understood."""

    __slots__ = ("items", "start", "step")

    def __init__(self, reason: str, origin: Origin | None, items: tuple[Any, ...] | None, start: Any = 0,
                 step: Any = 1) -> None:
        super().__init__(reason, None, origin)
        self.items, self.start, self.step = items, start, step

    def at(self, i: int) -> Any:
        return self.items[i % len(self.items)] if self.items is not None else self.start + i * self.step

    def first(self, n: int) -> list[Any]:
        return [self.at(i) for i in range(n)]


def endless(ctx: Ctx, reason: str, items: tuple[Any, ...] | None, start: Any = 0, step: Any = 1) -> Endless:
    made = ctx.unknown(reason)
    return Endless(made.reason, made.origin, items, start, step)


@model("itertools.cycle")
def cycle(ctx: Ctx, iterable: Any) -> Any:
    items = ctx.iterate(iterable)
    if items is not None and not items:
        return []  # cycle of nothing is empty
    return endless(ctx, "itertools.cycle", tuple(items)) if items is not None else ctx.unknown("itertools.cycle")


@model("itertools.count")
def count(ctx: Ctx, start: Any = 0, step: Any = 1) -> Any:
    if not all((is_dim(v) and not isinstance(v, bool)) or type(v) is float for v in (start, step)):
        return ctx.unknown("itertools.count")
    return endless(ctx, "itertools.count", None, start, step)


def islice_endless(ctx: Ctx, it: Endless, *args: Any) -> Any:
    """`islice(endless, stop)` / `(start, stop[, step])`: CPython's selection of its first items."""
    if not all(v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 0) for v in args) \
            or not 1 <= len(args) <= 3 or (args[1] if len(args) > 1 else args[0]) is None:
        return ctx.unknown("itertools.islice of an endless iterator")
    bounds = [None if v is None else int(v) for v in args]
    sel = range(*(slice(*bounds).indices(bounds[1] if len(bounds) > 1 else bounds[0])))  # type: ignore[arg-type]
    return [it.at(i) for i in sel] if len(sel) <= _MAX_ITEMS else ctx.unknown("itertools.islice: too many items")
_UNKNOWN = object()


def _items(ctx: Ctx, v: Any, values: bool) -> Any:
    """The items of `v` when all are known (and plain, when the function reads them), else _UNKNOWN."""
    items = ctx.iterate(v)
    if items is None or (values and not all(plain(ctx, x) for x in items)):
        return _UNKNOWN
    return items


def _arranger(name: str, reads: tuple[int, ...] = (), counts: tuple[str, ...] = ()) -> Any:
    """A model of `itertools.NAME`: the items of its iterable arguments (at positions in `reads`, plain
    values), its other arguments (ints after the iterable, keywords in `counts`) plain."""
    fn = getattr(itertools, name)

    def run(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
        if name == "islice" and args and isinstance(args[0], Endless) and not kwargs:
            return islice_endless(ctx, args[0], *args[1:])
        iterables = 1 if name in _INT_TAIL else len(args)
        tail = (*args[iterables:], *kwargs.values())
        lists = [_items(ctx, a, i in reads) for i, a in enumerate(args[:iterables])]
        if any(k not in counts for k in kwargs) or not all(plain(ctx, v) for v in tail) or _UNKNOWN in lists:
            return ctx.unknown(f"itertools.{name}")
        try:
            out = list(itertools.islice(fn(*lists, *args[iterables:], **kwargs), _MAX_ITEMS + 1))
        except (TypeError, ValueError) as e:  # CPython's own error: the path ends there
            ctx.user_error(type(e).__name__, f"itertools.{name}")
            return None
        if len(out) > _MAX_ITEMS:
            return ctx.unknown(f"itertools.{name}: more than {_MAX_ITEMS} items")
        if name == "groupby":  # a group is emptied once the groupby moves on: its items are not followed
            return [(k, ctx.unknown("a group of itertools.groupby")) for k, _ in out]
        return out

    return run


_INT_TAIL = ("islice", "permutations", "combinations", "combinations_with_replacement")  # (iterable, ints...)
_MODELS = {"product": ((), ("repeat",)), "permutations": ((), ()), "combinations": ((), ()),
           "combinations_with_replacement": ((), ()), "chain": ((), ()), "islice": ((), ()),
           "zip_longest": ((), ("fillvalue",)), "pairwise": ((), ()), "compress": ((1,), ()),
           "groupby": ((0,), ()), "accumulate": ((0,), ("initial",))}

for _name, (_reads, _counts) in _MODELS.items():
    register(f"itertools.{_name}", Builtin(f"itertools.{_name}", _arranger(_name, _reads, _counts)))


@model("itertools.starmap")
def starmap(ctx: Ctx, fn: Any, iterable: Any) -> Any:
    """`starmap(f, rows)`: `f(*row)` for each row, called as the program would, rows all known."""
    rows = ctx.iterate(iterable)
    args = [ctx.iterate(r) for r in rows] if rows is not None and len(rows) <= _MAX_ITEMS else None
    if args is None or any(a is None for a in args):
        return ctx.unknown("itertools.starmap over rows not known")
    return [ctx.call(fn, *a) for a in args if a is not None]


@prop("itertools.chain.from_iterable")
def chain_from_iterable(ctx: Ctx, obj: Any) -> Any:
    def run(c: Ctx, iterable: Any) -> Any:
        inner = c.iterate(iterable)
        if inner is None:
            return c.unknown("itertools.chain.from_iterable")
        return _arranger("chain")(c, *inner)

    return Builtin("itertools.chain.from_iterable", run)


@prop("builtins.dict.fromkeys", "collections.OrderedDict.fromkeys")
def fromkeys(ctx: Ctx, obj: Any) -> Any:
    """`dict.fromkeys(keys, value=None)`: each distinct key once, in first-seen order (plain keys)."""
    def run(c: Ctx, keys: Any, value: Any = None) -> Any:
        shuffled = c.shuffled(keys)  # keys in an order not known: a dict of them in an order not known
        items = shuffled if shuffled is not None else _items(c, keys, True)
        if items is _UNKNOWN:
            return c.unknown("dict.fromkeys of keys not known")
        try:
            made = dict.fromkeys(items, value)
            return made if shuffled is None else c.unordered_dict(made)
        except TypeError:
            c.user_error("TypeError", "dict.fromkeys")
            return None

    return Builtin("dict.fromkeys", run)


@model("collections.Counter")
def counter(ctx: Ctx, iterable: Any = None, **kwargs: Any) -> Any:
    """`Counter(items)`, `Counter(mapping)`, `Counter(a=1)` of plain items: CPython's Counter."""
    if isinstance(iterable, dict):  # counts given: a dict whose items are all known
        exact = ctx.iterate(iterable) is not None and plain(ctx, [*iterable.keys(), *iterable.values()])
        items: Any = iterable if exact else _UNKNOWN
    else:
        shuffled = None if iterable is None else ctx.shuffled(iterable)
        items = {} if iterable is None else shuffled if shuffled is not None else _items(ctx, iterable, True)
    if items is _UNKNOWN or not all(plain(ctx, v) for v in kwargs.values()):
        return ctx.unknown("collections.Counter of items not known")
    try:
        made = collections.Counter(items, **kwargs)  # counted in an order not known: its order is not known
        return made if isinstance(iterable, dict) or shuffled is None else ctx.unordered_dict(made)
    except TypeError:
        ctx.user_error("TypeError", "collections.Counter")
        return None
