"""Value ranges of integer tensors: an interval every element lies in, and what is known to occur.

`lo`/`hi` are sound bounds (None: unbounded). What a bound claims about the values, strongest first:
- `attained`: both bounds occur among the values in every run (arange, literals, full);
- `reachable`: each bound occurs in some run (a random subset of attained values: a shuffled loader
  dropping its last batch, `random_split`);
- `random`: every element is an independent draw that may take any value of the interval
  (torch.randint, indices picked by data such as argmax): survives any non-empty selection of
  elements, even a fixed one (`Subset(ds, range(0, n, 2))`), since the elements kept are draws too;
- `dense` (with `attained`): every integer between the bounds occurs in every run (arange, randperm),
  so `% k` of it holds every remainder up to its top;
- none: the bounds only over-approximate (a fixed selection of attained values: the even positions
  of `arange(n) % c` may hold only even labels), so no run is known to meet them.
`drawn` = (a, b, n) adds that at least n elements are uniform draws from [a, b] (for messages);
`seeded`, that they follow a constant seed (models/random_.py): fixed values the analyzer does not
compute, so no bound is known to occur and an element taken from them is a size of unknown kind.
A draw that misses an allowed interval is never certain: however unlikely, a run whose draws all fall
inside passes, so a check that fails only through draws is a warning, never an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pytea_ci.diagnostics import Span
from pytea_ci.shapes.dim import Dim, add, mul

@dataclass(frozen=True)
class ValueRange:
    lo: Dim | None
    hi: Dim | None
    attained: bool = False
    drawn: tuple[int, int, int] | None = None
    origin: Span | None = field(default=None, compare=False)
    note: str = field(default="", compare=False)  # what made it, e.g. "torch.randint(1, 13)"
    reachable: bool = False
    random: bool = False
    dense: bool = False
    seeded: bool = False  # the draws (`drawn`) follow a constant seed

    @property
    def possible(self) -> bool:
        """Each bound occurs in some run (a value beyond an allowed bound makes some run fail)."""
        return self.attained or self.reachable or self.random

    def describe(self) -> str:
        lo = "-inf" if self.lo is None else repr(self.lo)
        hi = "inf" if self.hi is None else repr(self.hi)
        where = f" ({self.note}" + (f" at {self.origin.path}:{self.origin.line})" if self.origin else ")") \
            if self.note else ""
        return f"[{lo}, {hi}]{where}"


def shift(r: ValueRange, c: int) -> ValueRange:
    """Every value plus `c` (`labels - 1`)."""
    drawn = None if r.drawn is None else (r.drawn[0] + c, r.drawn[1] + c, r.drawn[2])
    note = f"{r.note} {'+' if c >= 0 else '-'} {abs(c)}" if r.note else ""
    return replace(r, lo=_opt(add, r.lo, c), hi=_opt(add, r.hi, c), drawn=drawn, note=note)


def scale(r: ValueRange, k: int) -> ValueRange:
    """Every value times `k` (a lattice: the draws no longer cover an interval)."""
    lo, hi = _opt(mul, r.lo, k), _opt(mul, r.hi, k)
    if k < 0:
        lo, hi = hi, lo
    return replace(r, lo=lo, hi=hi, drawn=None, attained=r.attained and k != 0, dense=r.dense and k in (1, -1))


def plus(a: ValueRange, b: ValueRange) -> ValueRange:
    """Element-wise sum of two ranged tensors: bounds only (the two largest need not meet)."""
    return ValueRange(_opt(add, a.lo, b.lo), _opt(add, a.hi, b.hi), origin=a.origin, note=a.note)


def hull(a: ValueRange, b: ValueRange) -> ValueRange:
    """Values from both (`cat`, a `setitem` writing `b` into `a`): bounds of both, draws of `a`.
    A bound occurs where the part that gives it occurs."""
    if _within(b, a):
        return replace(a, attained=a.attained and b.attained, random=a.random and b.random, reachable=a.possible,
                       dense=a.dense and b.attained)
    if _within(a, b):
        return replace(b, drawn=a.drawn, seeded=a.seeded, origin=a.origin, note=a.note, attained=a.attained and b.attained,
                       random=a.random and b.random, reachable=b.possible, dense=b.dense and a.attained)
    return ValueRange(_cmp(min, a.lo, b.lo), _cmp(max, a.hi, b.hi), a.attained and b.attained, a.drawn, a.origin,
                      a.note, reachable=a.possible and b.possible, random=a.random and b.random, seeded=a.seeded)


def _within(a: ValueRange, b: ValueRange) -> bool:
    """`a`'s bounds lie inside `b`'s (known for ints and for equal bounds)."""
    def le(x: Dim | None, y: Dim | None) -> bool:
        return x == y or (isinstance(x, int) and isinstance(y, int) and x <= y)
    return a.lo is not None and a.hi is not None and le(b.lo, a.lo) and le(a.hi, b.hi)


def clamp(r: ValueRange, lo: int | None, hi: int | None) -> ValueRange:
    new_lo = r.lo if lo is None else (lo if r.lo is None else _cmp(max, r.lo, lo))
    new_hi = r.hi if hi is None else (hi if r.hi is None else _cmp(min, r.hi, hi))
    return replace(r, lo=new_lo, hi=new_hi, drawn=None)


def keep_draws(r: ValueRange, n: int | None, random_positions: bool = False, nonempty: bool = False) -> ValueRange:
    """Some of the elements remain (a subset or an overwrite), at most `n` of the drawn ones (None:
    not known). Draws stay draws; attained bounds are only reachable when the positions kept are
    chosen at random (a shuffled loader dropping its last batch), else nothing is known to occur.
    A `nonempty` selection of a range of one attained value still holds it (`full((n,), c)`)."""
    reachable = r.possible if random_positions else r.random and (n is None or n > 0)
    drawn = None if r.drawn is None or n is None or n <= 0 else (r.drawn[0], r.drawn[1], min(n, r.drawn[2]))
    return replace(r, attained=nonempty and one_value(r), drawn=drawn, reachable=reachable, dense=False,
                   random=r.random and (n is None or n > 0))


def one_value(r: ValueRange) -> bool:
    """Every element holds the same value, which occurs (in any non-empty selection of them too)."""
    return r.attained and r.lo is not None and r.lo == r.hi


def fixed_selection(r: ValueRange) -> ValueRange:
    """A selection of positions the program fixed (`Subset(ds, indices)`, an item of it each time):
    only draws still occur, and a value every element holds."""
    return replace(r, attained=one_value(r), reachable=r.random, dense=False)


def _opt(fn: object, a: Dim | None, b: Dim | None) -> Dim | None:
    return None if a is None or b is None else fn(a, b)  # type: ignore[operator]


def _cmp(fn: object, a: Dim | None, b: Dim | None) -> Dim | None:
    if a is None or b is None:
        return None
    if isinstance(a, int) and isinstance(b, int):
        return fn(a, b)  # type: ignore[operator,no-any-return]
    from pytea_ci.shapes.dim import dmax, dmin

    return dmin(a, b) if fn is min else dmax(a, b)
