"""Tensor indexing: ints, slices (negative bounds, steps), None, Ellipsis, boolean masks and
integer-tensor (advanced) indices, for reading (`x[...]`) and assignment (`x[...] = v`)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import require_dtype_in
from pytea_ci.models.index_checks import require_indices
from pytea_ci.models.ranges import overwrite
from pytea_ci.models.prim import broadcast_shapes, fmt, known, shape_of, with_strides
from pytea_ci.models.registry import KEEPS, model
from pytea_ci.models.values import RangeVal, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Dim, Term, dmax, dmin, is_dim, lower_bound
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.shapes.vrange import ValueRange
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT


def _exact(v: Any) -> Any:
    """A 0-d integer tensor whose value is known (as a dim) stands for that value."""
    r = v.vrange if isinstance(v, Tensor) and v.shape == () and not v.is_float() else None
    return r.lo if r is not None and r.lo is not None and r.lo == r.hi else v


def _slice_len(ctx: Ctx, size: Dim, sl: slice, lib: str = "torch") -> Dim:
    start, stop, step = _exact(sl.start), _exact(sl.stop), _exact(sl.step)
    if any(isinstance(v, (Unknown, Tensor)) for v in (start, stop, step)):
        return ctx.fresh("slice")
    if isinstance(size, int) and all(v is None or isinstance(v, int) for v in (start, stop, step)):
        if step is not None and step <= 0:
            # torch rejects negative steps; numpy (like Python) walks backwards
            ctx.require(lib == "numpy" and step != 0, "index", "step must be greater than zero", INVALID_ARGUMENT)
        return len(range(*slice(start, stop, step).indices(int(size))))
    if step not in (None, 1):
        return ctx.fresh("slice")
    if start is None and stop is None:
        return size
    sign = _sign(ctx, stop)
    if start is None and isinstance(stop, (int, Term)):
        if isinstance(stop, int) and stop < 0:
            return size + stop if not isinstance(size, int) else max(0, size + stop)
        if sign == "-":  # `x[:-gap]` with `gap > 0` on this path: counted from the end
            return dmax(0, size + stop)
        return dmin(stop, size) if sign == "+" else ctx.fresh("slice")
    if stop is None and isinstance(start, int) and start >= 0:
        return size - start
    if stop is None and isinstance(start, int) and start < 0:
        return dmin(-start, size)
    if isinstance(start, (int, Term)) and isinstance(stop, (int, Term)):
        if isinstance(start, int) and start >= 0 and sign == "+":
            return stop - start
        if isinstance(start, int) and start >= 0 and sign == "-" and isinstance(stop, Term):
            return dmax(0, size + stop - start)
        width = stop - start
        if isinstance(width, int) and width >= 0:
            return width  # `x[i:i + k]` is assumed to lie inside x, as windowing code intends
    return ctx.fresh("slice")


def _sign(ctx: Ctx, stop: Any) -> str | None:
    """"+" when a slice bound is never negative on this path, "-" when it always is (Python counts it from the
    end), None when either may be (a symbolic bound: `x[:-gap]` is `x[:len - gap]`, not `x[:0]`)."""
    if isinstance(stop, int):
        return "+" if stop >= 0 else "-"
    if not isinstance(stop, Term):
        return None
    low = lower_bound(stop)  # its symbols' own bounds settle most (a size, `i + k`) without the solver
    if (low is not None and low >= 0) or ctx.holds(P.le(0, stop)):
        return "+"
    return "-" if ctx.holds(P.lt(stop, 0)) else None


def index_shape(ctx: Ctx, src: tuple[Dim, ...], idx: Any, lib: str = "torch") -> tuple[Dim, ...] | None:
    items = list(idx) if isinstance(idx, tuple) else [idx]
    if any(isinstance(i, (str, Unknown)) for i in items):
        return None  # a field of a structured array, or an index not understood
    consumed = sum(_consumes(i) for i in items)
    if any(i is Ellipsis for i in items):
        k = items.index(Ellipsis)
        items[k:k + 1] = [slice(None)] * max(0, len(src) - consumed)
    ctx.require(consumed <= len(src), "index", f"too many indices for tensor of dimension {len(src)} "
                f"({consumed} given)", INVALID_ARGUMENT, (f"tensor: {fmt(src)}",))
    out: list[Dim] = []
    adv: list[tuple[Dim, ...]] = []
    adv_pos: int | None = None
    d = 0
    for it in items:
        if isinstance(it, list) and it and all(isinstance(v, bool) for v in it):
            it = Tensor((len(it),), "bool")  # a list of bools is a mask
        if isinstance(it, RangeVal):  # `x[range(len(x)), y]`: an index array of the range's length
            it = _range_index(ctx, it, src[d] if d < len(src) else None)
            if it is None:
                return None
        if it is None:
            out.append(1)
        elif isinstance(it, slice):
            out.append(_slice_len(ctx, src[d], it, lib))
            d += 1
        elif is_dim(it) and not isinstance(it, bool):
            size = src[d]
            ctx.require(P.and_(P.le(-size, it), P.lt(it, size)), "index",
                        f"index {it!r} is out of bounds for dimension {d} with size {size!r}", INVALID_ARGUMENT,
                        dims=(("index", it), ("size", size)))
            d += 1
        elif isinstance(it, Tensor) and it.dtype == "bool":
            if it.shape is None:
                return None
            r = len(it.shape)
            for k, (m, s) in enumerate(zip(it.shape, src[d:d + r])):
                ctx.require(P.eq(m, s), "index", f"the shape of the mask {fmt(it.shape)} does not match the shape of "
                            f"the indexed tensor {fmt(src)} at index {d + k}", operands=(f"mask: {fmt(it.shape)}",))
            adv.append((ctx.fresh("nonzero"),))
            adv_pos = len(out) if adv_pos is None else adv_pos
            d += r
        elif isinstance(it, (Tensor, list)):
            shape = it.shape if isinstance(it, Tensor) else _list_shape(ctx, it)
            if shape is None:
                return None
            if d < len(src):
                require_indices(ctx, it, src[d], "index", "the indices", f"dimension {d} (its size)", negative_ok=True)
            adv.append(tuple(shape))
            adv_pos = len(out) if adv_pos is None else adv_pos
            d += 1
        else:
            return None
    out.extend(src[d:])
    if adv:
        b: tuple[Dim, ...] = adv[0]
        for other in adv[1:]:
            b = broadcast_shapes(ctx, b, other, "index", ("index", "index"))
        pos = (adv_pos or 0) if _adjacent(items, lib) else 0
        out[pos:pos] = list(b)
    return tuple(out)


def _range_index(ctx: Ctx, r: RangeVal, size: Any) -> "Tensor | None":
    """A range used as an index: an int64 index array of its length holding its values (checked
    against the dim like any index array); for `range(n)` of a symbolic n, all its indices are below
    `size` iff n <= size."""
    if all(isinstance(v, int) for v in (r.start, r.stop, r.step)) and r.step:
        values = range(r.start, r.stop, r.step)
        bounds = ValueRange(min(values), max(values), attained=True, origin=ctx.span, note=f"{values!r}") \
            if len(values) else None
        return Tensor((len(values),), "int64", vrange=bounds)
    if r.start == 0 and r.step == 1 and is_dim(r.stop):
        if size is not None:
            ctx.require(P.le(r.stop, size), "index", f"index {r.stop!r} - 1 of range({r.stop!r}) is out of bounds "
                        f"for a dimension of size {size!r}", INVALID_ARGUMENT, dims=(("range", r.stop), ("size", size)))
        return Tensor((r.stop,), "int64")
    return None


def _is_adv(i: Any) -> bool:
    return isinstance(i, (Tensor, list))


def _adjacent(items: list[Any], lib: str) -> bool:
    """Whether the advanced indices form one run (their result dims then replace them in place)
    rather than being split by a slice or None (their dims then go first). torch applies int indices
    before the advanced ones, so an int does not split them; numpy counts ints as advanced indices."""
    if lib == "torch":
        kinds = [_is_adv(i) for i in items if not (is_dim(i) and not isinstance(i, bool))]
    else:
        kinds = [_is_adv(i) or (is_dim(i) and not isinstance(i, bool)) for i in items]
    runs = sum(1 for k, prev in zip(kinds, [False, *kinds]) if k and not prev)
    return runs <= 1


def _list_shape(ctx: Ctx, lst: list[Any]) -> tuple[Dim, ...] | None:
    """The shape of a (nested) list of ints used as an index array; None when it is not one."""
    items = ctx.iterate(lst)
    if items is None:
        return (ctx.fresh("index"),)  # built in a loop not followed to its end: its length is not known
    if all(is_dim(v) and not isinstance(v, bool) for v in items):
        return (len(items),)
    if items and all(isinstance(v, list) for v in items):
        inner = [_list_shape(ctx, v) for v in items]
        if inner[0] is not None and all(x == inner[0] for x in inner):
            return (len(items), *inner[0])
    return None


def _consumes(i: Any) -> int:
    if i is None or i is Ellipsis:
        return 0
    if isinstance(i, Tensor) and i.dtype == "bool" and i.shape is not None:
        return len(i.shape)
    return 1


@model("torch.Tensor.__getitem__", "numpy.ndarray.__getitem__", layout=KEEPS)
def getitem(ctx: Ctx, self: Tensor, idx: Any) -> Any:
    if not known(self):
        return Tensor(None, self.dtype, self.lib)
    shape = index_shape(ctx, shape_of(self), idx, self.lib)
    if shape == () and self.lib == "numpy" and self.dtype is None:
        return ctx.unknown("item of an object array")  # it may be an array itself
    if shape is None or self.lib != "torch":
        return self.with_shape(shape)
    return with_strides(self, shape, _basic_index_strides(shape_of(self), self.strides, idx))


def _basic_index_strides(src: tuple[Dim, ...], strides: tuple[int, ...] | None, idx: Any) -> tuple[int, ...] | None:
    """Strides of a basic-indexing view (ints, slices, None, ...), when all sizes are concrete."""
    base = strides
    items = list(idx) if isinstance(idx, tuple) else [idx]
    if base is None or not all(i is None or i is Ellipsis or isinstance(i, (int, slice)) for i in items):
        return None
    if any(isinstance(i, slice) and not all(isinstance(v, int) or v is None for v in (i.start, i.stop, i.step))
           for i in items):
        return None
    if Ellipsis in items:
        k = items.index(Ellipsis)
        items[k:k + 1] = [slice(None)] * (len(src) - sum(1 for i in items if i is not None and i is not Ellipsis))
    out: list[int] = []
    d = 0
    for it in items:
        if it is None:
            out.append(0)
        elif isinstance(it, slice):
            out.append(base[d] * (it.step or 1))
            d += 1
        else:
            d += 1
    return tuple(out) + tuple(base[d:])


@model("torch.Tensor.__setitem__", "numpy.ndarray.__setitem__")
def setitem(ctx: Ctx, self: Tensor, idx: Any, value: Any) -> Any:
    if not known(self):
        return None
    if self.lib == "numpy" and self.dtype is None:
        return None  # e.g. an object array, whose items may be arrays themselves
    region = index_shape(ctx, shape_of(self), idx, self.lib)
    overwrite(self, idx, value, region)
    if region is None or not known(value):
        return None
    v = shape_of(value)
    ctx.require(len(v) <= len(region) or all(x == 1 for x in v[: len(v) - len(region)]), "index assignment",
                f"shape mismatch: value tensor of shape {fmt(v)} cannot be broadcast to indexing result of shape {fmt(region)}",
                operands=(f"value: {fmt(v)}", f"target: {fmt(region)}"))
    tail = v[max(0, len(v) - len(region)):]
    for a, b in zip(reversed(tail), reversed(region)):
        if a != 1:
            ctx.require(P.or_(P.eq(a, b), P.eq(a, 1)), "index assignment",
                        f"shape mismatch: value tensor of shape {fmt(v)} cannot be broadcast to indexing result of "
                        f"shape {fmt(region)}", operands=(f"value: {fmt(v)}", f"target: {fmt(region)}"),
                        dims=(("value", a), ("target", b)))
    return None


@model("torch.index_select", "torch.Tensor.index_select")
def index_select(ctx: Ctx, input: Any, dim: Any, index: Any) -> Any:
    from pytea_ci.models.prim import norm_dim

    if not known(input, index):
        return ctx.unknown("index_select")
    s = shape_of(input)
    d = norm_dim(ctx, dim, len(s), "index_select")
    if d is None:
        return ctx.unknown("index_select")
    require_dtype_in(ctx, "index_select", index, ("int64", "int32"), "index",
                     "index_select(): Expected dtype int32 or int64 for index (got {got})")
    require_indices(ctx, index, s[d] if s else 1, "index_select", "the indices", f"dimension {d} of the input")
    return input.with_shape(s[:d] + (shape_of(index)[0] if shape_of(index) else 1,) + s[d + 1:])


@model("torch.masked_fill", "torch.Tensor.masked_fill")
def masked_fill(ctx: Ctx, input: Any, mask: Any, value: Any) -> Any:
    """Out of place, input and mask broadcast together (the result may be larger than input)."""
    out = input
    if known(input, mask):
        out = input.with_shape(broadcast_shapes(ctx, shape_of(input), shape_of(mask), "masked_fill", ("input", "mask")))
    if isinstance(input, Tensor) and input.lib == "torch":  # after the shapes, as torch
        require_dtype_in(ctx, "masked_fill", mask, ("bool",), "mask",
                         "masked_fill_ only supports boolean masks, but got mask with dtype {got}")
    return out if isinstance(out, Tensor) else ctx.unknown("masked_fill")


@model("torch.Tensor.masked_fill_")
def masked_fill_(ctx: Ctx, input: Any, mask: Any, value: Any) -> Any:
    """In place, the mask must broadcast to the input's own shape."""
    out = masked_fill(ctx, input, mask, value)
    if known(out, input) and len(shape_of(out)) == len(shape_of(input)):
        same = P.and_(*[P.eq(a, b) for a, b in zip(shape_of(out), shape_of(input))])
        ctx.require(same, "masked_fill_", f"the mask {fmt(shape_of(mask))} cannot expand to the input {fmt(shape_of(input))}",
                    operands=(f"input: {fmt(shape_of(input))}", f"mask: {fmt(shape_of(mask))}"))
    elif known(out, input):
        ctx.require(False, "masked_fill_", f"the mask {fmt(shape_of(mask))} has more dims than the input {fmt(shape_of(input))}")
    return input


@model("torch.index_add", "torch.Tensor.index_add", "torch.Tensor.index_add_", "torch.index_copy",
       "torch.Tensor.index_copy", "torch.Tensor.index_copy_")
def index_add(ctx: Ctx, input: Any, dim: Any, index: Any, source: Any, *args: Any, **kwargs: Any) -> Any:
    """`x.index_add_(dim, index, source)`: a vector of indices, one per slice of `source` along `dim`;
    `source` has `x`'s shape apart from `dim`. The result has `x`'s shape."""
    from pytea_ci.models.prim import norm_dim

    if not known(input, index, source):
        return input if isinstance(input, Tensor) else ctx.unknown("index_add")
    s, i, src = shape_of(input), shape_of(index), shape_of(source)
    d = norm_dim(ctx, dim, len(s), "index_add_")
    if d is None:
        return input
    ctx.require(len(i) <= 1, "index_add_", f"Index is supposed to be a vector, but got dim: {len(i)} with size: {fmt(i)}",
                INVALID_ARGUMENT, operands=(f"index: {fmt(i)}",))
    same_rank = len(src) == len(s) or (not s and len(src) <= 1)
    n, along = i[0] if i else 1, src[d] if src else 1
    # one requirement, so that sizes known only together (one unknown length on both sides) are decided
    ctx.require(same_rank and P.and_(P.eq(n, along), *[P.eq(a, b) for k, (a, b) in enumerate(zip(s, src)) if k != d]),
                "index_add_", f"source tensor shape must match self tensor shape excluding dim {d}, and the number of "
                f"indices must equal source.size({d}): self {fmt(s)}, source {fmt(src)}, {n!r} indices",
                operands=(f"self: {fmt(s)}", f"index: {fmt(i)}", f"source: {fmt(src)}"),
                dims=(("indices", n), ("source size", along)))
    return input
