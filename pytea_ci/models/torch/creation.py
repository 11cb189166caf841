"""Tensor creation (`randn zeros tensor arange ...`), joining (`cat stack`) and torch-level odds
and ends with no shape effect (`manual_seed`, `device`, `no_grad`; saving and loading: models/saved.py)."""

from __future__ import annotations

import dataclasses
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import (AUTOCAST, CREATES, CREATES_LIKE_DATA, CREATES_ON_CUDA, DEFAULT_DEVICE_SET, DEFAULT_DTYPE_SET,
                                         require_castable, require_floating)
from pytea_ci.models.prim import as_int, as_value_size, fmt, known, norm_dim, shape_of, sizes_arg
from pytea_ci.models.random_ import TORCH, seed_generator
from pytea_ci.models.ranges import (arange_values, constant_values, full_values, joined_values, legacy_values, literal_values,
                                    randint_values, randperm_values)
from pytea_ci.models.registry import ALWAYS, BY_ARGUMENTS, CONTIGUOUS, facets, model, native_class, register
from pytea_ci.models.values import Builtin, DType, Instance, SizeVal, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Term, ceildiv, is_dim
from pytea_ci.shapes.tensor import Tensor, promote
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT

for _name in ("float32", "float", "float64", "double", "float16", "half", "bfloat16", "int64", "long", "int32",
              "int", "int16", "short", "int8", "uint8", "bool", "complex64", "complex128", "cfloat", "cdouble",
              "complex32", "chalf"):
    _canon = {"float": "float32", "double": "float64", "half": "float16", "long": "int64", "int": "int32",
              "short": "int16", "cfloat": "complex64", "cdouble": "complex128", "chalf": "complex32"}.get(_name, _name)
    register(f"torch.{_name}", DType(_canon, "torch"))


def _dtype(kwargs: dict[str, Any], default: str | None) -> str | None:
    d = kwargs.get("dtype")
    return d.name if isinstance(d, DType) else default


def _make(ctx: Ctx, sizes: tuple[Any, ...], kwargs: dict[str, Any], default: str | None = "float32") -> Any:
    if "size" in kwargs:
        sizes = (kwargs["size"],)
    s = sizes_arg(sizes, ctx)
    if s is None:
        return Tensor(None, _dtype(kwargs, default))
    for d in s:
        if isinstance(d, int):
            ctx.require(d >= 0, "tensor creation", f"negative dimension {d}", INVALID_ARGUMENT)
    return Tensor(tuple(s), _dtype(kwargs, default))


@model("torch.randn", "torch.empty", layout=CONTIGUOUS, device=CREATES)
def randn(ctx: Ctx, *size: Any, **kwargs: Any) -> Any:
    return _make(ctx, size, kwargs)


@model("torch.rand", layout=CONTIGUOUS, device=CREATES)
def rand(ctx: Ctx, *size: Any, **kwargs: Any) -> Any:
    """As `randn`; a model of its own, whose name says its draws lie in [0, 1) (models/contents.py)."""
    return _make(ctx, size, kwargs)


@model("torch.zeros", layout=CONTIGUOUS, device=CREATES, values=constant_values(0, "torch.zeros"))
def zeros(ctx: Ctx, *size: Any, **kwargs: Any) -> Any:
    return _make(ctx, size, kwargs)


@model("torch.ones", layout=CONTIGUOUS, device=CREATES, values=constant_values(1, "torch.ones"))
def ones(ctx: Ctx, *size: Any, **kwargs: Any) -> Any:
    return _make(ctx, size, kwargs)


def _legacy(ctx: Ctx, size: tuple[Any, ...], kwargs: dict[str, Any], dtype: str) -> Any:
    """`torch.FloatTensor(2, 3)` or `(torch.Size)`: sizes; `torch.FloatTensor([1, 2])`, a tuple or an
    ndarray: data (a torch tensor is taken as it is, converted to the constructor's dtype)."""
    if len(size) == 1 and isinstance(size[0], (list, tuple)) and not isinstance(size[0], SizeVal):
        return tensor(ctx, size[0] if isinstance(size[0], list) else list(size[0]), dtype=DType(dtype))
    if len(size) == 1 and isinstance(size[0], Tensor):
        return Tensor(size[0].shape, dtype)
    if not size and "size" not in kwargs:
        return Tensor((0,), dtype)  # `torch.Tensor()`: an empty vector
    if any(isinstance(s, Unknown) and s.pytype != "int" for s in size):
        return ctx.unknown("legacy constructor of a value not understood")
    return _make(ctx, size, kwargs, dtype)


@model("torch.Tensor.__new__", layout=CONTIGUOUS, device=CREATES_LIKE_DATA)
def legacy_tensor(ctx: Ctx, *size: Any, **kwargs: Any) -> Any:
    """`torch.Tensor(3, 4)` (uninitialized float32 of that size), `torch.Tensor([1, 2])` (data),
    `torch.Tensor(t)` (a torch tensor as it is)."""
    if len(size) == 1 and isinstance(size[0], Tensor) and size[0].lib == "torch":
        return size[0]
    return _legacy(ctx, size, kwargs, "float32")


# each legacy type its own model, the CUDA ones apart: one model under both names had the CPU type's name, so
# `x.type(torch.cuda.FloatTensor)` (PyTorch-GAN's `Tensor = torch.cuda.FloatTensor if cuda else ...`) stayed on
# the CPU and `torch.cuda.FloatTensor(n, 1)` was made there (false device mismatches with a `.cuda()` model)
@model("torch.FloatTensor", layout=CONTIGUOUS, device=CREATES)
def float_tensor(ctx: Ctx, *size: Any, **kwargs: Any) -> Any:
    return _legacy(ctx, size, kwargs, "float32")


@model("torch.LongTensor", layout=CONTIGUOUS, device=CREATES, values=legacy_values)
def long_tensor(ctx: Ctx, *size: Any, **kwargs: Any) -> Any:
    return _legacy(ctx, size, kwargs, "int64")


model("torch.cuda.FloatTensor", layout=CONTIGUOUS, device=CREATES_ON_CUDA)(float_tensor)
model("torch.cuda.LongTensor", layout=CONTIGUOUS, device=CREATES_ON_CUDA, values=legacy_values)(long_tensor)


def _legacy_model(dtype: str) -> Any:
    def run(ctx: Ctx, *size: Any, **kwargs: Any) -> Any:
        return _legacy(ctx, size, kwargs, dtype)

    return run


for _kind, _dt in (("Double", "float64"), ("Half", "float16"), ("BFloat16", "bfloat16"), ("Int", "int32"),
                   ("Short", "int16"), ("Char", "int8"), ("Byte", "uint8"), ("Bool", "bool")):
    model(f"torch.{_kind}Tensor", device=CREATES, values=legacy_values)(_legacy_model(_dt))
    model(f"torch.cuda.{_kind}Tensor", device=CREATES_ON_CUDA, values=legacy_values)(_legacy_model(_dt))


@model("torch.full", layout=CONTIGUOUS, device=CREATES, values=full_values)
def full(ctx: Ctx, size: Any, fill_value: Any, **kwargs: Any) -> Any:
    """The dtype follows the fill value: bool, int64 for an integer (symbolic too), float32 for a
    float, not known for a value not understood (`random.randrange(n)` fills with integers)."""
    if isinstance(fill_value, bool):
        default: str | None = "bool"
    elif isinstance(fill_value, float):
        default = "float32"
    else:
        default = "int64" if is_dim(fill_value) else None
    return _make(ctx, (size,), kwargs, default)


@model("torch.randint", layout=CONTIGUOUS, device=CREATES, values=randint_values)
def randint(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    size = kwargs.get("size", args[-1] if args else None)
    bounds = [a for a in args[:-1] if not isinstance(a, (tuple, list))] if "size" not in kwargs else list(args)
    low, high = (0, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1]) if len(bounds) >= 2 else (None, None)
    low, high = kwargs.get("low", low), kwargs.get("high", high)
    if is_dim(low) and is_dim(high) and not isinstance(low, bool) and not isinstance(high, bool):
        ctx.require(P.lt(low, high), "randint", f"random_ expects 'from' to be less than 'to', but got from={low!r} "
                    f">= to={high!r}", INVALID_ARGUMENT, dims=(("from", low), ("to", high)))
    return _make(ctx, (size,), kwargs, "int64")


@model("torch.zeros_like", "torch.ones_like", "torch.empty_like", "torch.rand_like", "torch.randn_like",
       "torch.full_like", "torch.randint_like")
def zeros_like(ctx: Ctx, input: Any, *args: Any, **kwargs: Any) -> Any:
    if not isinstance(input, Tensor):
        return ctx.unknown("*_like of a non-tensor")
    return input.with_shape(input.shape, _dtype(kwargs, input.dtype))


@model("torch.tensor", "torch.as_tensor", "torch.from_numpy", device=CREATES_LIKE_DATA, values=literal_values)
def tensor(ctx: Ctx, data: Any, *args: Any, **kwargs: Any) -> Any:
    if isinstance(data, Tensor):
        return Tensor(data.shape, _dtype(kwargs, data.dtype))
    shape, dtype = infer_sized(ctx, data)
    if shape is None:
        return Tensor(None, _dtype(kwargs, None))
    return Tensor(shape, _dtype(kwargs, dtype))


def infer_sized(ctx: Ctx, data: Any) -> tuple[tuple[Any, ...] | None, str | None]:
    """`infer_data`, and of a list or tuple holding representatives of items of a length not known (built in
    a loop not followed to the end, the `zip(*batch)` of a batch): that length first, then the first item's
    shape."""
    shape, dtype = infer_data(ctx, data)
    if shape is None and isinstance(data, (list, tuple)) and data and ctx.known_length(data) is None:
        inner, dtype = infer_data(ctx, data[0])
        shape = None if inner is None else (ctx.length_of(data),) + inner
    return shape, dtype


def infer_data(ctx: Ctx, data: Any) -> tuple[tuple[Any, ...] | None, str | None]:
    """Shape and dtype of nested sequences of numbers (or tensors). A list whose items are only
    representatives (a comprehension over a long range) counts with its known length, when the
    representatives agree; a list of unknown length gives no shape."""
    if isinstance(data, Unknown) and data.pytype in ("int", "float", "bool"):
        return (), {"int": "int64", "float": "float32", "bool": "bool"}[data.pytype]
    if isinstance(data, bool):
        return (), "bool"
    if isinstance(data, int) or isinstance(data, Term):
        return (), "int64"
    if isinstance(data, float):
        return (), "float32"
    if isinstance(data, Tensor):
        return data.shape, data.dtype
    if isinstance(data, Instance):  # a known array (`np.array([len(tokens)])`): the 1-D ndarray it stands for
        from pytea_ci.models.numpy_.known import as_ndarray

        arr = as_ndarray(data)
        return (arr.shape, arr.dtype) if isinstance(arr, Tensor) else (None, None)
    if isinstance(data, (list, tuple)):
        n = ctx.known_length(data)
        if n is None:
            return None, None
        if not data:
            return ((0,), "float32") if n == 0 else (None, None)
        inner = [infer_data(ctx, x) for x in data]
        shapes = {s for s, _ in inner}
        if len(shapes) != 1 or None in shapes:
            return None, None
        dtypes = [d for _, d in inner]
        dt = "float32" if "float32" in dtypes else dtypes[0]
        return (n,) + next(iter(shapes)), dt  # type: ignore[operator]
    return None, None


@model("torch.arange", layout=CONTIGUOUS, device=CREATES, values=arange_values)
def arange(ctx: Ctx, start: Any = None, end: Any = None, step: Any = 1, **kwargs: Any) -> Any:
    if start is None and end is None:
        raise TypeError("arange() missing required argument 'end'")
    if end is None:
        start, end = 0, start
    elif start is None:  # `torch.arange(end=n)`: from 0, as torch's keyword form
        start = 0
    start, end = as_value_size(ctx, start), as_value_size(ctx, end)
    is_float = any(isinstance(v, float) for v in (start, end, step))
    if all(isinstance(v, (int, float)) for v in (start, end, step)) and step:
        import math

        n = max(0, math.ceil((end - start) / step))
        return Tensor((n,), _dtype(kwargs, "float32" if is_float else "int64"))
    if is_dim(start) and is_dim(end) and step == 1:
        return Tensor((end - start,), _dtype(kwargs, "int64"))
    if is_dim(start) and is_dim(end) and isinstance(step, int) and step > 0:
        return Tensor((ceildiv(end - start, step),), _dtype(kwargs, "int64"))
    return Tensor((ctx.fresh("arange"),), _dtype(kwargs, "float32" if is_float else "int64"))


@model("torch.randperm", layout=CONTIGUOUS, device=CREATES, values=randperm_values)
def randperm(ctx: Ctx, n: Any, **kwargs: Any) -> Any:
    return Tensor((n,) if is_dim(n) else (ctx.fresh("n"),), _dtype(kwargs, "int64"))


@model("torch.linspace", "torch.logspace", layout=CONTIGUOUS, device=CREATES)
def linspace(ctx: Ctx, start: Any, end: Any, steps: Any, **kwargs: Any) -> Any:
    return Tensor((steps,) if is_dim(steps) else (ctx.fresh("steps"),), _dtype(kwargs, "float32"))


@model("torch.eye", layout=CONTIGUOUS, device=CREATES)
def eye(ctx: Ctx, n: Any, m: Any = None, **kwargs: Any) -> Any:
    return Tensor((n, n if m is None else m), _dtype(kwargs, "float32"))


def _seq(ctx: Ctx, tensors: Any) -> list[Any] | None:
    items = ctx.iterate(tensors)
    if items is None or not all(known(t) for t in items):
        return None
    return items


def _some(ctx: Ctx, tensors: Any) -> list[Any] | None:
    """Some of the tensors of a list whose length is not known (one built in a loop that was not
    followed to the end): the ones it holds are real items, so they are checked against each other."""
    if not isinstance(tensors, (list, tuple)) or ctx.iterate(tensors) is not None:
        return None
    items, _ = ctx.loop_items(tensors)
    return items if items and all(known(t) for t in items) else None


def _length_unknown(ctx: Ctx, out: Any, d: int) -> Any:
    """`out` with its size along `d` unknown (the joined list's length is not known)."""
    if not known(out):
        return out
    s = shape_of(out)
    return out.with_shape(s[:d] + (ctx.fresh("joined"),) + s[d + 1:])


@model("torch.cat", "torch.concat", "torch.concatenate", layout=CONTIGUOUS, values=joined_values)
def cat(ctx: Ctx, tensors: Any, dim: Any = 0, axis: Any = None, out: Any = None) -> Any:
    dim = axis if axis is not None else dim
    items = _seq(ctx, tensors)
    if items is None:
        some = _some(ctx, tensors)
        if some is None:
            return ctx.unknown("cat of unknown tensors")
        out = cat(ctx, some, dim)
        at = norm_dim(ctx, dim, len(shape_of(out)), "cat") or 0 if known(out) else 0
        n, sizes = ctx.known_length(tensors), {shape_of(t)[at] for t in some if len(shape_of(t)) > at}
        if n is None or len(sizes) != 1 or not known(out):
            return _length_unknown(ctx, out, at)
        return out.with_shape(shape_of(out)[:at] + (n * sizes.pop(),) + shape_of(out)[at + 1:])  # n equal parts
    ctx.require(len(items) > 0, "cat", "expected a non-empty list of tensors", INVALID_ARGUMENT)
    kept = [t for t in items if not (len(shape_of(t)) == 1 and shape_of(t)[0] == 0)]
    if not kept:  # torch skips 1-D empty tensors (legacy), whatever `dim`: only those is one of them
        return into_out(ctx, "cat", items[0].with_shape((0,), joined_dtype(items)), out)
    items = kept
    first = shape_of(items[0])
    ctx.require(all(len(shape_of(t)) > 0 for t in items), "cat", "zero-dimensional tensor cannot be concatenated",
                operands=tuple(f"tensor {k}: {fmt(shape_of(t))}" for k, t in enumerate(items)))
    d = norm_dim(ctx, dim, len(first), "cat")
    if d is None:
        return Tensor(None, items[0].dtype)
    total = first[d]
    for k, t in enumerate(items[1:], 1):
        s = shape_of(t)
        ctx.require(len(s) == len(first), "cat", f"tensors must have same number of dimensions: got {len(first)} "
                    f"and {len(s)} ({fmt(first)} and {fmt(s)})", operands=(f"tensor 0: {fmt(first)}", f"tensor {k}: {fmt(s)}"))
        for i, (a, b) in enumerate(zip(first, s)):
            if i != d:
                ctx.require(P.eq(a, b), "cat", f"sizes of tensors must match except in dimension {d}: expected size "
                            f"{a!r} but got size {b!r} for tensor number {k} in the list ({fmt(first)} and {fmt(s)})",
                            operands=(f"tensor 0: {fmt(first)}", f"tensor {k}: {fmt(s)}"),
                            dims=(("tensor 0", a), (f"tensor {k}", b)))
        total = total + s[d]
    return into_out(ctx, "cat", items[0].with_shape(first[:d] + (total,) + first[d + 1:], joined_dtype(items)), out)


@model("torch.stack", layout=CONTIGUOUS, values=joined_values)
def stack(ctx: Ctx, tensors: Any, dim: Any = 0, out: Any = None) -> Any:
    items = _seq(ctx, tensors)
    if items is None:
        some = _some(ctx, tensors)
        if some is None:
            return ctx.unknown("stack of unknown tensors")
        out = stack(ctx, some, dim)
        at = norm_dim(ctx, dim, len(shape_of(out)), "stack") or 0
        n = ctx.known_length(tensors)  # a comprehension over a long range: one item per iteration
        return _length_unknown(ctx, out, at) if n is None or not known(out) else \
            out.with_shape(shape_of(out)[:at] + (n,) + shape_of(out)[at + 1:])
    ctx.require(len(items) > 0, "stack", "expects a non-empty list of tensors", INVALID_ARGUMENT)
    first = shape_of(items[0])
    for k, t in enumerate(items[1:], 1):
        s = shape_of(t)
        same = len(s) == len(first) and P.and_(*[P.eq(a, b) for a, b in zip(first, s)])
        ctx.require(same, "stack", f"stack expects each tensor to be equal size, but got {fmt(first)} at entry 0 "
                    f"and {fmt(s)} at entry {k}", operands=(f"entry 0: {fmt(first)}", f"entry {k}: {fmt(s)}"))
    d = norm_dim(ctx, dim, len(first) + 1, "stack")
    if d is None:
        return Tensor(None, items[0].dtype)
    return into_out(ctx, "stack", items[0].with_shape(first[:d] + (len(items),) + first[d:], joined_dtype(items)), out)


def into_out(ctx: Ctx, op: str, result: Tensor, out: Any) -> Tensor:
    """The result written into `out=` when given: the promoted dtype must be castable to the out
    tensor's (no float into an integer tensor); what is returned has the out tensor's dtype."""
    if not isinstance(out, Tensor) or out.lib != "torch":
        return result
    require_castable(ctx, op, out, result.dtype, "out",
                     "torch.cat(): input types can't be cast to the desired output type {want} (the inputs "
                     "promote to {got})")
    return dataclasses.replace(result.with_shape(result.shape, out.dtype), dtype_from=out.dtype_from)


def joined_dtype(items: list[Any]) -> str | None:
    """The dtype of `cat`/`stack`: the items' dtypes promoted together."""
    out = items[0].dtype
    for t in items[1:]:
        out = promote(out, t.dtype)
    return out


@model("torch.manual_seed")
def manual_seed(ctx: Ctx, seed: Any = None) -> Any:
    """Seeds the default generator: with a constant, its draws are fixed values (models/random_.py)."""
    seed_generator(ctx, TORCH, seed)
    return None


@model("torch.seed")
def reseed(ctx: Ctx) -> Any:
    """Seeds the default generator from the machine: its draws may take any value again."""
    seed_generator(ctx, TORCH, None)
    return ctx.fresh("seed")


@model("torch.cuda.manual_seed", "torch.cuda.manual_seed_all", "torch.set_num_threads",
       "torch.set_printoptions", "torch.use_deterministic_algorithms",
       "torch.cuda.empty_cache", "torch.autograd.set_detect_anomaly", "torch.backends.cudnn.deterministic")
def no_effect(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return None


@model("torch.set_default_dtype")
def set_default_dtype(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    d = args[0] if args else kwargs.get("d")
    if not (isinstance(d, DType) and d.name == "float32" and not ctx.facts.get(DEFAULT_DTYPE_SET)):
        ctx.facts[DEFAULT_DTYPE_SET] = True  # floating creations may be float64 (or half) from here on
    return None  # (float32 again, as torch starts: nothing changes)


@model("torch.set_default_device", places=ALWAYS)
def set_default_device(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    ctx.facts[DEFAULT_DEVICE_SET] = True
    return None


@model("torch.get_default_device")
def get_default_device(ctx: Ctx) -> Any:
    """The CPU, until the program sets another default device (then not known)."""
    return CPU if not ctx.facts.get(DEFAULT_DEVICE_SET) else ctx.unknown("torch.get_default_device result")


@model("torch.set_default_tensor_type")
def set_default_tensor_type(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    ctx.facts[DEFAULT_DTYPE_SET] = ctx.facts[DEFAULT_DEVICE_SET] = True
    return None


@model("torch.get_default_dtype")
def get_default_dtype(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    """torch.float32, torch's default, until the program sets another default (then not known):
    transformers 4's `PreTrainedModel.__init__` hands it on as the model's dtype."""
    return DType("float32", "torch") if not ctx.facts.get(DEFAULT_DTYPE_SET) else ctx.unknown("torch.get_default_dtype result")


@native_class("torch.device")
class device:
    """A device: where tensors live has no effect on their shapes."""

    @facets(places=BY_ARGUMENTS)
    def init(ctx: Ctx, self: Instance, type: Any = "cpu", index: Any = None) -> None:
        if isinstance(type, str) and ":" in type and index is None:  # "cuda:1": type "cuda", index 1
            kind, _, number = type.partition(":")
            type, index = (kind, int(number)) if number.isdigit() else (type, index)
        self.attrs.update(type=type, index=index)

    def __eq__(ctx: Ctx, self: Instance, other: Any) -> Any:  # type: ignore[override]  # noqa: N805
        """Two devices are equal when their type and index are (`torch.device("cuda")` is not
        `cuda:0`); None (NotImplemented) against anything else, which is then unequal."""
        if not (isinstance(other, Instance) and other.cls is self.cls):
            return None
        parts = [(self.attrs.get(k), other.attrs.get(k)) for k in ("type", "index")]
        if all(isinstance(a, (str, int, type(None))) and isinstance(b, (str, int, type(None))) for a, b in parts):
            return all(a == b for a, b in parts)
        return ctx.unknown("comparison of devices not known")

    def __enter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        ctx.facts[DEFAULT_DEVICE_SET] = True  # `with torch.device("cuda"):` (kept after the block: not followed)
        return self

    def __exit__(ctx: Ctx, self: Instance, *args: Any) -> Any:  # noqa: N805
        return False


CPU = Instance(device, {"type": "cpu", "index": None})


@native_class("torch.autocast", "torch.cuda.amp.autocast", "torch.amp.autocast", "torch.cpu.amp.autocast",
              identity_eq=True)
class autocast:
    """Mixed precision: inside, floating dtypes are the autocast's choice (dtype/device rules skip them).
    `enabled=False` turns autocast off inside, which leaves the dtypes exact: it adds no uncertainty
    (one nested in an enabled autocast is not followed: the outer stays in force, which is safe)."""

    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        self.attrs["on"] = kwargs.get("enabled", True) is not False

    def __enter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        if self.attrs.get("on", True):
            ctx.facts[AUTOCAST] = ctx.facts.get(AUTOCAST, 0) + 1
        return None

    def __exit__(ctx: Ctx, self: Instance, *args: Any) -> Any:  # noqa: N805
        if self.attrs.get("on", True):
            ctx.facts[AUTOCAST] = max(0, ctx.facts.get(AUTOCAST, 1) - 1)
        return False

    def call(ctx: Ctx, self: Instance, fn: Any) -> Any:
        """A decorator: the function runs under the autocast when called, and only then."""
        if not self.attrs.get("on", True):
            return fn

        def run(c: Ctx, *args: Any, **kwargs: Any) -> Any:
            c.facts[AUTOCAST] = c.facts.get(AUTOCAST, 0) + 1
            out = c.call(fn, *args, **kwargs)
            c.facts[AUTOCAST] = max(0, c.facts.get(AUTOCAST, 1) - 1)
            return out

        return Builtin("autocast-decorated function", run)  # not "torch.": not a tensor op


# the path's grad mode and inference mode, as torch keeps them: absent, as a process starts (gradients on,
# inference mode off); None where a mode not known was set (a `set_grad_enabled(flag)` of a flag not known)
_GRAD = "whether gradients are enabled"
_INFERENCE = "whether inference mode is on"
_DEFAULTS = {_GRAD: True, _INFERENCE: False}


def _modes(ctx: Ctx) -> tuple[Any, Any]:
    return ctx.facts.get(_GRAD, True), ctx.facts.get(_INFERENCE, False)


def _set_modes(ctx: Ctx, modes: tuple[Any, Any]) -> None:
    for key, mode in zip((_GRAD, _INFERENCE), modes):
        if mode is _DEFAULTS[key]:
            ctx.facts.pop(key, None)
        else:
            ctx.facts[key] = mode


def _flag(v: Any) -> bool | None:
    """A mode argument: a bool, or None when not known."""
    return v if isinstance(v, bool) else bool(v) if isinstance(v, int) else None


def _inside(ctx: Ctx, self: Instance) -> tuple[Any, Any]:
    """The modes inside a context of `self`'s kind, from the modes outside it."""
    grad, inference = _modes(ctx)
    kind, mode = self.attrs.get("kind"), self.attrs.get("mode")
    if kind == "no_grad":
        return False, inference
    if kind == "enable_grad":
        return True, inference
    if kind == "inference_mode":
        return (False, True) if mode is True else (None, None)  # inference_mode(False) inside one: not followed
    return mode, inference  # set_grad_enabled


def _enter(ctx: Ctx, self: Instance) -> None:
    self.attrs.setdefault("outside", []).append(_modes(ctx))
    _set_modes(ctx, _inside(ctx, self))


def _exit(ctx: Ctx, self: Instance) -> None:
    stack = self.attrs.get("outside") or [(None, None)]
    _set_modes(ctx, stack.pop())


def _decorate(ctx: Ctx, self: Instance, fn: Any) -> Any:
    """A grad-mode object as a decorator: the function runs in the object's mode when called, and only
    then; the mode it found is back after it (torch's `_DecoratorContextManager`)."""
    def run(c: Ctx, *args: Any, **kwargs: Any) -> Any:
        outside = _modes(c)
        _set_modes(c, _inside(c, self))
        try:
            return c.call(fn, *args, **kwargs)
        finally:
            _set_modes(c, outside)

    return Builtin("grad-mode-decorated function", run)  # not "torch.": not a tensor op


def _grad_context(kind: str, *names: str) -> Any:
    """The native class of one kind of grad-mode context (`no_grad`, `enable_grad`, `inference_mode`)."""
    @native_class(*names, identity_eq=True)
    class context:
        def init(ctx: Ctx, self: Instance, mode: Any = True, *args: Any, **kwargs: Any) -> None:
            self.attrs["kind"] = kind
            self.attrs["mode"] = _flag(kwargs.get("mode", mode))
            return None

        def __enter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
            _enter(ctx, self)
            return None

        def __exit__(ctx: Ctx, self: Instance, *args: Any) -> Any:  # noqa: N805
            _exit(ctx, self)
            return False

        def call(ctx: Ctx, self: Instance, fn: Any) -> Any:
            return _decorate(ctx, self, fn)

    return context


no_grad = _grad_context("no_grad", "torch.no_grad", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad")
enable_grad = _grad_context("enable_grad", "torch.enable_grad", "torch.autograd.enable_grad",
                            "torch.autograd.grad_mode.enable_grad")
inference_mode = _grad_context("inference_mode", "torch.inference_mode", "torch.autograd.inference_mode",
                               "torch.autograd.grad_mode.inference_mode")


@native_class("torch.set_grad_enabled", "torch.autograd.set_grad_enabled", "torch.autograd.grad_mode.set_grad_enabled",
              identity_eq=True)
class set_grad_enabled:
    """Sets the mode when made (`torch.set_grad_enabled(False)` as a statement); as a context, the mode
    found when it was made is back at its exit; as a decorator, the mode is back at once and set while
    the function runs."""

    def init(ctx: Ctx, self: Instance, mode: Any = None, *args: Any, **kwargs: Any) -> None:
        self.attrs["kind"] = "set_grad_enabled"
        self.attrs["mode"] = _flag(kwargs.get("mode", mode))
        self.attrs["outside"] = [_modes(ctx)]
        _set_modes(ctx, (self.attrs["mode"], _modes(ctx)[1]))
        return None

    def __enter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return None

    def __exit__(ctx: Ctx, self: Instance, *args: Any) -> Any:  # noqa: N805
        _exit(ctx, self)
        return False

    def call(ctx: Ctx, self: Instance, fn: Any) -> Any:
        _exit(ctx, self)  # torch restores the mode it found when the decorator is applied
        return _decorate(ctx, self, fn)


@model("torch.is_grad_enabled")
def is_grad_enabled(ctx: Ctx) -> Any:
    """Program state: a process starts with gradients enabled; the grad-mode contexts, decorators and
    `set_grad_enabled` of the path change it as torch does (not known after a mode not known)."""
    grad = _modes(ctx)[0]
    return ctx.unknown("grad mode set to a value not known") if grad is None else grad


@model("torch.is_inference_mode_enabled")
def is_inference_mode_enabled(ctx: Ctx) -> Any:
    """A process starts outside inference mode; `inference_mode` contexts and decorators change it."""
    inference = _modes(ctx)[1]
    return ctx.unknown("inference mode set to a value not known") if inference is None else inference


@native_class("torch.Generator", identity_eq=True)
class Generator:
    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        return None

    def manual_seed(ctx: Ctx, self: Instance, seed: Any) -> Any:
        return self

    def seed(ctx: Ctx, self: Instance) -> Any:
        return ctx.unknown("seed")


@model("torch.Size")
def size_ctor(ctx: Ctx, sizes: Any = ()) -> Any:
    items = ctx.iterate(sizes)
    return SizeVal(items) if items is not None else ctx.unknown("torch.Size")


@model("torch.is_tensor")
def is_tensor(ctx: Ctx, obj: Any) -> Any:
    return isinstance(obj, Tensor)


_ = as_int


@model("torch.meshgrid")
def meshgrid(ctx: Ctx, *tensors: Any, indexing: Any = "ij") -> Any:
    items = list(tensors[0]) if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else list(tensors)
    if not all(known(t) and len(shape_of(t)) <= 1 for t in items):
        return ctx.unknown("meshgrid of unknown tensors")
    return grids(items, [shape_of(t)[0] if shape_of(t) else 1 for t in items], indexing, False)


def grids(items: list[Tensor], sizes: list[Any], indexing: Any, sparse: Any) -> tuple[Tensor, ...]:
    """The coordinate grids of `meshgrid` over 1-D inputs of `sizes`: with "xy" indexing the first two
    sizes trade places; sparse grids keep only their own input's axis."""
    order = list(range(len(sizes)))
    if indexing == "xy" and len(sizes) >= 2:
        order[0], order[1] = 1, 0
    full = tuple(sizes[k] for k in order)
    if sparse is True:
        return tuple(t.with_shape(tuple(s if k == i else 1 for k, s in zip(order, full))) for i, t in enumerate(items))
    return tuple(t.with_shape(full) for t in items)


@model("torch.multinomial", "torch.Tensor.multinomial")
def multinomial(ctx: Ctx, input: Any, num_samples: Any, replacement: Any = False, **kwargs: Any) -> Any:
    """Indices drawn from each row of probabilities: [*, C] -> [*, num_samples]; the probabilities are floating."""
    require_floating(ctx, "multinomial", input, "input",
                     "multinomial only supports floating-point dtypes for input, got: {got}")
    if not known(input) or not (1 <= len(shape_of(input)) <= 2):
        return ctx.unknown("multinomial")
    s = shape_of(input)
    if replacement is False and isinstance(num_samples, int) and isinstance(s[-1], int):
        ctx.require(num_samples <= s[-1], "multinomial", f"cannot sample n_sample > prob_dist.size(-1) samples "
                    f"without replacement ({num_samples} > {s[-1]!r})", INVALID_ARGUMENT)
    return Tensor(tuple(s[:-1]) + (num_samples,), "int64")
