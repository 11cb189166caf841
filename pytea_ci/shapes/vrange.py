"""Value ranges of integer tensors: an interval every element lies in, and what is known to occur.

`lo`/`hi` are sound bounds (None: unbounded). `attained` says both bounds occur among the values
(arange, literals). `drawn` = (a, b, n) says at least n elements are independent uniform draws from
[a, b] (torch.randint): the chance that none of them falls outside an allowed interval is computed,
and an index check whose failure is all but certain (DEFINITE) is an error, not a warning.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pytea_ci.diagnostics import Span
from pytea_ci.shapes.dim import Dim, add, mul

# A check that passes with at most this probability over the drawn values fails "on every run".
DEFINITE = 0.01


@dataclass(frozen=True)
class ValueRange:
    lo: Dim | None
    hi: Dim | None
    attained: bool = False
    drawn: tuple[int, int, int] | None = None
    origin: Span | None = field(default=None, compare=False)
    note: str = field(default="", compare=False)  # what made it, e.g. "torch.randint(1, 13)"

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
    return replace(r, lo=lo, hi=hi, drawn=None, attained=r.attained and k != 0)


def plus(a: ValueRange, b: ValueRange) -> ValueRange:
    """Element-wise sum of two ranged tensors: bounds only."""
    return ValueRange(_opt(add, a.lo, b.lo), _opt(add, a.hi, b.hi), origin=a.origin, note=a.note)


def hull(a: ValueRange, b: ValueRange) -> ValueRange:
    """Values from both (`cat`, a `setitem` writing `b` into `a`): bounds of both, draws of `a`."""
    return ValueRange(_cmp(min, a.lo, b.lo), _cmp(max, a.hi, b.hi), False, a.drawn, a.origin, a.note)


def clamp(r: ValueRange, lo: int | None, hi: int | None) -> ValueRange:
    new_lo = r.lo if lo is None else (lo if r.lo is None else _cmp(max, r.lo, lo))
    new_hi = r.hi if hi is None else (hi if r.hi is None else _cmp(min, r.hi, hi))
    return replace(r, lo=new_lo, hi=new_hi, drawn=None)


def keep_draws(r: ValueRange, n: int | None) -> ValueRange:
    """At most `n` of the drawn elements remain (a subset or an overwrite); None: not known."""
    if r.drawn is None:
        return replace(r, attained=False)
    return replace(r, attained=False, drawn=None if n is None or n <= 0 else (r.drawn[0], r.drawn[1], min(n, r.drawn[2])))


def p_all_within(r: ValueRange, lo: int, hi: int) -> float | None:
    """Probability that every drawn element lies in [lo, hi]; None when nothing was drawn."""
    if r.drawn is None:
        return None
    a, b, n = r.drawn
    inside = max(0, min(b, hi) - max(a, lo) + 1)
    return (inside / (b - a + 1)) ** n


def _opt(fn: object, a: Dim | None, b: Dim | None) -> Dim | None:
    return None if a is None or b is None else fn(a, b)  # type: ignore[operator]


def _cmp(fn: object, a: Dim | None, b: Dim | None) -> Dim | None:
    if a is None or b is None:
        return None
    if isinstance(a, int) and isinstance(b, int):
        return fn(a, b)  # type: ignore[operator,no-any-return]
    from pytea_ci.shapes.dim import dmax, dmin

    return dmin(a, b) if fn is min else dmax(a, b)
