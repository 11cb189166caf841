"""torch's "Indexing, Slicing, Joining, Mutating Ops" beyond `indexing.py` (subscripts) and
`creation.py` (`cat stack`), and its "Other Operations" on a tensor's elements, as `torch.*` functions
and `torch.Tensor` methods: splitting (`split chunk unbind narrow select`), gathering/scattering,
data-dependent sizes (`masked_select nonzero unique bincount`), rearranging (`flip roll movedim tile
repeat_interleave hstack vstack`), triangular/diagonal helpers (`tril triu diag diag_embed`), `diff`
and `fill`. Products live in `products.py`."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import require_dtype_in
from pytea_ci.models.index_checks import count_bins, require_indices, require_values
from pytea_ci.models.prim import (
    as_int,
    broadcast_shapes,
    fmt,
    known,
    norm_dim,
    shape_of,
    sizes_arg,
)
from pytea_ci.models.registry import model
from pytea_ci.models.torch.creation import cat
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Dim, ceildiv, dmax, dmin, is_dim, prod
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT

Shape = tuple[Dim, ...]


def _dim_of(ctx: Ctx, input: Any, dim: Any, op: str, scalar: str | None = None) -> tuple[Shape, int] | None:
    """The input's shape and a normalised dim, or None when either is unknown. `scalar`: torch's message
    when the op rejects a 0-dim input (it has no dim to take, whatever `dim` says)."""
    if not known(input):
        return None
    s = shape_of(input)
    if scalar is not None and not s:
        ctx.require(False, op, scalar, operands=(f"input: {fmt(s)}",))
        return None
    d = norm_dim(ctx, dim, len(s), op)
    return None if d is None else (s, d)


def _replace(s: Shape, d: int, size: Dim) -> Shape:
    return s[:d] + (size,) + s[d + 1:]


@model("torch.Tensor.split")
def split_method(ctx: Ctx, tensor: Any, split_size: Any, dim: Any = 0) -> Any:
    """`x.split(split_size, dim)`: the method names its sizes `split_size` (`torch.split`'s keyword
    `split_size_or_sections` is a TypeError there, and the other way round)."""
    return split(ctx, tensor, split_size, dim)


@model("torch.split")
def split(ctx: Ctx, tensor: Any, split_size_or_sections: Any, dim: Any = 0) -> Any:
    sd = _dim_of(ctx, tensor, dim, "split", "split expects at least a 1-dimensional tensor")
    if sd is None:
        return ctx.unknown("split of unknown tensor")
    s, d = sd
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = list(split_size_or_sections)
        if not all(is_dim(x) for x in sizes):
            return ctx.unknown("split sections")
        total = sum(sizes[1:], sizes[0]) if sizes else 0
        ctx.require(P.eq(total, s[d]), "split", f"split_with_sizes expects split_sizes to sum exactly to {s[d]!r} "
                    f"(input tensor's size at dimension {d}), but got split_sizes={sizes!r}",
                    operands=(f"input: {fmt(s)}",), dims=(("sum of sections", total), ("size", s[d])))
        return tuple(tensor.with_shape(_replace(s, d, x)) for x in sizes)
    size, n = as_int(split_size_or_sections), as_int(s[d])
    if size is not None and size > 0 and n is None and is_dim(s[d]) and ctx.fork(P.le(s[d], size)):
        return (tensor,)  # a symbolic size no larger than the split size: one piece, the whole tensor
    if n is None and is_dim(split_size_or_sections) and is_dim(s[d]):
        pieces = _multiple(ctx, s[d], split_size_or_sections)
        if pieces is not None:  # `split(n_embd)` of `3 * n_embd` features: three pieces of n_embd
            return tuple(tensor.with_shape(_replace(s, d, split_size_or_sections)) for _ in range(pieces))
    if size is None or n is None:
        return ctx.unknown("split with symbolic sizes")
    ctx.require(size > 0 or n == 0, "split", f"split_size can only be 0 if dimension size is 0, but got {size}", INVALID_ARGUMENT)
    return tuple(tensor.with_shape(_replace(s, d, min(size, n - i))) for i in range(0, n, max(size, 1)))


_MAX_PIECES = 16  # the most pieces of a symbolic split size a size is tried as a multiple of


def _multiple(ctx: Ctx, total: Dim, size: Dim) -> int | None:
    """k when this path proves `total == k * size` with `size >= 1` for some k up to _MAX_PIECES: the
    size splits into exactly k pieces of `size`, whatever the symbols are."""
    if not ctx.holds(P.ge(size, 1)):
        return None
    return next((k for k in range(1, _MAX_PIECES + 1) if ctx.holds(P.eq(total, k * size))), None)


@model("torch.chunk", "torch.Tensor.chunk")
def chunk(ctx: Ctx, input: Any, chunks: Any, dim: Any = 0) -> Any:
    sd = _dim_of(ctx, input, dim, "chunk", "chunk expects at least a 1-dimensional tensor")
    k = as_int(chunks)
    if sd is None or k is None:
        return ctx.unknown("chunk of unknown tensor")
    ctx.require(k > 0, "chunk", f"chunk expects `chunks` to be greater than 0, got: {k}", INVALID_ARGUMENT)
    s, d = sd
    n = as_int(s[d])
    if n is None:
        return _chunk_symbolic(ctx, input, s, d, k)
    if n == 0:
        return tuple(input.with_shape(s) for _ in range(k))
    return split(ctx, input, -(-n // k), d)


def _chunk_symbolic(ctx: Ctx, input: Tensor, s: Shape, d: int, k: int) -> Any:
    """`chunk(k)` of a size n not known: torch's pieces are ceil(n / k) long but the last, which takes
    what is left, and there are fewer than k of them when k - 1 pieces already cover n (5 into 4 is
    2, 2, 1; 1 into 2 is one piece). The k pieces where this path decides there are k (else a fork per case
    of the inputs, where a check on the pieces that fails is a warning); an unknown value, never a guess,
    where there may be fewer."""
    if k == 1:
        return (input,)
    size = ceildiv(s[d], k)
    if not ctx.fork(P.lt((k - 1) * size, s[d]), per_run=True, blind=True):
        return ctx.unknown("chunk of a size not known: maybe fewer pieces than asked")
    last = s[d] - (k - 1) * size
    return tuple(input.with_shape(_replace(s, d, size)) for _ in range(k - 1)) + (input.with_shape(_replace(s, d, last)),)


@model("torch.unbind", "torch.Tensor.unbind")
def unbind(ctx: Ctx, input: Any, dim: Any = 0) -> Any:
    sd = _dim_of(ctx, input, dim, "unbind", "Dimension specified as 0 but tensor has no dimensions")
    n = as_int(sd[0][sd[1]]) if sd is not None else None
    if sd is None or n is None or n > 256:  # a long tuple of identical slices says nothing more than Unknown
        return ctx.unknown("unbind of unknown size")
    s, d = sd
    return tuple(input.with_shape(s[:d] + s[d + 1:]) for _ in range(n))


@model("torch.narrow", "torch.Tensor.narrow")
def narrow(ctx: Ctx, input: Any, dim: Any, start: Any, length: Any) -> Any:
    sd = _dim_of(ctx, input, dim, "narrow", "narrow() cannot be applied to a 0-dim tensor.")
    if sd is None or not (is_dim(start) and is_dim(length)):
        return ctx.unknown("narrow")
    s, d = sd
    if isinstance(start, int) and start < 0:
        start = s[d] + start
    ctx.require(P.le(start + length, s[d]), "narrow", f"start ({start!r}) + length ({length!r}) exceeds dimension "
                f"size ({s[d]!r})", INVALID_ARGUMENT, (f"input: {fmt(s)}",), (("start + length", start + length), ("size", s[d])))
    return input.with_shape(_replace(s, d, length))


@model("torch.select", "torch.Tensor.select")
def select(ctx: Ctx, input: Any, dim: Any, index: Any) -> Any:
    sd = _dim_of(ctx, input, dim, "select", "select() cannot be applied to a 0-dim tensor.")
    if sd is None or not is_dim(index):
        return ctx.unknown("select")
    s, d = sd
    ctx.require(P.and_(P.le(-s[d], index), P.lt(index, s[d])), "select", f"index {index!r} out of range for tensor "
                f"of size {fmt(s)} at dimension {d}", INVALID_ARGUMENT, (f"input: {fmt(s)}",), (("index", index), ("size", s[d])))
    return input.with_shape(s[:d] + s[d + 1:])


def _index_rank(ctx: Ctx, input: Any, dim: Any, index: Any, op: str) -> tuple[Shape, Shape, int] | None:
    """Shared rule of gather/scatter: same rank, index sizes within input sizes off `dim`."""
    sd = _dim_of(ctx, input, dim, op)
    if sd is None or not known(index):
        return None
    s, d = sd
    i = shape_of(index)
    ctx.require(len(i) == len(s), op, f"Index tensor must have the same number of dimensions as input tensor "
                f"({fmt(i)} vs {fmt(s)})", operands=(f"input: {fmt(s)}", f"index: {fmt(i)}"))
    for k, (a, b) in enumerate(zip(i, s)):
        if k != d:
            ctx.require(P.le(a, b), op, f"Size does not match at dimension {k} expected index {fmt(i)} to be "
                        f"smaller than self {fmt(s)} apart from dimension {d}",
                        operands=(f"input: {fmt(s)}", f"index: {fmt(i)}"), dims=(("index", a), ("input", b)))
    return s, i, d


@model("torch.gather", "torch.Tensor.gather", "torch.take_along_dim")
def gather(ctx: Ctx, input: Any, dim: Any, index: Any, **kwargs: Any) -> Any:
    if isinstance(input, Tensor):  # before the sizes, as torch
        require_dtype_in(ctx, "gather", index, ("int64", "int32"), "index",
                         "gather(): Expected dtype int32/int64 for index (got {got})")
    r = _index_rank(ctx, input, dim, index, "gather")
    if r is not None:
        require_indices(ctx, index, r[0][r[2]], "gather", "the indices", f"dimension {r[2]} of the input")
    return input.with_shape(r[1]) if r is not None else ctx.unknown("gather")


@model("torch.scatter", "torch.Tensor.scatter", "torch.Tensor.scatter_", "torch.scatter_add",
       "torch.Tensor.scatter_add", "torch.Tensor.scatter_add_", "torch.scatter_reduce", "torch.Tensor.scatter_reduce",
       "torch.Tensor.scatter_reduce_")
def scatter(ctx: Ctx, input: Any, dim: Any, index: Any, src: Any = None, *args: Any, **kwargs: Any) -> Any:
    if isinstance(input, Tensor):
        require_dtype_in(ctx, "scatter", index, ("int64", "int32"), "index",
                         "scatter(): Expected dtype int32/int64 for index (got {got})")
    r = _index_rank(ctx, input, dim, index, "scatter")
    if r is not None:
        require_indices(ctx, index, r[0][r[2]], "scatter", "the indices", f"dimension {r[2]} of the input")
    src = kwargs.get("value", src)
    if r is not None and known(src):
        srcs = shape_of(src)
        ctx.require(len(srcs) == len(r[1]) and P.and_(*[P.le(a, b) for a, b in zip(r[1], srcs)]), "scatter",
                    f"Expected index {fmt(r[1])} to be smaller than src {fmt(srcs)}",
                    operands=(f"index: {fmt(r[1])}", f"src: {fmt(srcs)}"))
    return input if isinstance(input, Tensor) else ctx.unknown("scatter")


@model("torch.masked_select", "torch.Tensor.masked_select")
def masked_select(ctx: Ctx, input: Any, mask: Any) -> Any:
    if not known(input, mask):
        return ctx.unknown("masked_select")
    broadcast_shapes(ctx, shape_of(input), shape_of(mask), "masked_select", ("input", "mask"))
    return input.with_shape((ctx.fresh("selected"),))


@model("torch.nonzero", "torch.Tensor.nonzero", "torch.argwhere", "torch.Tensor.argwhere")
def nonzero(ctx: Ctx, input: Any, *, as_tuple: Any = False, **kwargs: Any) -> Any:
    if not known(input):
        return ctx.unknown("nonzero")
    n, r = ctx.fresh("nonzero"), len(shape_of(input))
    if as_tuple:
        return tuple(input.with_shape((n,), "int64") for _ in range(max(r, 1)))
    return input.with_shape((n, r), "int64")


@model("torch.unique", "torch.Tensor.unique")
def unique(ctx: Ctx, input: Any, sorted: Any = True, return_inverse: Any = False, return_counts: Any = False,
           dim: Any = None) -> Any:
    if not known(input):
        return ctx.unknown("unique")
    s = shape_of(input)
    n = ctx.fresh("unique")
    d = norm_dim(ctx, dim, len(s), "unique") if dim is not None else None
    out = input.with_shape((n,) if d is None else _replace(s, d, n))
    extra = []
    if return_inverse:
        extra.append(input.with_shape(s if d is None else (s[d],), "int64"))
    if return_counts:
        extra.append(input.with_shape((n,), "int64"))
    return (out, *extra) if extra else out


@model("torch.bincount", "torch.Tensor.bincount")
def bincount(ctx: Ctx, input: Any, weights: Any = None, minlength: Any = 0) -> Any:
    if not known(input):
        return ctx.unknown("bincount")
    s = shape_of(input)
    ctx.require(len(s) == 1, "bincount", f"bincount only supports 1-d non-negative integral inputs, got {fmt(s)}",
                INVALID_ARGUMENT, (f"input: {fmt(s)}",))
    require_values(ctx, input, 0, None, "bincount", "bincount only supports non-negative inputs: the values",
                   "so a negative value is an error", ())
    bins = count_bins(ctx, input, minlength)
    return input.with_shape((ctx.fresh("bins") if bins is None else bins,), "int64" if weights is None else "float32")


def _check_dims(ctx: Ctx, input: Any, dims: Any, op: str) -> Any:
    """Shape-preserving ops whose dims must be in range."""
    if not known(input):
        return input if isinstance(input, Tensor) else ctx.unknown(op)
    for d in dims if isinstance(dims, (tuple, list)) else ([] if dims is None else [dims]):
        norm_dim(ctx, d, len(shape_of(input)), op)
    return input


@model("torch.flip", "torch.Tensor.flip")
def flip(ctx: Ctx, input: Any, *dims: Any) -> Any:
    return _check_dims(ctx, input, sizes_arg(dims, held=ctx) or [], "flip")


@model("torch.flipud", "torch.Tensor.flipud")
def flipud(ctx: Ctx, input: Any) -> Any:
    if not isinstance(input, Tensor):
        return ctx.unknown("flipud")
    if input.shape is not None:
        ctx.require(len(input.shape) >= 1, "flipud", "input must be >= 1-d, got 0-d", INVALID_ARGUMENT)
    return input


@model("torch.fliplr", "torch.Tensor.fliplr")
def fliplr(ctx: Ctx, input: Any) -> Any:
    if not isinstance(input, Tensor):
        return ctx.unknown("fliplr")
    if input.shape is not None:  # fliplr flips dim 1
        ctx.require(len(input.shape) >= 2, "fliplr", f"input must be >= 2-d, got {len(input.shape)}-d", INVALID_ARGUMENT)
    return input


@model("torch.roll", "torch.Tensor.roll")
def roll(ctx: Ctx, input: Any, shifts: Any, dims: Any = None) -> Any:
    return _check_dims(ctx, input, dims, "roll")


@model("torch.tril", "torch.Tensor.tril", "torch.triu", "torch.Tensor.triu", "torch.Tensor.tril_",
       "torch.Tensor.triu_")
def tril(ctx: Ctx, input: Any, diagonal: Any = 0) -> Any:
    if known(input):
        s = shape_of(input)
        ctx.require(len(s) >= 2, "tril", f"tril/triu: input tensor must have at least 2 dimensions, got {fmt(s)}",
                    INVALID_ARGUMENT, (f"input: {fmt(s)}",))
    return input if isinstance(input, Tensor) else ctx.unknown("tril")


@model("torch.movedim", "torch.Tensor.movedim", "torch.moveaxis", "torch.Tensor.moveaxis")
def movedim(ctx: Ctx, input: Any, source: Any, destination: Any) -> Any:
    src = list(source) if isinstance(source, (tuple, list)) else [source]
    dst = list(destination) if isinstance(destination, (tuple, list)) else [destination]
    if not known(input):
        return ctx.unknown("movedim")
    s = shape_of(input)
    ctx.require(len(src) == len(dst), "movedim", f"Invalid source or destination dims: source ({src}) and "
                f"destination ({dst}) must have the same number of elements", INVALID_ARGUMENT)
    ns = [norm_dim(ctx, d, len(s), "movedim") for d in src]
    nd = [norm_dim(ctx, d, len(s), "movedim") for d in dst]
    where = {a: b for a, b in zip(nd, ns) if a is not None and b is not None}
    if len(where) != len(src):
        return ctx.unknown("movedim")
    rest = iter(i for i in range(len(s)) if i not in ns)
    return input.with_shape(tuple(s[where[i]] if i in where else s[next(rest)] for i in range(len(s))))


@model("torch.tile", "torch.Tensor.tile")
def tile(ctx: Ctx, input: Any, *dims: Any) -> Any:
    reps = sizes_arg(dims, held=ctx)
    if not known(input) or reps is None:
        return ctx.unknown("tile")
    s = shape_of(input)
    n = max(len(s), len(reps))
    s2 = (1,) * (n - len(s)) + tuple(s)
    r2 = [1] * (n - len(reps)) + list(reps)
    return input.with_shape(tuple(a * b for a, b in zip(s2, r2)))


@model("torch.repeat_interleave", "torch.Tensor.repeat_interleave")
def repeat_interleave(ctx: Ctx, input: Any, repeats: Any = None, dim: Any = None, **kwargs: Any) -> Any:
    if not known(input):
        return ctx.unknown("repeat_interleave")
    s = shape_of(input)
    if isinstance(repeats, Tensor):
        size: Dim = ctx.fresh("repeated")
    elif is_dim(repeats):
        size = (prod(s) if dim is None else s[norm_dim(ctx, dim, len(s), "repeat_interleave") or 0]) * repeats
    else:
        return ctx.unknown("repeat_interleave")
    if dim is None:
        return input.with_shape((size,))
    d = norm_dim(ctx, dim, len(s), "repeat_interleave")
    return input.with_shape(_replace(s, d, size)) if d is not None else ctx.unknown("repeat_interleave")


def _atleast(t: Tensor, n: int) -> Tensor:
    s = shape_of(t)
    if len(s) >= n:
        return t
    return t.with_shape(((1,) * (n - len(s)) + tuple(s)) if n == 2 else (1,) + tuple(s) + (1,) * (n - 1 - len(s)))


@model("torch.vstack", "torch.row_stack")
def vstack(ctx: Ctx, tensors: Any, **kwargs: Any) -> Any:
    items = ctx.iterate(tensors)
    if items is None or not all(known(t) for t in items):
        return ctx.unknown("vstack")
    return cat(ctx, [_atleast(t, 2) for t in items], 0, out=kwargs.get("out"))


@model("torch.hstack")
def hstack(ctx: Ctx, tensors: Any, **kwargs: Any) -> Any:
    items = ctx.iterate(tensors)
    if items is None or not all(known(t) for t in items) or not items:
        return ctx.unknown("hstack")
    return cat(ctx, items, 0 if len(shape_of(items[0])) <= 1 else 1, out=kwargs.get("out"))


@model("torch.diag", "torch.Tensor.diag")
def diag(ctx: Ctx, input: Any, diagonal: Any = 0) -> Any:
    k = as_int(diagonal)
    if not known(input) or k is None:
        return ctx.unknown("diag")
    s = shape_of(input)
    ctx.require(len(s) in (1, 2), "diag", f"diag(): Supports 1D or 2D tensors. Got {len(s)}D", INVALID_ARGUMENT,
                (f"input: {fmt(s)}",))
    if len(s) == 1:
        return input.with_shape((s[0] + abs(k), s[0] + abs(k)))
    rows, cols = (s[0], s[1] - k) if k >= 0 else (s[0] + k, s[1])
    return input.with_shape((dmin(rows, cols),))


@model("torch.diag_embed", "torch.Tensor.diag_embed")
def diag_embed(ctx: Ctx, input: Any, offset: Any = 0, dim1: Any = -2, dim2: Any = -1) -> Any:
    k = as_int(offset)
    if not known(input) or k is None or (dim1, dim2) != (-2, -1):
        return ctx.unknown("diag_embed")
    s = shape_of(input)
    n = s[-1] + abs(k) if s else 1
    return input.with_shape(tuple(s[:-1]) + (n, n))


@model("torch.diagonal", "torch.Tensor.diagonal")
def diagonal(ctx: Ctx, input: Any, offset: Any = 0, dim1: Any = 0, dim2: Any = 1) -> Any:
    if not known(input) or as_int(offset) != 0:
        return ctx.unknown("diagonal")
    s = shape_of(input)
    a, b = norm_dim(ctx, dim1, len(s), "diagonal"), norm_dim(ctx, dim2, len(s), "diagonal")
    if a is None or b is None:
        return ctx.unknown("diagonal")
    ctx.require(a != b, "diagonal", f"diagonal dimensions cannot be identical {dim1}, {dim2}", INVALID_ARGUMENT)
    return input.with_shape(tuple(x for i, x in enumerate(s) if i not in (a, b)) + (dmin(s[a], s[b]),))


# ----- differences and fills ---------------------------------------------------------------------


def _diff_part(ctx: Ctx, s: tuple[Dim, ...], d: int, extra: Any, name: str) -> Dim:
    """Length `extra` adds along dim `d` (a tensor matching `s` elsewhere, or a scalar adding 1)."""
    if extra is None:
        return 0
    if not known(extra):
        return ctx.fresh(name)
    e = shape_of(extra)
    if len(e) == 0:
        return 1
    ctx.require(len(e) == len(s), "diff", f"diff expects {name} tensors to have the same number of dimensions as "
                f"the input, got {fmt(e)} for input {fmt(s)}", operands=(f"input: {fmt(s)}", f"{name}: {fmt(e)}"))
    for i, (a, b) in enumerate(zip(s, e)):
        if i != d:
            ctx.require(P.eq(a, b), "diff", f"diff expects the shape of tensor to {name} to match that of input "
                        f"except along the differencing dimension; input.size({i}) = {a!r}, but got tensor.size({i}) "
                        f"= {b!r}", operands=(f"input: {fmt(s)}", f"{name}: {fmt(e)}"), dims=(("input", a), (name, b)))
    return e[d]


@model("torch.diff", "torch.Tensor.diff")
def diff(ctx: Ctx, input: Any, n: Any = 1, dim: Any = -1, prepend: Any = None, append: Any = None) -> Any:
    if not known(input):
        return ctx.unknown("diff of unknown input")
    s = shape_of(input)
    ctx.require(len(s) >= 1, "diff", "diff expects input to be at least one-dimensional", INVALID_ARGUMENT,
                operands=(f"input: {fmt(s)}",))
    d = norm_dim(ctx, dim, len(s), "diff")
    if d is None or not isinstance(n, int):
        return ctx.unknown("diff over an unknown dim")
    ctx.require(n >= 0, "diff", f"order must be non-negative but got {n}", INVALID_ARGUMENT)
    size = s[d] + _diff_part(ctx, s, d, prepend, "prepend") + _diff_part(ctx, s, d, append, "append")
    out = size - n
    out = max(out, 0) if isinstance(out, int) else dmax(out, 0)
    return input.with_shape(s[:d] + (out,) + s[d + 1:])


@model("torch.fill")
def fill(ctx: Ctx, input: Any, value: Any) -> Any:
    """`torch.fill(t, v)`: a new tensor of `t`'s shape and dtype."""
    return input.with_shape(input.shape) if isinstance(input, Tensor) else ctx.unknown("torch.fill of a non-tensor")
