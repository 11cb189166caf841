"""Index-like arguments checked against what they index (DESIGN §3, "integer values as ranges"):
class targets vs classes, token ids vs a vocabulary, gather/index_select/one_hot indices vs a dim,
bincount's non-negative values.

The index tensor's value range (`shapes.vrange`) decides, by what it knows to occur:
- attained bounds (every run holds them): a bound out of range is PT003 for every run (a warning
  when only some sizes put it out);
- bounds that occur in some run (draws, a random subset): a PT002 warning whose counterexample is an
  out-of-range value; PT003 only when every value of the range is out (a draw is never certain to
  miss: a run whose draws all fall inside passes);
- bounds that only over-approximate (a fixed subset of attained values): only "every value out" is
  said, since no run is known to meet an out-of-range bound.
Without a range nothing is said.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import INPUT, Dim, Sym, dmax, dmin, is_dim, lower_bound
from pytea_ci.shapes.tensor import INT_DTYPES, Tensor
from pytea_ci.shapes.vrange import ValueRange
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT


_INDEX_DTYPES = tuple(d for d in INT_DTYPES if d != "uint8")  # a uint8 index tensor is a mask


def _ints(*vals: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in vals)


def require_indices(ctx: Ctx, idx: Any, size: Any, op: str, what: str, limit: str, *,
                    negative_ok: bool = False, ignore: Any = None) -> None:
    """Every value of the integer tensor `idx` must index a dim of `size` (`limit` names it)."""
    if not is_dim(size):
        return
    lo_ok: Dim = -size if negative_ok else 0
    hi_ok: Dim = size - 1
    r = idx.vrange if isinstance(idx, Tensor) else None
    # the size the largest index needs, a plain int (no origin): the data a repair reads (pytea_ci/fixes/)
    needed = (("size the indices need", int(r.hi) + 1),) if r is not None and _ints(r.hi) else ()
    require_values(ctx, idx, lo_ok, hi_ok, op, f"index out of range: {what}", f"but {limit} is {size!r} (valid "
                   f"indices {lo_ok!r}..{hi_ok!r}" + (f", or {ignore!r} to ignore" if ignore is not None else "") + ")",
                   (("indexed size", size), *needed), ignore)


def require_values(ctx: Ctx, idx: Any, lo_ok: Dim, hi_ok: Dim | None, op: str, head: str, tail: str,
                   dims: tuple[tuple[str, object], ...], ignore: Any = None, any_dtype: bool = False) -> None:
    """Every value of the integer tensor `idx` (of any dtype with `any_dtype`: a probability target) must lie
    in [lo_ok, hi_ok] (None: no upper limit) or equal `ignore`; `head`/`tail` frame the message around the
    values' range."""
    if not isinstance(idx, Tensor) or idx.vrange is None or not (any_dtype or idx.dtype in _INDEX_DTYPES):
        return
    if _ints(n := idx.numel()) and n == 0:
        return
    r = idx.vrange
    if r.lo is None or r.hi is None:
        return
    message = f"{head} take values in {r.describe()}, {tail}"
    if _ints(r.lo, r.hi, lo_ok) and (hi_ok is None or _ints(hi_ok)):
        _decide_concrete(ctx, r, int(lo_ok), None if hi_ok is None else int(hi_ok), ignore, op, message, dims)
        return
    if _surely_inside(r, lo_ok, hi_ok):
        return  # (the symbols' own bounds settle it: no question to the solver, whose budget is shared)
    def ok(v: Dim) -> Any:
        inside = P.le(lo_ok, v) if hi_ok is None else P.and_(P.le(lo_ok, v), P.le(v, hi_ok))
        return inside if ignore is None else P.or_(inside, P.eq(v, ignore))
    if r.attained:  # both bounds occur in every run
        ctx.require(P.and_(ok(r.lo), ok(r.hi)), op, message, INVALID_ARGUMENT, dims=dims)
        return
    if r.possible:
        # the bounds occur in some run: any value of the range is a counterexample (a warning), and the
        # check fails in every run only when no value of the range is allowed
        v = ctx.fresh("index_value", kind=INPUT, lo=None, note="a value of the index tensor")
        ctx.require(P.and_(_some_allowed(r, lo_ok, hi_ok, ignore), P.or_(P.lt(v, r.lo), P.lt(r.hi, v), ok(v))),
                    op, message, INVALID_ARGUMENT, dims=dims)
        return
    # bounds that only over-approximate: said only when every value of the range is out
    ctx.require(_some_allowed(r, lo_ok, hi_ok, ignore), op, f"{message}; every value is out of range", INVALID_ARGUMENT,
                dims=dims)


def _surely_inside(r: ValueRange, lo_ok: Dim, hi_ok: Dim | None) -> bool:
    """Every value of `r` is allowed by the lower bounds of the symbols alone (`[0, 0]` into `len_1 >= 1`)."""
    if r.lo is None or r.hi is None:
        return False
    low = lower_bound(r.lo - lo_ok)
    high = 0 if hi_ok is None else lower_bound(hi_ok - r.hi)
    return low is not None and low >= 0 and high is not None and high >= 0


def _some_allowed(r: ValueRange, lo_ok: Dim, hi_ok: Dim | None, ignore: Any) -> Any:
    """Some value of [r.lo, r.hi] is allowed: the intervals meet, or `ignore` lies in the range."""
    meet = P.le(lo_ok, r.hi) if hi_ok is None else P.and_(P.le(lo_ok, r.hi), P.le(r.lo, hi_ok))
    return meet if ignore is None else P.or_(meet, P.and_(P.le(r.lo, ignore), P.le(ignore, r.hi)))


def _decide_concrete(ctx: Ctx, r: ValueRange, lo_ok: int, hi_ok: int | None, ignore: Any, op: str, message: str,
                     dims: tuple[tuple[str, object], ...]) -> None:
    lo, hi = int(r.lo), int(r.hi)  # type: ignore[arg-type]
    upper_bad = hi_ok is not None and hi > hi_ok and hi != ignore
    lower_bad = lo < lo_ok and lo != ignore
    if not (upper_bad or lower_bad):
        return
    if (hi_ok is not None and lo > hi_ok) or (hi < lo_ok and ignore not in (lo, hi)):
        why = "every value is out of range"
    elif r.attained:
        why = f"the value {hi if upper_bad else lo} occurs"
    elif r.possible:
        v = ctx.fresh("index_value", kind=INPUT, lo=lo, hi=hi, note="a value of the index tensor")
        ok = P.le(lo_ok, v) if hi_ok is None else P.and_(P.le(lo_ok, v), P.le(v, hi_ok))
        ctx.require(ok if ignore is None else P.or_(ok, P.eq(v, ignore)), op, message, INVALID_ARGUMENT, dims=dims)
        return
    else:
        return  # the out-of-range bound may never occur (an over-approximation): nothing is known to fail
    ctx.require(False, op, f"{message}; {why}", INVALID_ARGUMENT, dims=dims)


def count_bins(ctx: Ctx, input: Tensor, minlength: Any) -> Any:
    """max(minlength, largest value + 1): exact when the values' range tells (labels below `minlength`,
    or a largest value that occurs in every run), else over a symbol not understood for the largest
    value; None without a range. Empty input: `minlength`."""
    r, n = input.vrange, input.numel()
    nonempty = (isinstance(n, int) and n > 0) or (isinstance(n, Sym) and n.lo is not None and n.lo >= 1)
    if not is_dim(minlength) or isinstance(minlength, bool) or r is None or r.hi is None or not (nonempty or n == 0):
        return None
    spare = minlength - (r.hi + 1)  # folds to an int when both are alike (`randint(0, C)` with minlength=C)
    if n == 0 or (isinstance(spare, int) and spare >= 0):
        return minlength
    if r.attained:
        return dmax(minlength, r.hi + 1)
    # the largest value + 1 is not known, only its bounds: a symbol not understood, so a check on the
    # count is decided only when it fails whatever that value (`max(C, v).view(C - 1)`)
    v = ctx.fresh("largest_plus_one", lo=1, note="the largest value + 1 (not known to occur)")
    return dmax(minlength, dmin(r.hi + 1, v))  # at most the bound + 1
