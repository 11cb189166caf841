"""Index-like arguments checked against what they index (DESIGN §3, "integer values as ranges"):
class targets vs classes, token ids vs a vocabulary, gather/index_select/one_hot indices vs a dim.

The index tensor's value range (`shapes.vrange`) decides: values that surely occur outside the
allowed interval (every value out, a bound attained, or draws that miss the interval with
probability below `DEFINITE`) are PT003 on every run; values that may fall outside are a PT002
warning whose counterexample is an out-of-range value. Without a range nothing is said.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import INPUT, Dim, Sym, dmax, is_dim
from pytea_ci.shapes.tensor import INT_DTYPES, Tensor
from pytea_ci.shapes.vrange import DEFINITE, ValueRange, p_all_within


_INDEX_DTYPES = tuple(d for d in INT_DTYPES if d != "uint8")  # a uint8 index tensor is a mask


def _ints(*vals: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in vals)


def require_indices(ctx: Ctx, idx: Any, size: Any, op: str, what: str, limit: str, *,
                    negative_ok: bool = False, ignore: Any = None) -> None:
    """Every value of the integer tensor `idx` must index a dim of `size` (`limit` names it)."""
    if not isinstance(idx, Tensor) or idx.vrange is None or idx.dtype not in _INDEX_DTYPES or not is_dim(size):
        return
    if _ints(n := idx.numel()) and n == 0:
        return
    r = idx.vrange
    lo_ok: Dim = -size if negative_ok else 0
    hi_ok: Dim = size - 1
    message = (f"index out of range: {what} take values in {r.describe()}, but {limit} is {size!r} "
               f"(valid indices {lo_ok!r}..{hi_ok!r}" + (f", or {ignore!r} to ignore" if ignore is not None else "") + ")")
    dims = (("indexed size", size),)
    if _ints(r.lo, r.hi, size):
        _decide_concrete(ctx, r, int(lo_ok), int(hi_ok), ignore, op, message, dims)
    elif r.attained and r.lo is not None and r.hi is not None:
        ctx.require(P.and_(P.le(lo_ok, r.lo), P.le(r.hi, hi_ok)), op, message, "PT003", dims=dims)
    elif r.lo is not None and r.hi is not None:  # symbolic bounds, values that may or may not occur
        v = ctx.fresh("index_value", kind=INPUT, lo=None, note="a value of the index tensor")
        ok = P.and_(P.le(lo_ok, v), P.le(v, hi_ok))
        ok = ok if ignore is None else P.or_(ok, P.eq(v, ignore))
        ctx.require(P.or_(P.lt(v, r.lo), P.lt(r.hi, v), ok), op, message, "PT003", dims=dims)


def _decide_concrete(ctx: Ctx, r: ValueRange, lo_ok: int, hi_ok: int, ignore: Any, op: str, message: str,
                     dims: tuple[tuple[str, object], ...]) -> None:
    lo, hi = int(r.lo), int(r.hi)  # type: ignore[arg-type]
    upper_bad, lower_bad = hi > hi_ok and hi != ignore, lo < lo_ok and lo != ignore
    if not (upper_bad or lower_bad):
        return
    p = p_all_within(r, lo_ok, hi_ok)
    if lo > hi_ok or (hi < lo_ok and ignore not in (lo, hi)):
        why = "every value is out of range"
    elif r.attained:
        why = f"the value {hi if upper_bad else lo} occurs"
    elif p is not None and p <= DEFINITE:
        a, b, n = r.drawn  # type: ignore[misc]
        why = f"{n} values drawn from [{a}, {b}] all fall in range with probability {p:.1g}"
    else:
        v = ctx.fresh("index_value", kind=INPUT, lo=lo, hi=hi, note="a value of the index tensor")
        ok = P.and_(P.le(lo_ok, v), P.le(v, hi_ok))
        ctx.require(ok if ignore is None else P.or_(ok, P.eq(v, ignore)), op, message, "PT003", dims=dims)
        return
    ctx.require(False, op, f"{message}; {why}", "PT003", dims=dims)


def count_bins(input: Tensor, minlength: Any) -> Any:
    """max(minlength, largest value + 1) when the values' range tells (labels below `minlength`, or a
    largest value that surely occurs); None otherwise. Empty input: `minlength`."""
    r, n = input.vrange, input.numel()
    nonempty = (isinstance(n, int) and n > 0) or (isinstance(n, Sym) and n.lo is not None and n.lo >= 1)
    if not is_dim(minlength) or isinstance(minlength, bool) or r is None or r.hi is None or not (nonempty or n == 0):
        return None
    spare = minlength - (r.hi + 1)  # folds to an int when both are alike (`randint(0, C)` with minlength=C)
    if n == 0 or (isinstance(spare, int) and spare >= 0):
        return minlength
    top_occurs = r.attained or (r.drawn is not None and r.drawn[1] == r.hi
                                and ((r.drawn[1] - r.drawn[0]) / (r.drawn[1] - r.drawn[0] + 1)) ** r.drawn[2] <= DEFINITE)
    return dmax(minlength, r.hi + 1) if top_occurs else None
