"""What builtins make of items in an order CPython leaves to the hash seed (a set of strings; the interpreter's
`interp/unordered.py` says which): `zip(range(n), xs)` numbers them as `enumerate` does, and a sorted view of
them is in a known order only when no two different items tie on their key."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.values import RangeVal, is_concrete


def _concrete(*vals: Any) -> bool:
    return all(is_concrete(v) for v in vals)


def zip_positions(ctx: Ctx, iterables: tuple[Any, ...]) -> Any:
    """`zip(range(n), xs)` (either way round) of items in an order not known, as many as the range:
    `enumerate` of them."""
    if len(iterables) != 2:
        return None
    for r, other in (iterables, iterables[::-1]):
        shuffled = ctx.shuffled(other)
        if shuffled is not None and isinstance(r, RangeVal) and r.step == 1 and _concrete(r.start, r.stop) \
                and r.stop - r.start == len(shuffled) and (pairs := ctx.enumerated(shuffled, r.start)) is not None:
            if r is iterables[1]:
                pairs.items = [(x, i) for i, x in pairs.items]
            return pairs
    return None


def ties(keys: list[Any], items: list[Any]) -> bool:
    """Whether two neighbours of a sorted list have equal keys and are not the same value (then a stable sort
    keeps them in the order it was given: `sorted({"ab", "cd"}, key=len)`, `sorted({1, True, "a"} ...)`)."""
    return any(_same_key(keys[i], keys[i + 1]) and not (type(items[i]) is type(items[i + 1]) and items[i] == items[i + 1])
               for i in range(len(items) - 1))


def _same_key(a: Any, b: Any) -> bool:
    try:
        return not (a < b or b < a) if _concrete(a, b) else True
    except TypeError:
        return True
