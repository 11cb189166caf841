"""Exact ratios of sizes: the floats CPython computes from sizes (`(size - k + 2 * p) / s + 1`,
`dim * 4.0`, `2 * hidden / 3`), kept as `num / den` so that `int()`, `math.floor` and `math.ceil` give a
size again, as CPython's do (a conv's output size, an MLP's hidden width).

A float value not known is an `Unknown` with `ratio = (num, den)` when its exact value is `num / den`, two
size expressions (ints or terms). CPython computes it in floats, so only operations whose rounding cannot
move it across an integer build one: a single division or product (`a / b`, a size times or over a float
constant with a small power-of-two denominator, as `4.0`, `2.5`, `0.5`), then adding or subtracting an int,
dividing by a positive int constant, multiplying by a power of two. Each is one correct rounding of a value
that is either an integer (represented exactly) or at least `1 / den` away from one, so its integer part is
the exact ratio's for sizes below 2**40. Anything else (`(a / 3) * 3`: 1 / 49 * 49 is 0.9999999999999999 in
CPython) gives no ratio: the value stays not known.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.values import Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Term, ceildiv, floordiv, is_dim

Ratio = tuple[Any, Any]

_MAX_DEN = 1 << 10  # a float constant's denominator (a power of two) up to this
_MAX_NUM = 1 << 40


def _size(x: Any) -> bool:
    return is_dim(x) and not isinstance(x, bool)


def _constant(x: Any) -> Ratio | None:
    """`p / q` of a float constant with a small denominator (`4.0`, `2.5`, `0.5`; not `0.1`)."""
    if not isinstance(x, float) or x != x or x in (float("inf"), float("-inf")):
        return None
    p, q = x.as_integer_ratio()
    return (p, q) if q <= _MAX_DEN and abs(p) <= _MAX_NUM else None


def of(x: Any) -> Ratio | None:
    """The exact ratio of a float value not known (None: not one)."""
    return x.ratio if isinstance(x, Unknown) else None


def _power_of_two(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, (bool, Term)) and x > 0 and x & (x - 1) == 0


def arith(name: str, a: Any, b: Any) -> Ratio | None:
    """The exact ratio of the float `a OP b`, when its rounding keeps the ratio's integer part (see the
    module docstring); None otherwise (the value is not known)."""
    ra, rb = of(a), of(b)
    ca, cb = _constant(a), _constant(b)
    if name == "truediv":
        if _size(a) and _size(b):
            return ((a, b))  # one division of two ints: the ratio rounded once
        if _size(a) and cb is not None and cb[0] > 0:
            return ((a * cb[1], cb[0]))
        if ra is not None and isinstance(b, int) and not isinstance(b, (bool, Term)) and b > 0:
            return ((ra[0], ra[1] * b))  # an integer stays one; else its distance to one only shrinks by b
        return None
    if name == "mul":
        for x, y, c in ((a, b, cb), (b, a, ca)):
            if _size(x) and c is not None:
                return ((x * c[0], c[1]))  # one product: rounded once
            r = of(x)
            if r is not None and _power_of_two(y):
                return ((r[0] * y, r[1]))  # exact in floats
            if r is not None and r[1] == 1 and _size(y):
                return ((r[0] * y, 1))  # an integer-valued float times an int: exact below 2**53
        return None
    if name in ("add", "sub"):
        if ra is not None and _size(b):
            return ((ra[0] + b * ra[1] if name == "add" else ra[0] - b * ra[1], ra[1]))
        if rb is not None and _size(a):
            return ((a * rb[1] + rb[0] if name == "add" else a * rb[1] - rb[0], rb[1]))
        if ra is not None and cb is not None and cb[1] == 1:
            return ((ra[0] + cb[0] * ra[1] if name == "add" else ra[0] - cb[0] * ra[1], ra[1]))
        if rb is not None and ca is not None and ca[1] == 1:
            return ((ca[0] * rb[1] + rb[0] if name == "add" else ca[0] * rb[1] - rb[0], rb[1]))
    return None


def integer(ctx: Ctx, x: Any, how: str) -> Any:
    """`int(x)` (`how` = "trunc"), `math.floor(x)` or `math.ceil(x)` of a float with an exact ratio whose
    denominator is positive on this path: a size; None when it is not one. `int()` truncates toward zero,
    so its sign decides (a fork when the path does not)."""
    r = of(x)
    if r is None:
        return None
    num, den = r
    if not ctx.holds(P.ge(den, 1)):
        return None
    if how == "ceil":
        return ceildiv(num, den)
    if how == "trunc" and not ctx.holds(P.ge(num, 0)) and not ctx.fork(P.ge(num, 0)):
        return -floordiv(-num, den)  # a negative value: toward zero
    return floordiv(num, den)
