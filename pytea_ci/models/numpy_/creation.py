"""numpy array creation: `array asarray zeros ones empty full arange linspace`, `numpy.random.*`,
the dtype constants, and calls with no shape effect (`random.seed`)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.numpy_.known import items_of, known_array
from pytea_ci.models.pil import array_of_image
from pytea_ci.models.prim import sizes_arg
from pytea_ci.models.ranges import array_values, randint_values
from pytea_ci.models.registry import model, register
from pytea_ci.models.torch.creation import grids, infer_sized
from pytea_ci.models.torch.creation import arange as torch_arange
from pytea_ci.models.values import Builtin, DType
from pytea_ci.models.random_ import _READ, NUMPY, seed_generator
from pytea_ci.shapes.dim import ASSUMED_SIZE, INPUT, Term, is_dim, prod
from pytea_ci.shapes.tensor import INT_DTYPES, Tensor
from pytea_ci.diagnostics.rules import DTYPE_MISMATCH, INVALID_ARGUMENT

for _name, _canon in (("float32", "float32"), ("float64", "float64"), ("float16", "float16"), ("int64", "int64"),
                      ("int32", "int32"), ("int16", "int16"), ("int8", "int8"), ("uint8", "uint8"),
                      ("bool_", "bool"), ("float_", "float64"), ("int_", "int64"), ("double", "float64")):
    register(f"numpy.{_name}", DType(_canon, "numpy"))


def array_of(shape: Any, dtype: str | None) -> Tensor:
    return Tensor(None if shape is None else tuple(shape), dtype, "numpy")


def torch_dtype_rejected(ctx: Ctx, what: str, d: Any) -> None:
    """numpy takes no torch dtype: `np.asarray(x, dtype=torch.float32)` raises numpy's TypeError."""
    if isinstance(d, DType) and d.lib == "torch":
        ctx.require(False, what, f"TypeError: Cannot interpret 'torch.{d.name}' as a data type", DTYPE_MISMATCH)


def _dtype(ctx: Ctx, kwargs: dict[str, Any], default: str | None) -> str | None:
    d = kwargs.get("dtype")
    torch_dtype_rejected(ctx, "numpy array creation", d)
    if d is None:
        return default
    if isinstance(d, DType):
        return d.name
    if isinstance(d, Builtin):  # the builtins float/int/bool
        return {"builtins.float": "float64", "builtins.int": "int64", "builtins.bool": "bool"}.get(d.name)
    if isinstance(d, str) and d in ("float32", "float64", "int64", "int32", "uint8", "bool", "float16"):
        return d
    return None  # object, structured or otherwise unknown dtypes


@model("numpy.array", "numpy.asarray", "numpy.ascontiguousarray", "numpy.asfarray", "numpy.copy", values=array_values)
def array(ctx: Ctx, data: Any, dtype: Any = None, *args: Any, **kwargs: Any) -> Any:
    out = _array(ctx, data, dtype, kwargs)
    ndmin = kwargs.get("ndmin", 0)
    if isinstance(out, Tensor) and out.shape is not None and isinstance(ndmin, int) and len(out.shape) < ndmin:
        return array_of((1,) * (ndmin - len(out.shape)) + tuple(out.shape), out.dtype)
    return out


def _array(ctx: Ctx, data: Any, dtype: Any, kwargs: dict[str, Any]) -> Any:
    if dtype is not None:
        kwargs["dtype"] = dtype
    if isinstance(data, Tensor):
        return array_of(data.shape, _dtype(ctx, kwargs, data.dtype))
    sizes = _sized_items(ctx, data)
    if sizes is not None and _dtype(ctx, kwargs, "int64") in INT_DTYPES:
        return known_array(sizes)  # the items stay known, symbols too (models/numpy_/known.py)
    image = array_of_image(data)
    if image is not None:
        return array_of(image[0], _dtype(ctx, kwargs, image[1]))
    shape, dt = infer_sized(ctx, data)
    if shape is None:
        return array_of(None, _dtype(ctx, kwargs, None))
    return array_of(shape, _dtype(ctx, kwargs, "float64" if dt == "float32" and _python_floats(data) else dt))


def _python_floats(data: Any) -> bool:
    """Whether a float dtype `infer_data` gives (float32: torch's for Python floats) comes from Python floats,
    which NumPy makes float64, rather than from arrays of their own dtype (a list of `float32` bags of words
    stays float32)."""
    if isinstance(data, Tensor):
        return False
    if isinstance(data, (list, tuple)):
        return any(_python_floats(x) for x in data)
    return True


def _sized_items(ctx: Ctx, data: Any) -> list[Any] | None:
    """The items of a known array, or of a short flat list or tuple of sizes one of which is a symbol (a
    module's `in_shape` in library mode); None otherwise (literal numbers keep theirs in the ndarray:
    models/contents.py)."""
    items = items_of(data)
    if items is None and isinstance(data, (list, tuple)) and ctx.known_length(data) == len(data) \
            and any(isinstance(v, Term) for v in data):
        items = tuple(data)
    if items is None or not 0 < len(items) <= 64 or not all(is_dim(v) and not isinstance(v, bool) for v in items):
        return None
    return list(items)


@model("numpy.loadtxt", "numpy.genfromtxt")
def loadtxt(ctx: Ctx, fname: Any, dtype: Any = None, *args: Any, **kwargs: Any) -> Any:
    """A table read at run time: one row per record, how many is an input of the run (as a listing's
    count); how many columns is the file's, which the program assumes without saying (a size of unknown
    kind: a layer sized for 8 features is not checked against it). `usecols` of an int gives one column
    (a vector), of a sequence that many; `unpack=True` transposes; the dtype is `dtype=`'s, else float64."""
    what = f"{_READ}{'numpy.loadtxt(' + repr(fname) + ')' if isinstance(fname, str) else 'numpy.loadtxt'}"
    rows = ctx.fresh("rows", kind=INPUT, lo=1, note=f"number of rows {what} {ASSUMED_SIZE}")
    cols = kwargs.get("usecols")
    if isinstance(cols, int) and not isinstance(cols, bool):
        shape: tuple[Any, ...] = (rows,)
    else:
        n = len(cols) if isinstance(cols, (tuple, list)) else ctx.fresh("columns", note=f"number of columns {what}")
        shape = (n, rows) if kwargs.get("unpack") is True else (rows, n)
    if dtype is not None:
        kwargs["dtype"] = dtype
    return array_of(shape, _dtype(ctx, kwargs, "float64"))


def _make(ctx: Ctx, shape: Any, kwargs: dict[str, Any], default: str = "float64") -> Any:
    s = sizes_arg((shape,), held=ctx) if shape is not None else None
    for d in s or []:
        if isinstance(d, int):
            ctx.require(d >= 0, "numpy array creation", "negative dimensions are not allowed", INVALID_ARGUMENT)
    return array_of(s, _dtype(ctx, kwargs, default))


@model("numpy.zeros", "numpy.ones", "numpy.empty")
def zeros(ctx: Ctx, shape: Any, dtype: Any = None, **kwargs: Any) -> Any:
    if dtype is not None:
        kwargs["dtype"] = dtype
    return _make(ctx, shape, kwargs)


@model("numpy.full")
def full(ctx: Ctx, shape: Any, fill_value: Any, dtype: Any = None, **kwargs: Any) -> Any:
    if dtype is not None:
        kwargs["dtype"] = dtype
    return _make(ctx, shape, kwargs, "int64" if isinstance(fill_value, int) else "float64")


@model("numpy.eye", "numpy.identity")
def eye(ctx: Ctx, n: Any, m: Any = None, k: Any = 0, dtype: Any = None, **kwargs: Any) -> Any:
    """`np.eye(n)[ids]`: the one-hot rows of NLP tutorials (an n x m float64 array; `identity` takes n alone)."""
    if dtype is not None:
        kwargs["dtype"] = dtype
    return _make(ctx, (n, n if m is None else m), kwargs)


@model("numpy.zeros_like", "numpy.ones_like", "numpy.empty_like", "numpy.full_like")
def zeros_like(ctx: Ctx, a: Any, *args: Any, **kwargs: Any) -> Any:
    return array_of(a.shape, _dtype(ctx, kwargs, a.dtype)) if isinstance(a, Tensor) else ctx.unknown("np.*_like")


@model("numpy.arange")
def arange(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    t = torch_arange(ctx, *args)
    return array_of(t.shape, _dtype(ctx, kwargs, "float64" if t.dtype == "float32" else t.dtype))


@model("numpy.linspace")
def linspace(ctx: Ctx, start: Any, stop: Any, num: Any = 50, **kwargs: Any) -> Any:
    return array_of((num,) if is_dim(num) else (ctx.fresh("num"),), _dtype(ctx, kwargs, "float64"))


@model("numpy.meshgrid")
def meshgrid(ctx: Ctx, *xi: Any, indexing: Any = "xy", sparse: Any = False, copy: Any = True) -> Any:
    """numpy.meshgrid: each input flattened (`reshape(-1)`), grids of their sizes ("xy" by default)."""
    items = [x if isinstance(x, Tensor) else None for x in xi]
    if indexing not in ("xy", "ij") or not isinstance(sparse, bool) \
            or not all(t is not None and t.shape is not None for t in items):
        return ctx.unknown("numpy.meshgrid of arrays not known")
    sizes = [prod(t.shape) for t in items]  # type: ignore[union-attr]
    return grids([array_of(t.shape, t.dtype) for t in items], sizes, indexing, sparse)  # type: ignore[union-attr]


@model("numpy.random.rand", "numpy.random.randn")
def rand(ctx: Ctx, *dims: Any) -> Any:
    return _make(ctx, dims, {})


@model("numpy.random.random", "numpy.random.random_sample")
def random(ctx: Ctx, size: Any = None) -> Any:
    return ctx.unknown("numpy random value") if size is None else _make(ctx, size, {})


@model("numpy.random.normal", "numpy.random.uniform")
def normal(ctx: Ctx, a: Any = 0.0, b: Any = 1.0, size: Any = None) -> Any:
    return ctx.unknown("numpy random value") if size is None else _make(ctx, size, {})


@model("numpy.random.randint", values=randint_values)
def randint(ctx: Ctx, low: Any, high: Any = None, size: Any = None, **kwargs: Any) -> Any:
    if size is None:
        from pytea_ci.models.random_ import drawn_int

        low, high = (0, low) if high is None else (low, high)
        last = high - 1 if is_dim(high) else None  # a bound not understood: an int drawn, its range not known
        return drawn_int(ctx, low, last, f"numpy.random.randint({low!r}, {high!r})", generator=NUMPY)
    return _make(ctx, size, kwargs, "int64")


@model("numpy.random.seed")
def seed(ctx: Ctx, seed: Any = None) -> Any:
    seed_generator(ctx, NUMPY, seed)
    return None


@model("numpy.random.shuffle", "numpy.set_printoptions", "numpy.savez")
def no_effect(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return None
