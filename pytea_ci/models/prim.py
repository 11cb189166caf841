"""Shared shape primitives every API model is built from: dim normalisation, broadcasting,
matmul, reshape, reductions, convolution/pooling sizes. Each states its requirements on `ctx`."""

from __future__ import annotations

from typing import Any, Sequence

from pytea_ci.models.context import Ctx
from pytea_ci.models.values import DType, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Dim, PInt, Term, dmax, dmin, floordiv, is_dim, prod
from pytea_ci.shapes.tensor import Tensor, fmt_shape
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT, SHAPE_MISMATCH, Rule

Shape = tuple[Dim, ...]


def known(*vals: Any) -> bool:
    """All values are tensors of known rank."""
    return all(isinstance(v, Tensor) and v.shape is not None for v in vals)


def shape_of(t: Tensor) -> Shape:
    assert t.shape is not None
    return t.shape


def as_int(v: Any) -> int | None:
    return int(v) if isinstance(v, int) and not isinstance(v, bool) else None


def norm_dim(ctx: Ctx, dim: Any, rank: int, op: str) -> int | None:
    """A concrete dim index in range, or None when the dim is not a known int."""
    d = as_int(dim)
    if d is None:
        return None
    lo, hi = (-1, 0) if rank == 0 else (-rank, rank - 1)
    ctx.require(lo <= d <= hi, op, f"dim {d} is out of range for a {rank}-D tensor (expected in [{lo}, {hi}])", INVALID_ARGUMENT)
    return d % max(rank, 1)


def sizes_arg(args: Sequence[Any], ctx: Ctx | None = None, held: Ctx | None = None) -> list[Any] | None:
    """`f(2, 3)`, `f((2, 3))`, `f([2, 3])`, `f(torch.Size)` → [2, 3]; None when unknown. With `ctx`,
    a key path of a document read at run time is its one size symbol (models/read_keys.py). A list or
    tuple holding only representatives of its items (built in a loop not followed one by one; `ctx`'s or
    `held`'s inexact set) is no shape: unknown, as CPython's sizes are all of its items."""
    tracker = ctx if ctx is not None else held
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        if tracker is not None and id(args[0]) in tracker.inexact:
            return None
        args = args[0]
    out = list(args)
    if ctx is not None:
        from pytea_ci.models.read_keys import as_size

        out = [as_size(ctx, a) for a in out]
    if tracker is not None:  # a 0-d integer tensor is a size as torch takes it (`zeros(n, lengths.max())`)
        out = [as_value_size(tracker, a) for a in out]
    if not all(is_dim(a) for a in out):
        return None
    return out


def as_value_size(ctx: Ctx, v: Any) -> Any:
    """`v`, or of a 0-d integer tensor its value as a size (`value_size`)."""
    return value_size(ctx, v) if isinstance(v, Tensor) and v.shape == () and v.is_int() else v


_VALUE_SIZES = "sizes given by tensors' values"  # ctx.facts key: id -> (the 0-d tensor, its size symbol)


def value_size(ctx: Ctx, t: Tensor) -> Dim:
    """The value of a 0-d integer tensor taken as a size (`zeros(n, lengths.max())`, `arange(end=m)`,
    `expand(b, m)`): data's, not known, and the same symbol wherever the same tensor is given."""
    memo = ctx.facts.setdefault(_VALUE_SIZES, {})
    hit = memo.get(id(t))
    if hit is None or hit[0] is not t:
        hit = memo[id(t)] = (t, ctx.fresh("size", lo=0, note="a size given by a tensor's value"))
    return hit[1]  # type: ignore[no-any-return]


def dim_arg(ctx: Ctx, v: Any, hint: str = "size") -> Dim:
    """A size argument as a dim: a fresh unknown when the program passes something not understood
    (a key path of a document read at run time: its one symbol, models/read_keys.py)."""
    from pytea_ci.models.read_keys import as_size

    v = as_size(ctx, v)
    return v if is_dim(v) else ctx.fresh(hint)


def unknown_shape(ctx: Ctx, rank: int | None, hint: str = "d") -> Shape | None:
    if rank is None:
        return None
    return tuple(ctx.fresh(hint) for _ in range(rank))


def fmt(shape: Shape | None) -> str:
    return fmt_shape(shape)


def broadcast_shapes(ctx: Ctx, a: Shape, b: Shape, op: str, names: tuple[str, str] = ("self", "other")) -> Shape:
    out: list[Dim] = []
    n = max(len(a), len(b))
    pa = (1,) * (n - len(a)) + tuple(a)
    pb = (1,) * (n - len(b)) + tuple(b)
    for i, (x, y) in enumerate(zip(pa, pb)):
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        else:
            ctx.require(P.or_(P.eq(x, y), P.eq(x, 1), P.eq(y, 1)), op,
                        f"the size of {names[0]} ({x!r}) must match the size of {names[1]} ({y!r}) at non-singleton "
                        f"dimension {i - n}: {fmt(tuple(a))} vs {fmt(tuple(b))}",
                        operands=(f"{names[0]}: {fmt(tuple(a))}", f"{names[1]}: {fmt(tuple(b))}"),
                        # the ranks: data for the repairs (pytea_ci/fixes/), plain ints with no origin to show
                        dims=((names[0], x), (names[1], y), (f"rank of {names[0]}", len(a)),
                              (f"rank of {names[1]}", len(b))))
            # a fixed size other than 1 is the result whichever side holds (`48` with `D`: D is 48 or 1)
            out.append(x if isinstance(x, int) else (y if isinstance(y, int) else dmax(x, y)))
    return tuple(out)


def scalar_kind(v: Any) -> str:
    """The promotion category of a Python number (an int-like dim counts as an int)."""
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, complex):
        return "complex"
    return "float" if isinstance(v, float) else "int"


def result_dtype(a: Any, b: Any) -> str | None:
    """torch's type promotion: tensors with dims decide the dtype within a category, zero-dim tensors
    and Python numbers only raise the category (`2.5 * int_tensor` is float32)."""
    from pytea_ci.shapes.tensor import category, promote, promote_scalar

    if not isinstance(a, Tensor):
        a, b = b, a
    if not isinstance(a, Tensor):
        return None
    if not isinstance(b, Tensor):
        return promote_scalar(a.dtype, scalar_kind(b))
    dims_a, dims_b = a.rank != 0, b.rank != 0
    if dims_a == dims_b or b.dtype is None or a.dtype is None:
        return promote(a.dtype, b.dtype)
    big, small = (a, b) if dims_a else (b, a)
    ca, cs = category(big.dtype), category(small.dtype)
    if ca is None or cs is None or cs <= ca:
        return big.dtype
    return promote_scalar(big.dtype, ("bool", "int", "float", "complex")[cs])


def matmul_shapes(ctx: Ctx, a: Shape, b: Shape, op: str) -> Shape:
    if len(a) == 0 or len(b) == 0:
        ctx.require(False, op, "both arguments to matmul need to be at least 1D", INVALID_ARGUMENT)
    a2 = (1,) + tuple(a) if len(a) == 1 else tuple(a)
    b2 = tuple(b) + (1,) if len(b) == 1 else tuple(b)
    k1, k2 = a2[-1], b2[-2]
    ctx.require(P.eq(k1, k2), op,
                f"shapes cannot be multiplied ({'x'.join(map(repr, a2[-2:]))} and {'x'.join(map(repr, b2[-2:]))}): "
                f"{k1!r} != {k2!r}",
                operands=(f"left: {fmt(tuple(a))}", f"right: {fmt(tuple(b))}"), dims=(("left inner dim", k1), ("right inner dim", k2)))
    batch = broadcast_shapes(ctx, a2[:-2], b2[:-2], op) if (len(a2) > 2 or len(b2) > 2) else ()
    out = tuple(batch) + (a2[-2], b2[-1])
    if len(a) == 1:
        out = out[:-2] + out[-1:]
    if len(b) == 1:
        out = out[:-1]
    return out


def reshape_shape(ctx: Ctx, src: Shape, target: list[Any], op: str) -> Shape | None:
    if not all(is_dim(t) for t in target):
        return None
    holes = [i for i, t in enumerate(target) if isinstance(t, int) and t == -1]
    ctx.require(len(holes) <= 1, op, "only one dimension can be inferred", INVALID_ARGUMENT)
    for t in target:
        if isinstance(t, int) and t < -1:
            ctx.require(False, op, f"invalid shape dimension {t}", INVALID_ARGUMENT)
    numel = prod(src)
    known_part = prod([t for i, t in enumerate(target) if i not in holes])
    shown = "[" + ", ".join(repr(t) for t in target) + "]"
    if holes:
        ctx.require(P.and_(P.ne(known_part, 0), P.eq(numel % known_part if known_part != 0 else 1, 0)), op,
                    f"shape {shown} is invalid for input of size {numel!r} (input {fmt(src)})",
                    operands=(f"input: {fmt(src)}", f"requested: {shown}"),
                    dims=(("input size", numel), ("requested size", known_part), *_made_dims(src)))
        inferred = _inferred_size(src, [t for i, t in enumerate(target) if i not in holes]) if known_part != 0 else 0
        if isinstance(inferred, int) and isinstance(numel, int):
            inferred = PInt(inferred, ctx.span, _inferred_note(op, shown, src, known_part, inferred))
        return tuple(inferred if i in holes else t for i, t in enumerate(target))
    ctx.require(P.eq(numel, known_part), op, f"shape {shown} is invalid for input of size {numel!r} (input {fmt(src)})",
                operands=(f"input: {fmt(src)}", f"requested: {shown}"),
                dims=(("input size", numel), ("requested size", known_part)))
    return tuple(target)


def _made_dims(src: Shape) -> tuple[tuple[str, Any], ...]:
    """The input's sizes the program made (a DataLoader's last batch, ...), named where a view fails."""
    return tuple((f"input size at dim {i}", d) for i, d in enumerate(src)
                 if isinstance(d, PInt) and d.note and d.note not in ("literal", "computed"))


def _inferred_note(op: str, shown: str, src: Shape, known: Any, inferred: int) -> str:
    """How the -1 of a view was computed, with where its input's sizes came from when the program
    made them (a DataLoader's last batch, a dataset's image size): the arithmetic a user checks."""
    product = "*".join(repr(d) for d in src) or "1"
    why = [f"{int(d)}: {d.note}" for d in dict.fromkeys(d for d in src if isinstance(d, PInt))
           if d.note and d.note not in ("literal", "computed")]
    return (f"the -1 of {op}({shown[1:-1]}): {product} / {known!r} = {inferred}"
            + (f" ({'; '.join(why)})" if why else ""))


def _same_dim(a: Any, b: Any) -> bool:
    if isinstance(a, Term) or isinstance(b, Term):
        return isinstance(a, Term) and isinstance(b, Term) and a == b
    return int(a) == int(b)


def _inferred_size(src: Shape, given: list[Any]) -> Any:
    """numel // prod(given), with the dims both sides share cancelled first (`x.reshape(*x.shape[:-1], -1, 2)`
    gives `x.shape[-1] // 2`, not a quotient of products the solver cannot simplify). The caller has
    required prod(given) != 0, so every cancelled factor is non-zero."""
    rest = list(src)
    left: list[Any] = []
    for t in given:
        same = next((i for i, d in enumerate(rest) if _same_dim(d, t)), None)
        if same is None:
            left.append(t)
        else:
            del rest[same]
    return floordiv(prod(rest), prod(left))


def reduce_shape(ctx: Ctx, shape: Shape, dim: Any, keepdim: bool, op: str) -> Shape | None:
    if dim is None:
        return tuple(1 for _ in shape) if keepdim else ()
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    idx: set[int] = set()
    for d in dims:
        n = norm_dim(ctx, d, len(shape), op)
        if n is None:
            return None
        idx.add(n)
    if keepdim:
        return tuple(1 if i in idx else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in idx)


def tuple_arg(v: Any, n: int) -> tuple[Any, ...]:
    if isinstance(v, (tuple, list)):
        return tuple(v) if len(v) == n else tuple(v) + (v[-1],) * (n - len(v))
    return (v,) * n


def window_out(ctx: Ctx, size: Dim, k: Any, s: Any, p: Any, d: Any, op: str, ceil_mode: bool = False) -> Dim:
    """Output length of a convolution/pooling window: (L + 2p - d(k-1) - 1) // s + 1."""
    eff = size + 2 * p - d * (k - 1)
    ctx.require(P.ge(eff, 1), op,
                f"kernel size ({k!r}) can't be greater than the padded input size ({size!r} + 2*{p!r} = {size + 2 * p!r})",
                INVALID_ARGUMENT, dims=(("input size", size), ("kernel size", k)))
    if ceil_mode and isinstance(s, int) and s > 1:
        out = floordiv(eff - 1 + s - 1, s) + 1
        if isinstance(out, int) and isinstance(size, int) and (out - 1) * s >= size + p:
            out -= 1
        return out
    return floordiv(eff - 1, s) + 1


def tag(d: Dim, ctx: Ctx, note: str) -> Dim:
    """Attach provenance to a concrete dim computed by a model."""
    return PInt(int(d), ctx.span, note) if isinstance(d, int) and not isinstance(d, PInt) else d


def dtype_name(v: Any) -> str | None:
    if isinstance(v, DType):
        return v.name
    if isinstance(v, str):
        return {"float": "float32", "int": "int64", "long": "int64", "double": "float64"}.get(v, v)
    if v is float:
        return "float32"
    return None


def same_shape_required(ctx: Ctx, a: Tensor, b: Tensor, op: str, message: str, rule: Rule = SHAPE_MISMATCH) -> None:
    sa, sb = shape_of(a), shape_of(b)
    if len(sa) != len(sb):
        ctx.require(False, op, message.format(a=fmt(sa), b=fmt(sb)), rule, (f"input: {fmt(sa)}", f"target: {fmt(sb)}"))
        return
    ctx.require(P.and_(*[P.eq(x, y) for x, y in zip(sa, sb)]), op, message.format(a=fmt(sa), b=fmt(sb)), rule,
                (f"input: {fmt(sa)}", f"target: {fmt(sb)}"), tuple(("input", x) for x in sa) + tuple(("target", y) for y in sb))


def min_dim(a: Dim, b: Dim) -> Dim:
    return dmin(a, b)


def is_unknown(v: Any) -> bool:
    return isinstance(v, Unknown) or (isinstance(v, Tensor) and v.shape is None)


_ = Term


def contiguous_strides(shape: Shape) -> tuple[int, ...] | None:
    if not all(isinstance(d, int) for d in shape):
        return None
    out: list[int] = []
    acc = 1
    for d in reversed(shape):
        out.append(acc)
        acc *= max(int(d), 1)
    return tuple(reversed(out))


def is_dense(shape: Shape, strides: tuple[int, ...]) -> bool:
    """Non-overlapping and dense: the elements fill one block of memory in some order of the dims
    (a permutation of a contiguous tensor). Dims of size 1 take no part."""
    dims = sorted((st, int(d)) for d, st in zip(shape, strides) if isinstance(d, int) and d != 1)
    if len(dims) != sum(1 for d in shape if d != 1):
        return False  # a symbolic size
    expected = 1
    for st, d in dims:
        if st != expected:
            return False
        expected *= d
    return True


def view_strides(old: Shape, strides: tuple[int, ...], new: Shape) -> tuple[int, ...] | None:
    """Strides of `view(new)` on a tensor with `strides`, or None when no view exists (PyTorch's
    computeStride: each run of new dims must cover whole contiguous chunks of the old ones)."""
    if not old:
        return tuple(1 for _ in new)
    if any(int(d) == 0 for d in old):  # torch: any view of an empty tensor is valid (strides as resize gives)
        return strides if tuple(old) == tuple(new) else _resized(new)
    newstride = [0] * len(new)
    view_d = len(new) - 1
    chunk_base = strides[-1]
    tensor_numel = view_numel = 1
    for tensor_d in range(len(old) - 1, -1, -1):
        tensor_numel *= int(old[tensor_d])
        if tensor_d == 0 or (old[tensor_d - 1] != 1 and strides[tensor_d - 1] != tensor_numel * chunk_base):
            while view_d >= 0 and (view_numel < tensor_numel or new[view_d] == 1):
                newstride[view_d] = view_numel * chunk_base
                view_numel *= int(new[view_d])
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base = strides[tensor_d - 1]
                tensor_numel = view_numel = 1
    return tuple(newstride) if view_d == -1 else None


def _resized(shape: Shape) -> tuple[int, ...]:
    """Contiguous strides of `shape`, a size 0 counted as 1 (torch's computeStride for empty tensors)."""
    out = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        out[i] = max(int(shape[i + 1]), 1) * out[i + 1]
    return tuple(out)


def with_strides(t: Tensor, shape: Shape, strides: tuple[int, ...] | None) -> Tensor:
    """A view of `t` with the given strides (None: layout not known)."""
    return Tensor(shape, t.dtype, t.lib, strides)


def matrix_operands(ctx: Ctx, op: str, x: Any, y: Any, ranks: tuple[int, int], names: tuple[str, str],
                    expected: str) -> tuple[Shape, Shape] | None:
    """The shapes of the two operands of mm/bmm/mv after checking their ranks; None when unknown."""
    if not known(x, y):
        return None
    a, b = shape_of(x), shape_of(y)
    ctx.require(len(a) == ranks[0] and len(b) == ranks[1], op, f"{expected}, got {fmt(a)} and {fmt(b)}",
                operands=(f"{names[0]}: {fmt(a)}", f"{names[1]}: {fmt(b)}"))
    return a, b


def scalar_unknown(ctx: Ctx, reason: str, pytype: str) -> Any:
    """A Python number (or bool) of unknown value: its kind is known, so it never poisons a shape."""
    u = ctx.unknown(reason)
    if isinstance(u, Unknown):
        u.pytype = pytype
    return u


def is_number(v: Any) -> bool:
    """A Python number: concrete, symbolic, or of unknown value with a known kind."""
    return isinstance(v, (int, float, Term)) or (isinstance(v, Unknown) and v.pytype in ("int", "float", "bool"))


def number_kind(v: Any) -> str:
    """"float" for a float (known or not), else "int"."""
    return "float" if isinstance(v, float) or (isinstance(v, Unknown) and v.pytype == "float") else "int"
