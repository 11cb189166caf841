"""Reductions (`sum mean max argmax std ...`) with `dim` (int or tuple) and `keepdim`, and the
softmax family that normalises along a dim."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import require_cpu_floating, require_floating, title
from pytea_ci.models.prim import contiguous_strides, dtype_name, known, norm_dim, reduce_shape, shape_of, with_strides
from pytea_ci.models.ranges import Indices, argmax_values, argsort_values
from pytea_ci.models.registry import model
from pytea_ci.models.torch.elementwise import binary
from pytea_ci.models.values import ValuesIndices
from pytea_ci.shapes.tensor import Tensor, category
from pytea_ci.diagnostics.rules import DTYPE_MISMATCH, INVALID_ARGUMENT


def _reduce(ctx: Ctx, op: str, input: Any, dim: Any, keepdim: Any, dtype: str | None = "") -> Any:
    if not known(input):
        return ctx.unknown(f"{op} of unknown tensor")
    shape = reduce_shape(ctx, shape_of(input), dim, bool(keepdim), op)
    return input.with_shape(shape, dtype) if dtype != "" else input.with_shape(shape)


def _dim_kw(dim: Any, kwargs: dict[str, Any]) -> Any:
    return kwargs.get("axis", dim)


def _keep(keepdim: Any, kwargs: dict[str, Any]) -> Any:
    """`keepdim`, or NumPy's spelling `keepdims`, which torch's argument parser takes as an alias of it."""
    return keepdim or kwargs.get("keepdims", False)


def _nonempty(ctx: Ctx, op: str, input: Any, dim: Any, whole: bool = True) -> None:
    """max/min/argmax and their kin have no identity: torch rejects reducing a dim of size 0, and
    (`whole`) reducing a tensor of no elements without a dim. Only sizes known to be 0 are checked."""
    if not known(input):
        return
    shape = shape_of(input)
    if dim is None:
        if whole and any(d == 0 for d in shape if isinstance(d, int)):
            ctx.require(False, op, "Expected reduction dim to be specified for input.numel() == 0. Specify the "
                        "reduction dim with the 'dim' argument.", INVALID_ARGUMENT)
        return
    for d in dim if isinstance(dim, (tuple, list)) else (dim,):
        n = norm_dim(ctx, d, len(shape), op) if shape else None
        if n is not None and isinstance(shape[n], int) and shape[n] == 0:
            ctx.require(False, op, f"Expected reduction dim {n} to have non-zero size.", INVALID_ARGUMENT)


_FLOATING = "floating point or complex dtype"


@model("torch.mean", "torch.Tensor.mean")
def mean(ctx: Ctx, input: Any, dim: Any = None, keepdim: Any = False, **kwargs: Any) -> Any:
    """An average of bools or integers has no dtype to be in: `dtype=` must name a floating or complex one,
    else the input must be of one (`(pred == y).mean()` raises; `.float().mean()` does not)."""
    dtype = dtype_name(kwargs.get("dtype"))
    if dtype is not None:
        ctx.require(category(dtype) not in (0, 1), "mean", "mean(): could not infer output dtype. Optional dtype must "
                    f"be either a {_FLOATING}. Got: {title(dtype)}", DTYPE_MISMATCH)
    else:
        require_floating(ctx, "mean", input, "input",
                         f"mean(): could not infer output dtype. Input dtype must be either a {_FLOATING}. Got: {{got}}")
    return _reduce(ctx, "mean", input, _dim_kw(dim, kwargs), _keep(keepdim, kwargs), dtype or "")


@model("torch.nanmean", "torch.Tensor.nanmean")
def nanmean(ctx: Ctx, input: Any, dim: Any = None, keepdim: Any = False, **kwargs: Any) -> Any:
    """The input must be floating or complex whatever `dtype=` says."""
    require_floating(ctx, "nanmean", input, "input",
                     "nanmean(): expected input to have floating point or complex dtype but got {got}")
    return _reduce(ctx, "nanmean", input, _dim_kw(dim, kwargs), _keep(keepdim, kwargs),
                   dtype_name(kwargs.get("dtype")) or "")


@model("torch.logsumexp", "torch.Tensor.logsumexp")
def logsumexp(ctx: Ctx, input: Any, dim: Any = None, keepdim: Any = False, **kwargs: Any) -> Any:
    """Bools and integers are promoted to the default float dtype."""
    promoted = "float32" if isinstance(input, Tensor) and category(input.dtype) in (0, 1) else ""
    return _reduce(ctx, "logsumexp", input, _dim_kw(dim, kwargs), _keep(keepdim, kwargs), promoted)


@model("torch.amax", "torch.Tensor.amax", "torch.amin", "torch.Tensor.amin")
def amax(ctx: Ctx, input: Any, dim: Any = (), keepdim: Any = False, **kwargs: Any) -> Any:
    """`dim=()` (the default) reduces every dim, as `None` does elsewhere."""
    dim = _dim_kw(dim, kwargs)
    dim = None if dim == () else dim
    _nonempty(ctx, "amax", input, dim)
    return _reduce(ctx, "amax", input, dim, _keep(keepdim, kwargs))


@model("torch.sum", "torch.Tensor.sum", "torch.prod", "torch.Tensor.prod", "torch.nansum", "torch.Tensor.nansum")
def sum_(ctx: Ctx, input: Any, dim: Any = None, keepdim: Any = False, **kwargs: Any) -> Any:
    """Sums of bools and integers are int64, as in torch (`(pred == y).sum()`)."""
    dtype = dtype_name(kwargs.get("dtype")) or ("int64" if isinstance(input, Tensor) and category(input.dtype) in (0, 1)
                                                else "")
    return _reduce(ctx, "sum", input, _dim_kw(dim, kwargs), _keep(keepdim, kwargs), dtype)


@model("torch.count_nonzero", "torch.Tensor.count_nonzero")
def count_nonzero(ctx: Ctx, input: Any, dim: Any = None) -> Any:
    return _reduce(ctx, "count_nonzero", input, dim, False, "int64")


@model("torch.std", "torch.Tensor.std", "torch.var", "torch.Tensor.var")
def std(ctx: Ctx, input: Any, dim: Any = None, unbiased: Any = True, keepdim: Any = False, **kwargs: Any) -> Any:
    if isinstance(unbiased, (int, tuple, list)) and not isinstance(unbiased, bool) and dim is None:
        dim, unbiased = unbiased, True
    require_floating(ctx, "std", input, "input", "std and var only support floating point and complex dtypes")
    return _reduce(ctx, "std", input, dim, _keep(keepdim, kwargs))


@model("torch.quantile", "torch.Tensor.quantile", "torch.nanquantile", "torch.Tensor.nanquantile")
def quantile(ctx: Ctx, input: Any, q: Any, dim: Any = None, keepdim: Any = False, **kwargs: Any) -> Any:
    """A reduction over `dim` (all elements when None) with one more leading dim of len(q) for a 1-D `q`."""
    require_floating(ctx, "quantile", input, "input", "quantile() input tensor must be either float or double dtype")
    if isinstance(q, Tensor) and q.shape is not None:
        ctx.require(len(q.shape) <= 1, "quantile", f"q must be a scalar or 1D tensor (got shape {list(q.shape)})", INVALID_ARGUMENT)
    out = _reduce(ctx, "quantile", input, dim, _keep(keepdim, kwargs))
    if not isinstance(out, Tensor) or not isinstance(q, Tensor) or not q.shape:
        return out
    return out.with_shape(None if out.shape is None else (q.shape[0],) + out.shape)


@model("torch.all", "torch.Tensor.all", "torch.any", "torch.Tensor.any")
def all_(ctx: Ctx, input: Any, dim: Any = None, keepdim: Any = False, *, keepdims: Any = False) -> Any:
    return _reduce(ctx, "all", input, dim, keepdim or keepdims, "bool")


@model("torch.argmax", "torch.Tensor.argmax", "torch.argmin", "torch.Tensor.argmin", values=argmax_values)
def argmax(ctx: Ctx, input: Any, dim: Any = None, keepdim: Any = False, *, keepdims: Any = False) -> Any:
    _nonempty(ctx, "argmax", input, dim)
    return _reduce(ctx, "argmax", input, dim, (keepdim or keepdims) if dim is not None else False, "int64")


@model("torch.max", "torch.Tensor.max", "torch.min", "torch.Tensor.min", values=Indices(1, None, False))
def max_(ctx: Ctx, input: Any, dim: Any = None, keepdim: Any = False, **kwargs: Any) -> Any:
    if not isinstance(dim, Tensor):
        _nonempty(ctx, "max", input, dim)
    return median(ctx, input, dim, keepdim, **kwargs)


@model("torch.median", "torch.Tensor.median", "torch.mode", "torch.Tensor.mode", values=Indices(1, None, False))
def median(ctx: Ctx, input: Any, dim: Any = None, keepdim: Any = False, **kwargs: Any) -> Any:
    if isinstance(dim, Tensor):
        return binary(ctx, "maximum", input, dim)
    _nonempty(ctx, "median", input, dim, whole=False)  # median() of no elements is nan
    if dim is None:
        return _reduce(ctx, "max", input, None, False)
    values = _reduce(ctx, "max", input, dim, _keep(keepdim, kwargs))
    if not isinstance(values, Tensor):
        return values
    return ValuesIndices((values, values.with_shape(values.shape, "int64")))


NORM_FLOAT = "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {got}"


@model("torch.norm", "torch.Tensor.norm", "torch.linalg.norm", "torch.linalg.vector_norm")
def norm(ctx: Ctx, input: Any, p: Any = "fro", dim: Any = None, keepdim: Any = False, **kwargs: Any) -> Any:
    """Norms of bools and integers raise on every device (`x.long().norm(dim=1)`)."""
    require_floating(ctx, "norm", input, "input", NORM_FLOAT)
    if isinstance(p, (tuple, list)) or (isinstance(p, int) and dim is None and "ord" not in kwargs and not isinstance(p, bool) and False):
        dim = p
    return _reduce(ctx, "norm", input, kwargs.get("dim", dim), keepdim)


@model("torch.softmax", "torch.Tensor.softmax", "torch.log_softmax", "torch.Tensor.log_softmax",
       "torch.nn.functional.softmax", "torch.nn.functional.log_softmax", "torch.nn.functional.softmin")
def softmax(ctx: Ctx, input: Any, dim: Any = None, *args: Any, **kwargs: Any) -> Any:
    """Bools and integers have no softmax kernel on the CPU (`dtype=` converts the input first)."""
    if not known(input):
        return ctx.unknown("softmax of unknown tensor")
    if dtype_name(kwargs.get("dtype")) is None:
        require_cpu_floating(ctx, "softmax", input, "softmax_kernel_impl")
    if dim is not None:
        norm_dim(ctx, dim, len(shape_of(input)), "softmax")
    return input.with_shape(input.shape, "float32" if not input.is_float() else input.dtype)


@model("torch.nn.functional.gumbel_softmax")
def gumbel_softmax(ctx: Ctx, logits: Any, *args: Any, **kwargs: Any) -> Any:
    """Its noise is drawn in the dtype of the logits: a continuous distribution needs a floating one."""
    require_floating(ctx, "gumbel_softmax", logits, "logits", "Exponential distribution is a continuous probability "
                     "distribution. dtype must be a floating point but you specified {got}")
    return softmax(ctx, logits, kwargs.get("dim", -1))


@model("torch.cumsum", "torch.Tensor.cumsum", "torch.cumprod", "torch.Tensor.cumprod")
def cumsum(ctx: Ctx, input: Any, dim: Any, **kwargs: Any) -> Any:
    """Same shape; running sums of bools and integers are int64."""
    if not known(input):
        return ctx.unknown("cumsum of unknown tensor")
    norm_dim(ctx, dim, len(shape_of(input)), "cumsum")
    dtype = dtype_name(kwargs.get("dtype")) or ("int64" if category(input.dtype) in (0, 1) else input.dtype)
    return input.with_shape(input.shape, dtype)


@model("torch.topk", "torch.Tensor.topk", values=Indices(2, -1, False))
def topk(ctx: Ctx, input: Any, k: Any, dim: Any = -1, largest: Any = True, sorted: Any = True) -> Any:
    if not known(input):
        return ctx.unknown("topk")
    s = shape_of(input)
    d = norm_dim(ctx, dim, len(s), "topk")
    if d is None:
        return ctx.unknown("topk")
    from pytea_ci.shapes import pred as P

    if s:
        ctx.require(P.le(k, s[d]), "topk", f"selected index k ({k!r}) out of range for dimension of size {s[d]!r}",
                    INVALID_ARGUMENT, dims=(("k", k), ("size", s[d])))
    shape = s[:d] + (k,) + s[d + 1:] if s else ()
    strides = contiguous_strides(shape)  # topk writes fresh contiguous outputs, whatever the input's layout
    return ValuesIndices((with_strides(input, shape, strides), Tensor(shape, "int64", input.lib, strides)))


@model("torch.sort", "torch.Tensor.sort", values=Indices(1, -1, True))
def sort(ctx: Ctx, input: Any, dim: Any = -1, descending: Any = False, **kwargs: Any) -> Any:
    if not isinstance(input, Tensor):
        return ctx.unknown("sort")
    if input.shape is not None:
        norm_dim(ctx, dim, len(input.shape), "sort")
    return ValuesIndices((input, input.with_shape(input.shape, "int64")))


@model("torch.argsort", "torch.Tensor.argsort", values=argsort_values)
def argsort(ctx: Ctx, input: Any, dim: Any = -1, descending: Any = False, **kwargs: Any) -> Any:
    out = sort(ctx, input, dim, descending)
    return out[1] if isinstance(out, tuple) else out
