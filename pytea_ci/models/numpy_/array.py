"""`numpy` shape operations and `numpy.ndarray` methods: reshape, transpose (with axes),
stack/concatenate/vstack/hstack, expand_dims, squeeze, reductions with `axis`/`keepdims`,
`astype`, and the arithmetic operators, which broadcast with numpy's own error message."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import fmt, is_number, known, number_kind, reduce_shape, scalar_unknown, shape_of, sizes_arg
from pytea_ci.models.registry import model, prop, register
from pytea_ci.models.torch import creation as tc
from pytea_ci.models.torch import tensor as tt
from pytea_ci.models.torch.elementwise import DUNDERS, binary, where
from pytea_ci.models.numpy_.creation import torch_dtype_rejected
from pytea_ci.models.numpy_.known import COMPARE_OPS, ITEM_OPS, as_ndarray, elementwise, items_of
from pytea_ci.models.values import Builtin, DType, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import add, dmax, dmin, is_dim, mul
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.diagnostics.rules import DTYPE_MISMATCH, INVALID_ARGUMENT


def _np(v: Any) -> Any:
    """Results of the shared torch models, marked as ndarrays again."""
    if isinstance(v, Tensor):
        return Tensor(v.shape, v.dtype, "numpy")
    if isinstance(v, tuple):
        return tuple(_np(x) for x in v)
    return v


def _shown(s: Any) -> str:
    return "(" + ",".join(repr(d) for d in s) + ("," if len(s) == 1 else "") + ")"


def np_broadcast(ctx: Ctx, a: Any, b: Any, op: str) -> None:
    """numpy's broadcast rule, stated with numpy's message."""
    if not (known(a) or known(b)) or not all(known(v) or not isinstance(v, Tensor) for v in (a, b)):
        return
    sa = shape_of(a) if isinstance(a, Tensor) else ()
    sb = shape_of(b) if isinstance(b, Tensor) else ()
    conds = [P.or_(P.eq(x, y), P.eq(x, 1), P.eq(y, 1)) for x, y in zip(reversed(sa), reversed(sb))]
    ctx.require(P.and_(*conds), op, f"operands could not be broadcast together with shapes {_shown(sa)} {_shown(sb)}",
                operands=(f"left: {fmt(sa)}", f"right: {fmt(sb)}"))


def _dunder(op: str, reflected: bool, exact: Any = None) -> Any:
    """numpy's operator `op`; `exact`, where given, computes it item by item on arrays of known items
    (models/numpy_/known.py), else a known array meets the shape rule as the 1-D ndarray it is."""
    def run(ctx: Ctx, self: Any, other: Any) -> Any:
        a, b = (other, self) if reflected else (self, other)
        if exact is not None and any(items_of(v) is not None for v in (a, b)):
            computed = elementwise(ctx, a, b, exact, op)
            if not isinstance(computed, Unknown):
                return computed
        a, b = as_ndarray(a), as_ndarray(b)
        if not isinstance(a, Tensor) and not isinstance(b, Tensor) and is_number(a) and is_number(b):
            kind = "float" if op in ("div", "pow") or "float" in (number_kind(a), number_kind(b)) else "int"
            return scalar_unknown(ctx, f"numpy {op} of numbers", kind)  # np.power(10000, 0.5): a number
        np_broadcast(ctx, a, b, op)
        return _np(binary(ctx, op, a, b))

    return run


def _register_operators() -> None:
    by_items = {**ITEM_OPS, **COMPARE_OPS}
    for name, (op, reflected) in DUNDERS.items():
        base = name[3:-2] if reflected else name[2:-2]  # `__rsub__`: sub; in place (`__isub__`) not item by item
        exact = None if name.startswith("__i") else by_items.get(base)
        register(f"numpy.ndarray.{name}", Builtin(f"numpy.ndarray.{name}", _dunder(op, reflected, exact)))
    for op in ("add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "true_divide"):
        base = {"subtract": "sub", "multiply": "mul", "divide": "div", "power": "pow", "true_divide": "div"}.get(op, op)
        register(f"numpy.{op}", Builtin(f"numpy.{op}", _dunder(base, False)))


_register_operators()


@model("numpy.reshape")
def reshape(ctx: Ctx, a: Any, newshape: Any, **kwargs: Any) -> Any:
    return _np(tt.tensor_reshape(ctx, a, newshape)) if isinstance(a, Tensor) else ctx.unknown("reshape")


@model("numpy.ndarray.reshape")
def ndarray_reshape(ctx: Ctx, self: Any, *shape: Any, **kwargs: Any) -> Any:
    return _np(tt.tensor_reshape(ctx, self, *shape))


@model("numpy.transpose", "numpy.ndarray.transpose")
def transpose(ctx: Ctx, a: Any, *axes: Any) -> Any:
    order = sizes_arg(axes, held=ctx) if axes and axes != (None,) else None
    if not known(a):
        return ctx.unknown("np.transpose")
    if order is None:
        return a.with_shape(tuple(reversed(shape_of(a))))
    return _np(tt.permute(ctx, a, *order))


@model("numpy.swapaxes", "numpy.ndarray.swapaxes")
def swapaxes(ctx: Ctx, a: Any, axis1: Any, axis2: Any) -> Any:
    return _np(tt.transpose(ctx, a, axis1, axis2))


@model("numpy.expand_dims")
def expand_dims(ctx: Ctx, a: Any, axis: Any) -> Any:
    return _np(tt.unsqueeze(ctx, a, axis))


@model("numpy.squeeze", "numpy.ndarray.squeeze")
def squeeze(ctx: Ctx, a: Any, axis: Any = None) -> Any:
    # unlike torch, numpy refuses to squeeze an axis whose size is not one
    if known(a) and isinstance(axis, int):
        s = shape_of(a)
        if -len(s) <= axis < len(s):
            ctx.require(P.eq(s[axis], 1), "squeeze", "cannot select an axis to squeeze out which has size not "
                        f"equal to one (axis {axis} has size {s[axis]!r})", INVALID_ARGUMENT)
    return _np(tt.squeeze(ctx, a, axis))


@model("numpy.ravel", "numpy.ndarray.ravel", "numpy.ndarray.flatten")
def ravel(ctx: Ctx, a: Any, *args: Any, **kwargs: Any) -> Any:
    return _np(tt.flatten(ctx, a))


@model("numpy.concatenate")
def concatenate(ctx: Ctx, arrays: Any, axis: Any = 0, **kwargs: Any) -> Any:
    return _np(tc.cat(ctx, arrays, axis))


@model("numpy.stack")
def stack(ctx: Ctx, arrays: Any, axis: Any = 0, **kwargs: Any) -> Any:
    return _np(tc.stack(ctx, arrays, axis))


@model("numpy.vstack")
def vstack(ctx: Ctx, tup: Any, **kwargs: Any) -> Any:
    from pytea_ci.models.torch.joining import vstack as tvstack

    return _np(tvstack(ctx, tup))


@model("numpy.hstack")
def hstack(ctx: Ctx, tup: Any, **kwargs: Any) -> Any:
    from pytea_ci.models.torch.joining import hstack as thstack

    return _np(thstack(ctx, tup))


def _reduce(ctx: Ctx, a: Any, axis: Any, keepdims: Any, op: str, dtype: str | None = "") -> Any:
    if not known(a):
        return ctx.unknown(f"np.{op} of unknown array")
    shape = reduce_shape(ctx, shape_of(a), axis, bool(keepdims), op)
    out = a.with_shape(shape) if dtype == "" else a.with_shape(shape, dtype)
    return out if shape != () else ctx.unknown(f"np.{op} scalar value")


@model("numpy.mean", "numpy.ndarray.mean", "numpy.std", "numpy.ndarray.std", "numpy.var", "numpy.ndarray.var")
def mean(ctx: Ctx, a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False,
         **kwargs: Any) -> Any:
    res = _reduce(ctx, a, axis, keepdims, "mean")
    return res.with_shape(res.shape, "float64") if isinstance(res, Tensor) and not res.is_float() else res


@model("numpy.percentile", "numpy.nanpercentile", "numpy.quantile", "numpy.nanquantile")
def percentile(ctx: Ctx, a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: Any = False,
               method: Any = "linear", keepdims: Any = False, **kwargs: Any) -> Any:
    """`np.percentile(a, q)`: with one `q`, a reduction over `axis` (a float64 number over every item, whatever
    `a` holds: a list or tuple of lengths too); a sequence of `q`s puts their count first."""
    if is_number(q) and axis is None and not keepdims:
        return scalar_unknown(ctx, "numpy percentile of data", "float")
    res = _reduce(ctx, a, axis, keepdims, "percentile", "float64")
    if is_number(q) or not isinstance(res, Tensor):
        return res
    qs = as_ndarray(q) if not isinstance(q, (list, tuple)) else Tensor((len(q),), "float64", "numpy")
    if not (isinstance(qs, Tensor) and qs.shape is not None and len(qs.shape) == 1) or res.shape is None:
        return ctx.unknown("numpy percentile of quantiles not understood")
    return res.with_shape(qs.shape + res.shape, "float64")


@model("numpy.median", "numpy.nanmedian")
def median(ctx: Ctx, a: Any, axis: Any = None, out: Any = None, overwrite_input: Any = False, keepdims: Any = False) -> Any:
    """`np.median(a)`: a float64 number over every item; over `axis`, that reduction."""
    return percentile(ctx, a, 50, axis, out, overwrite_input, keepdims=keepdims)


_FOLDS = {"sum": add, "prod": mul, "max": dmax, "min": dmin}


def _fold(ctx: Ctx, a: Any, op: str) -> Any:
    """`np.prod(img_shape)` of a tuple, list or known array of sizes (concrete or symbolic): the number
    numpy computes, a size; None when an item is not a size (a float, a value not known) or there is none.
    A size alone folds to itself (`np.prod(strides) != 1` with `strides=2`: numpy's 0-d reduction)."""
    if is_dim(a) and not isinstance(a, bool):
        return a
    items = items_of(a)
    if items is None and isinstance(a, (tuple, list)) and ctx.known_length(a) == len(a):
        items = tuple(a)
    if not items or not all(is_dim(x) and not isinstance(x, bool) for x in items):
        return None
    out = items[0]
    for x in items[1:]:
        out = _FOLDS[op](out, x)
    return out


def _reducer(op: str) -> Any:
    def run(ctx: Ctx, a: Any, axis: Any = None, *args: Any, keepdims: Any = False, **kwargs: Any) -> Any:
        folded = _fold(ctx, a, op) if axis is None and not args and not kwargs else None
        return folded if folded is not None else _reduce(ctx, a, axis, keepdims, "sum")

    return run


for _op in _FOLDS:
    model(f"numpy.{_op}", f"numpy.ndarray.{_op}", *{"max": ["numpy.amax"], "min": ["numpy.amin"]}.get(_op, []))(
        _reducer(_op))


@model("numpy.argmax", "numpy.ndarray.argmax", "numpy.argmin", "numpy.ndarray.argmin")
def argmax(ctx: Ctx, a: Any, axis: Any = None, out: Any = None, *, keepdims: Any = False) -> Any:
    return _reduce(ctx, a, axis, keepdims if axis is not None else False, "argmax", "int64")


@model("numpy.ndarray.astype")
def astype(ctx: Ctx, self: Any, dtype: Any, *args: Any, **kwargs: Any) -> Any:
    torch_dtype_rejected(ctx, "numpy.ndarray.astype", dtype)
    name = dtype.name if isinstance(dtype, DType) else {float: "float64", int: "int64", bool: "bool"}.get(dtype)
    return self.with_shape(self.shape, name)


@model("numpy.ndarray.copy")
def copy(ctx: Ctx, self: Any, *args: Any, **kwargs: Any) -> Any:
    return self


@model("numpy.where")
def np_where(ctx: Ctx, condition: Any, x: Any = None, y: Any = None) -> Any:
    """`where(c, x, y)` broadcasts the three; `where(c)` is one index array per dim of `c`, as long
    as the number of true elements (not known)."""
    if x is not None:
        return where(ctx, condition, x, y)
    if not isinstance(condition, Tensor) or condition.shape is None:
        return ctx.unknown("numpy.where(condition)")
    n = ctx.fresh("nonzero")
    return tuple(Tensor((n,), "int64", "numpy") for _ in condition.shape)


for _name, _value in (("inf", float("inf")), ("nan", float("nan")), ("pi", 3.141592653589793),
                      ("e", 2.718281828459045), ("newaxis", None)):
    register(f"numpy.{_name}", _value)


# torch.Tensor methods and attributes no numpy.ndarray has, in any NumPy release (1.x and 2.x: checked against
# `dir(numpy.ndarray)` by tests/test_numpy_tensor_names.py): a NumPy array used as a tensor (`arr.float()`,
# `arr.cuda()`, `arr.unsqueeze(0)`) raises AttributeError on every run that gets there
TENSOR_ONLY = (
    "float", "double", "half", "long", "int", "short", "bool", "byte", "char", "bfloat16", "cuda", "cpu", "to",
    "unsqueeze", "unsqueeze_", "permute", "contiguous", "detach", "numpy", "dim", "numel", "expand", "expand_as",
    "masked_fill", "masked_fill_", "requires_grad_", "backward", "type", "type_as", "clone", "add", "sub", "mul",
    "div", "matmul", "mm", "bmm", "softmax", "log_softmax", "t", "new_zeros", "new_ones", "new_tensor", "new_full",
    "new_empty", "fill_", "zero_", "copy_", "index_select", "gather", "scatter", "scatter_", "masked_select", "topk",
    "eq", "ne", "lt", "gt", "le", "ge", "exp", "log", "sqrt", "pow", "clamp", "norm", "split", "chunk", "narrow",
    "view_as", "is_cuda", "unbind", "flip", "roll", "abs", "neg", "sigmoid", "tanh", "relu",
)


def _tensor_only(name: str) -> None:
    @prop(f"numpy.ndarray.{name}")
    def missing(ctx: Ctx, arr: Tensor) -> Any:
        ctx.require(False, f"ndarray.{name}", f"'numpy.ndarray' object has no attribute '{name}': a NumPy array "
                    f"is not a tensor (torch.from_numpy or torch.as_tensor makes one)", DTYPE_MISMATCH,
                    operands=(f"array: {fmt(arr.shape) if arr.shape is not None else 'ndarray'}, {arr.dtype}",))
        return ctx.unknown(f"numpy.ndarray.{name}")


for _name in TENSOR_ONLY:
    _tensor_only(_name)
