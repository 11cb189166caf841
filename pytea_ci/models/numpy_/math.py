"""numpy math on arrays and on plain numbers: the element-wise functions (`sin cos tanh log exp sqrt
...`, one table line each), `clip`, `cumsum/cumprod`, `append`, `einsum`, and `numpy.random.choice /
permutation`. On arrays they follow numpy's shape rules; on numbers they give a number of unknown
value (of the right kind), never an array."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import (as_int, broadcast_shapes, fmt, is_number, known, norm_dim, number_kind,
                                  scalar_unknown, shape_of, sizes_arg)
from pytea_ci.models.registry import model, register
from pytea_ci.models.torch.products import einsum as torch_einsum
from pytea_ci.models.values import Builtin
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Term, prod
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT

# name -> result kind on numbers: "float", "bool" or "same" (abs, floor... of an int stay ints)
UFUNCS: dict[str, str] = {
    **{f: "float" for f in ("sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh exp exp2 "
                            "expm1 log log2 log10 log1p sqrt cbrt reciprocal deg2rad rad2deg radians degrees").split()},
    **{f: "bool" for f in ("isnan", "isinf", "isfinite", "signbit", "logical_not")},
    **{f: "same" for f in ("abs absolute fabs floor ceil rint round around trunc fix sign negative positive "
                           "square").split()},
}
_FLOAT_DTYPES = ("float16", "float32", "float64")


def _ufunc(name: str, kind: str) -> Any:
    def run(ctx: Ctx, x: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(x, Tensor):
            if kind == "bool":
                dtype: str | None = "bool"
            elif kind == "float" and x.dtype not in _FLOAT_DTYPES:
                dtype = "float64"
            else:
                dtype = x.dtype
            return Tensor(x.shape, dtype, "numpy")
        if is_number(x):
            return scalar_unknown(ctx, f"numpy.{name} of a number", number_kind(x) if kind == "same" else kind)
        return ctx.unknown(f"numpy.{name} of a value not understood")

    return run


for _name, _k in UFUNCS.items():
    register(f"numpy.{_name}", Builtin(f"numpy.{_name}", _ufunc(_name, _k)))
register("numpy.ndarray.round", Builtin("numpy.ndarray.round", _ufunc("round", "same")))  # `a.round(2)`


@model("numpy.cumsum", "numpy.ndarray.cumsum", "numpy.cumprod", "numpy.ndarray.cumprod")
def cumsum(ctx: Ctx, a: Any, axis: Any = None, *args: Any, **kwargs: Any) -> Any:
    """Along `axis` the shape is kept; without one the array is flattened first."""
    if is_number(a):
        return Tensor((1,), "float64" if number_kind(a) == "float" else "int64", "numpy")
    if not known(a):
        return ctx.unknown("cumsum of a value not understood")
    s = shape_of(a)
    if axis is None:
        return Tensor((prod(s),), a.dtype, "numpy")
    norm_dim(ctx, axis, len(s), "cumsum")
    return Tensor(s, a.dtype, "numpy")


@model("numpy.append")
def append(ctx: Ctx, arr: Any, values: Any, axis: Any = None) -> Any:
    """Without `axis` both are flattened and joined; with one they must agree on every other axis."""
    a, v = (_as_array(ctx, x) for x in (arr, values))
    if not known(a, v):
        return ctx.unknown("numpy.append of values not understood")
    sa, sv = shape_of(a), shape_of(v)
    if axis is None:
        return Tensor((prod(sa) + prod(sv),), a.dtype, "numpy")
    d = norm_dim(ctx, axis, len(sa), "append")
    if d is None:
        return Tensor(None, a.dtype, "numpy")
    ctx.require(len(sa) == len(sv), "append", f"all the input array dimensions except for the concatenation axis must "
                f"match exactly: {fmt(sa)} and {fmt(sv)}", operands=(f"arr: {fmt(sa)}", f"values: {fmt(sv)}"))
    for k, (x, y) in enumerate(zip(sa, sv)):
        if k != d:
            ctx.require(P.eq(x, y), "append", f"along dimension {k}, the array at index 0 has size {x!r} and the array "
                        f"at index 1 has size {y!r}", operands=(f"arr: {fmt(sa)}", f"values: {fmt(sv)}"))
    return Tensor(sa[:d] + (sa[d] + sv[d],) + sa[d + 1:], a.dtype, "numpy")


def _as_array(ctx: Ctx, x: Any) -> Any:
    if isinstance(x, Tensor):
        return x
    if is_number(x):
        return Tensor((), "float64" if number_kind(x) == "float" else "int64", "numpy")
    from pytea_ci.models.numpy_.creation import array

    return array(ctx, x) if isinstance(x, (list, tuple)) else None


@model("numpy.einsum")
def einsum(ctx: Ctx, subscripts: Any, *operands: Any, **kwargs: Any) -> Any:
    out = torch_einsum(ctx, subscripts, *operands)
    return Tensor(out.shape, out.dtype, "numpy") if isinstance(out, Tensor) else out


@model("numpy.random.choice")
def choice(ctx: Ctx, a: Any, size: Any = None, replace: Any = True, p: Any = None) -> Any:
    """Samples of `arange(a)` (an int) or of a 1-D array: a number without `size`, else an array of that size."""
    n = a if as_int(a) is not None or isinstance(a, Term) else (shape_of(a)[0] if known(a) and shape_of(a) else None)
    dtype = "int64" if not isinstance(a, Tensor) else a.dtype
    if size is None:
        from pytea_ci.models.random_ import NUMPY, choice_of, drawn_int

        if as_int(a) is not None:  # a size drawn from range(a): an input symbol
            return drawn_int(ctx, 0, a - 1, f"numpy.random.choice({a!r})", generator=NUMPY)
        if isinstance(a, list) and a and all(as_int(v) is not None for v in a):
            return choice_of(ctx, a, f"numpy.random.choice({a!r})", NUMPY)
        return scalar_unknown(ctx, "numpy.random.choice value", "int" if dtype == "int64" else "float")
    s = sizes_arg((size,), held=ctx)
    if s is None:
        return Tensor(None, dtype, "numpy")
    if replace is False and n is not None:
        ctx.require(P.le(prod(tuple(s)), n), "numpy.random.choice", f"cannot take a larger sample ({fmt(tuple(s))}) "
                    f"than population ({n!r}) when 'replace=False'", INVALID_ARGUMENT)
    return Tensor(tuple(s), dtype, "numpy")


@model("numpy.random.permutation")
def permutation(ctx: Ctx, x: Any) -> Any:
    """A shuffled `arange(x)` (an int) or a shuffled copy of an array."""
    if isinstance(x, Tensor):
        return Tensor(x.shape, x.dtype, "numpy")
    if as_int(x) is not None or isinstance(x, Term):
        return Tensor((x,), "int64", "numpy")
    return ctx.unknown("numpy.random.permutation of a value not understood")


# distribution -> (position of `size` among the positional arguments, kind of a single draw)
DISTRIBUTIONS: dict[str, tuple[int, str]] = {
    "standard_normal": (0, "float"), "exponential": (1, "float"), "poisson": (1, "int"), "binomial": (2, "int"),
    "beta": (2, "float"), "gamma": (2, "float"), "laplace": (2, "float"), "lognormal": (2, "float"),
    "geometric": (1, "int"), "standard_exponential": (0, "float"), "logistic": (2, "float"), "gumbel": (2, "float"),
}


def _distribution(name: str, at: int, kind: str) -> Any:
    def run(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
        """Draws of the requested `size`; one number of unknown value without it (and number parameters)."""
        size = kwargs.get("size", args[at] if len(args) > at else None)
        params = [a for a in args[:at]] + [v for k, v in kwargs.items() if k != "size"]
        if size is None:
            if all(is_number(p) for p in params):
                return scalar_unknown(ctx, f"numpy.random.{name} value", kind)
            return ctx.unknown(f"numpy.random.{name} with array parameters")
        s = sizes_arg((size,), held=ctx)
        return Tensor(None if s is None else tuple(s), "int64" if kind == "int" else "float64", "numpy")

    return run


for _name, (_at, _kind) in DISTRIBUTIONS.items():
    register(f"numpy.random.{_name}", Builtin(f"numpy.random.{_name}", _distribution(_name, _at, _kind)))


@model("numpy.clip", "numpy.ndarray.clip")
def clip(ctx: Ctx, a: Any, a_min: Any = None, a_max: Any = None, *args: Any, **kwargs: Any) -> Any:
    """`clip(a, a_min, a_max)` (also `min=`/`max=`): `a` and the bounds broadcast together, as in any
    element-wise numpy function; a float bound makes an int array float64. Numbers clip to a number
    of unknown value."""
    bounds = [b for b in (a_min, a_max, kwargs.get("min"), kwargs.get("max")) if b is not None]
    if not isinstance(a, Tensor):
        if is_number(a) and all(is_number(b) for b in bounds):
            kind = "float" if any(number_kind(v) == "float" for v in [a, *bounds]) else "int"
            return scalar_unknown(ctx, "numpy.clip of numbers", kind)
        a = _as_array(ctx, a)
        if not isinstance(a, Tensor):
            return ctx.unknown("numpy.clip of a value not understood")
    out = Tensor(a.shape, a.dtype, "numpy")
    for b in bounds:
        arr = _as_array(ctx, b)
        if not isinstance(arr, Tensor):
            return ctx.unknown("numpy.clip with a bound not understood")
        if out.shape is None or arr.shape is None:
            out = Tensor(None, out.dtype, "numpy")
            continue
        shape = broadcast_shapes(ctx, out.shape, arr.shape, "numpy.clip", ("a", "bound"))
        dtype = out.dtype if arr.rank == 0 and number_kind(b) == "int" else (
            "float64" if out.dtype not in _FLOAT_DTYPES and arr.dtype in _FLOAT_DTYPES else out.dtype)
        out = Tensor(shape, dtype, "numpy")
    return out
