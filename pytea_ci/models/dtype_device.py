"""dtype and device requirements (PT006 dtype-mismatch, PT007 device-mismatch) and the helpers that
set a tensor's dtype or device together with where it was set.

Only what the analyzer is sure of takes part: a dtype or device of None is unknown and satisfies
every requirement. Two facts of the path widen what is unknown: after `torch.set_default_dtype`
the floating dtypes of creations are not known for sure (so float-vs-float requirements are
skipped), and after `torch.set_default_device` (or a `with torch.device(...)` block) a creation
without `device=` is on an unknown device. A finding names where each dtype or device was set.

Devices are compared by type ("cpu", "cuda", "meta", "mps"); CUDA indices are not tracked.
Zero-dim CPU tensors and Python numbers mix with tensors of any device (torch allows it).
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.values import DType, Instance
from pytea_ci.shapes.tensor import Origin, Tensor, category
from pytea_ci.diagnostics.rules import DEVICE_MISMATCH, DTYPE_MISMATCH

DEFAULT_DTYPE_SET = "default dtype set"  # path facts
DEFAULT_DEVICE_SET = "default device set"
AUTOCAST = "autocast depth"  # > 0 inside `with torch.autocast(...)` (or after a decorator use)
_DEVICE_TYPES = ("cpu", "cuda", "meta", "mps", "xpu", "xla", "hpu")

_TITLE = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long",
          "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
          "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def title(dtype: str | None) -> str:
    """torch's name of a dtype in its messages (`Long`, `Float`)."""
    return _TITLE.get(dtype or "", str(dtype))


# ----- setting dtypes and devices -----------------------------------------------------------------
def cast(ctx: Ctx, t: Tensor, dtype: str | None, what: str) -> Tensor:
    """`t` converted to `dtype` (None: a dtype not known), the conversion named as its origin."""
    out = t.with_shape(t.shape, dtype)
    return _replace(out, dtype_from=Origin(ctx.span, what) if dtype is not None else None)


def with_dtype_origin(ctx: Ctx, t: Any, what: str) -> Any:
    """A freshly created tensor, its dtype set here by `what`."""
    if isinstance(t, Tensor) and t.dtype is not None:
        return _replace(t, dtype_from=Origin(ctx.span, what))
    return t


def placed(ctx: Ctx, t: Any, device: str | None, what: str) -> Any:
    """`t` on `device` (None: not known), the placement named as its origin."""
    if not isinstance(t, Tensor) or t.lib != "torch":
        return t
    return _replace(t, device=device, device_from=Origin(ctx.span, what) if device is not None else None)


def _replace(t: Tensor, **changes: Any) -> Tensor:
    fields = dict(shape=t.shape, dtype=t.dtype, lib=t.lib, strides=t.strides, origin=t.origin, vrange=t.vrange,
                  dtype_from=t.dtype_from, device=t.device, device_from=t.device_from, param=t.param,
                  dense=t.dense)
    fields.update(changes)
    return Tensor(**fields)


def device_of(v: Any) -> str | None:
    """The device type an argument names ("cuda:1" -> "cuda", torch.device("cpu") -> "cpu"), None when
    not known (a string read from the environment, a device of unknown type)."""
    if isinstance(v, str):
        kind = v.split(":")[0]
        return kind if kind in _DEVICE_TYPES else None
    if isinstance(v, Instance) and v.cls.name == "device":
        return device_of(v.attrs.get("type"))
    if isinstance(v, Tensor):
        return v.device
    return None


def creation_device(ctx: Ctx, kwargs: dict[str, Any]) -> str | None:
    """The device of a tensor created with these arguments: `device=` when given, else the CPU unless
    the program changed the default device."""
    if kwargs.get("device") is not None:
        return device_of(kwargs["device"])
    return None if ctx.facts.get(DEFAULT_DEVICE_SET) else "cpu"


def created(ctx: Ctx, t: Any, kwargs: dict[str, Any], what: str) -> Any:
    """A tensor made by a creation function: its device from the arguments, its dtype set here."""
    if not isinstance(t, Tensor):
        return t
    t = with_dtype_origin(ctx, t, f"{what}(dtype=)" if "dtype" in kwargs else what)
    dev = creation_device(ctx, kwargs)
    return placed(ctx, t, dev, f"{what}(device=)" if "device" in kwargs else what)


def parameter(ctx: Ctx, t: Tensor, kwargs: dict[str, Any]) -> Tensor:
    """A layer's parameter made by its constructor: the default floating dtype (or `dtype=`) and the
    default device (or `device=`), set where the layer is built."""
    dt = kwargs.get("dtype")
    t = cast(ctx, t, dt.name if isinstance(dt, DType) else ("float32" if dt is None else None), "layer construction")
    return placed(ctx, t, creation_device(ctx, kwargs), "layer construction").as_parameter()


def dtype_arg(v: Any) -> str | None:
    return v.name if isinstance(v, DType) else None


# ----- describing operands ----------------------------------------------------------------------
def dtype_note(name: str, t: Tensor) -> str:
    """`target dtype = float32: .float() (train.py:41:12)`."""
    o = t.dtype_from
    return f"{name} dtype = {t.dtype}" + (f": {o.what} ({o.span})" if o is not None else "")


def device_note(name: str, t: Tensor) -> str:
    o = t.device_from
    return f"{name} device = {t.device}" + (f": {o.what} ({o.span})" if o is not None else "")


# ----- requirements -------------------------------------------------------------------------------
def _floats_unsure(ctx: Ctx, a: str | None, b: str | None) -> bool:
    """Both floating point after `set_default_dtype` (either may be the new default) or under autocast
    (which casts the operands of matrix products and convolutions itself)."""
    unsure = ctx.facts.get(DEFAULT_DTYPE_SET) or ctx.facts.get(AUTOCAST)
    return bool(unsure) and category(a) == 2 and category(b) == 2


def require_same_dtype(ctx: Ctx, op: str, x: Any, w: Any, names: tuple[str, str], message: str) -> None:
    """`x` and `w` (an input and a parameter, two matrix operands) must have one dtype. `message`
    may use {a} and {b}, torch's names of the two dtypes."""
    if not (isinstance(x, Tensor) and isinstance(w, Tensor)) or x.dtype is None or w.dtype is None:
        return
    if x.dtype == w.dtype or _floats_unsure(ctx, x.dtype, w.dtype):
        return
    ctx.require(False, op, message.format(a=title(x.dtype), b=title(w.dtype)), DTYPE_MISMATCH,
                operands=(dtype_note(names[0], x), dtype_note(names[1], w)))


def require_dtype_in(ctx: Ctx, op: str, t: Any, allowed: tuple[str, ...], name: str, message: str) -> None:
    """`t` must have one of the `allowed` dtypes; `message` may use {got}, torch's name of its dtype."""
    if not isinstance(t, Tensor) or t.dtype is None or t.dtype in allowed:
        return
    if _floats_unsure(ctx, t.dtype, next((a for a in allowed if category(a) == 2), None)):
        return
    ctx.require(False, op, message.format(got=title(t.dtype)), DTYPE_MISMATCH, operands=(dtype_note(name, t),))


def require_floating(ctx: Ctx, op: str, t: Any, name: str, message: str) -> None:
    """`t` must be of a floating dtype (BCE targets, the input of a float-only kernel)."""
    if isinstance(t, Tensor) and t.dtype is not None and category(t.dtype) in (0, 1):
        ctx.require(False, op, message.format(got=title(t.dtype)), DTYPE_MISMATCH, operands=(dtype_note(name, t),))


def require_cpu_floating(ctx: Ctx, op: str, t: Any, kernel: str) -> None:
    """`t` goes through a kernel torch's CPU build implements for floating dtypes only (NotImplementedError
    `"gelu_cpu" not implemented for 'Long'`). Another device's build may implement more, so the failure is
    claimed only for a tensor known to be on the CPU."""
    if isinstance(t, Tensor) and t.lib == "torch" and t.device == "cpu" and t.dtype is not None \
            and category(t.dtype) in (0, 1):
        ctx.require(False, op, f'"{kernel}" not implemented for \'{title(t.dtype)}\'', DTYPE_MISMATCH,
                    operands=(dtype_note("input", t),))


def require_castable(ctx: Ctx, op: str, target: Any, result: str | None, name: str = "self",
                     message: str = "result type {got} can't be cast to the desired output type {want}") -> None:
    """An in-place op (or an `out=` tensor) takes the result into `target`: a float result cannot go into
    an integer tensor, a complex one into a real tensor, an integer one into a bool tensor (torch's
    `can_cast`); a narrower dtype of the same kind is fine. `message` may use {got} and {want}."""
    if not isinstance(target, Tensor) or target.lib != "torch" or target.dtype is None or result is None:
        return
    ct, cr = category(target.dtype), category(result)
    if ct is None or cr is None or cr <= ct:
        return
    ctx.require(False, op, message.format(got=title(result), want=title(target.dtype)), DTYPE_MISMATCH,
                operands=(dtype_note(name, target),))


_REDUCED = ("float16", "bfloat16")


def require_norm_parameters(ctx: Ctx, op: str, x: Any, params: tuple[tuple[str, Any], ...]) -> None:
    """A normalization's input and its parameters and running statistics (`params`, (name, value) pairs;
    None for absent ones): on the CPU they share one dtype, except a float16/bfloat16 input with
    float32 parameters (torch's "mixed dtype (CPU)" check; other machines are not claimed), and on
    every machine they share a device."""
    tensors = [(n, t) for n, t in params if isinstance(t, Tensor) and t.lib == "torch"]
    require_same_device(ctx, op, (("input", x), *tensors))
    if not isinstance(x, Tensor) or x.dtype is None or category(x.dtype) != 2:
        return
    known_ = [(n, t) for n, t in tensors if t.dtype is not None]
    dtypes = {t.dtype for _, t in known_}
    on_cpu = x.device == "cpu" and all(t.device == "cpu" for _, t in tensors)
    if len(dtypes) != 1 or not on_cpu or _floats_unsure(ctx, x.dtype, next(iter(dtypes))):
        return
    p = dtypes.pop()
    if x.dtype == p or (p == "float32" and x.dtype in _REDUCED):
        return
    message = ("mixed dtype (CPU): expect parameter to have scalar type of Float" if x.dtype == "float32" else
               "mixed dtype (CPU): all inputs must share same datatype")
    ctx.require(False, op, f"{message} (input {title(x.dtype)}, parameters {title(p)})", DTYPE_MISMATCH,
                operands=(dtype_note("input", x), dtype_note(known_[0][0], known_[0][1])))


DTYPE_NAMES = tuple(_TITLE)


def require_bool_support(ctx: Ctx, op: str, a: Any, b: Any, result: str | None) -> None:
    """Bool tensors have no subtraction, and no floor division or remainder of a bool result."""
    bools = [(n, t) for n, t in (("self", a), ("other", b)) if isinstance(t, Tensor) and t.dtype == "bool"]
    if op in ("sub", "subtract") and (bools or isinstance(a, bool) or isinstance(b, bool)):
        ctx.require(False, op, "Subtraction, the `-` operator, with a bool tensor is not supported", DTYPE_MISMATCH,
                    operands=tuple(dtype_note(n, t) for n, t in bools))
    elif op in ("floor_divide", "remainder") and bools and result == "bool":
        ctx.require(False, op, f"{op} is not implemented for 'Bool'", DTYPE_MISMATCH,
                    operands=tuple(dtype_note(n, t) for n, t in bools))


def spread(t: Any) -> bool:
    """A tensor whose device matters when it meets others (a 0-dim CPU tensor may meet any)."""
    return isinstance(t, Tensor) and t.lib == "torch" and t.device is not None and not (t.device == "cpu" and t.rank == 0)


def require_same_device(ctx: Ctx, op: str, operands: tuple[tuple[str, Any], ...]) -> None:
    """The tensors among `operands` ((name, value) pairs) must share a device."""
    placed_ = [(n, t) for n, t in operands if spread(t)]
    for (n1, a), (n2, b) in zip(placed_, placed_[1:]):
        if a.device != b.device:
            ctx.require(False, op, f"Expected all tensors to be on the same device, but found at least two devices, "
                        f"{_shown(a.device)} and {_shown(b.device)} ({n1} and {n2})", DEVICE_MISMATCH,
                        operands=(device_note(n1, a), device_note(n2, b)))
            return


def _shown(device: str | None) -> str:
    return "cuda:0" if device == "cuda" else str(device)


def joined_device(*operands: Any) -> str | None:
    """The device of an element-wise result: the operands' common device (0-dim CPU tensors and numbers
    follow the others); None when one is not known."""
    tensors = [t for t in operands if isinstance(t, Tensor)]
    if any(t.device is None for t in tensors) or not tensors:
        return None
    devs = {t.device for t in tensors if spread(t)}
    if not devs:
        return "cpu"
    return devs.pop() if len(devs) == 1 else None


# ----- after every model: where its result lives --------------------------------------------------
# How a model places its result (`device=` of its registration; None: where its operands live).
CREATES = "creates"  # a creation: on the CPU unless told otherwise, its dtype set here
CREATES_LIKE_DATA = "creates like its data"  # a creation whose tensor data keeps its device (`torch.tensor(t)`)
CREATES_ON_CUDA = "creates on cuda"  # a legacy CUDA tensor type's constructor (`torch.cuda.FloatTensor(2, 3)`)
TO_CUDA = "to cuda"  # `.cuda()`
TO_CPU = "to cpu"  # `.cpu()`
CONVERTS = "converts"  # `.float()`, `.to(dtype)`, `.type_as(t)`: not an autocast op, its dtype is the one asked for


def after_model(ctx: Any, name: str, kind: str | None, out: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The device (and dtype origin) of a model's tensor result, `kind` being how the model declared it
    places its result: a result written into an `out=` tensor has its dtype and device, creations are
    on the CPU unless told otherwise, `.cuda()`/`.cpu()` move, any `device=` argument places the result."""
    if not isinstance(out, Tensor) or out.lib != "torch":
        return out
    target = kwargs.get("out")
    if isinstance(target, Tensor) and target.lib == "torch":  # the result is written into `out=` and returned
        return _replace(out, dtype=target.dtype, dtype_from=target.dtype_from, device=target.device,
                        device_from=target.device_from)
    creates = kind in (CREATES, CREATES_LIKE_DATA, CREATES_ON_CUDA)
    if ctx.facts.get(AUTOCAST) and category(out.dtype) == 2 and not creates and kind != CONVERTS:
        out = cast(ctx, out, None, "autocast")  # float16/bfloat16 or float32: the autocast's choice
    short = name.replace("torch.Tensor.", ".").replace("torch.", "torch.")
    if kind == TO_CUDA:
        return placed(ctx, out, "cuda", ".cuda()")
    if kind == TO_CPU:
        return placed(ctx, out, "cpu", ".cpu()")
    if kind == CREATES_LIKE_DATA and args and isinstance(args[0], Tensor) and args[0].lib == "torch" \
            and "device" not in kwargs:
        return placed(ctx, with_dtype_origin(ctx, out, short), args[0].device, short)
    if kind == CREATES_ON_CUDA:
        return placed(ctx, with_dtype_origin(ctx, out, short), "cuda", short)
    if creates:
        return created(ctx, out, kwargs, short)
    out = _dtype_from_operands(out, args, kwargs)
    if "device" in kwargs:
        dev = device_of(kwargs["device"]) if kwargs["device"] is not None else out.device
        return placed(ctx, out, dev, f"{short}(device=)")
    if out.device is None and kind != CONVERTS:  # results live where their operands do (`.to(d)` of a device
        # not known: not where it was)
        inputs = _input_devices(args, kwargs)
        if len(inputs) == 1 and None not in inputs:
            return placed(ctx, out, inputs.pop(), f"{short} (its operands' device)")
    return out


def _dtype_from_operands(out: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Tensor:
    """A result of its operand's dtype keeps where that dtype was set (a view, a squeeze, an index, the
    stack of a DataLoader's batch of `.float()` labels): the finding names the `.float()`."""
    if out.dtype_from is not None or out.dtype is None:
        return out
    for a in (*args, *kwargs.values()):
        for t in (a if isinstance(a, (list, tuple)) else (a,)):
            if isinstance(t, Tensor) and t.dtype == out.dtype and t.dtype_from is not None:
                return _replace(out, dtype_from=t.dtype_from)
    return out


def _input_devices(args: tuple[Any, ...], kwargs: dict[str, Any]) -> set[str | None]:
    """The devices of the tensor arguments (also inside a list or tuple argument); empty when none."""
    seen: set[str | None] = set()
    for a in (*args, *kwargs.values()):
        for t in (a if isinstance(a, (list, tuple)) else (a,)):
            if isinstance(t, Tensor) and t.lib == "torch":
                seen.add(t.device)
    return seen


LINEAR_DTYPES = "mat1 and mat2 must have the same dtype, but got {a} and {b} (the input's dtype is not the layer's)"
INPUT_DTYPES = "Input type ({a}) and weight type ({b}) should be the same"


def require_parameters(ctx: Ctx, op: str, x: Any, weight: Any, message: str = LINEAR_DTYPES) -> None:
    """A layer's input must have its parameters' dtype and device."""
    require_same_dtype(ctx, op, x, weight, ("input", "weight"), message)
    require_same_device(ctx, op, (("input", x), ("weight", weight)))


def require_matrix_operands(ctx: Ctx, op: str, a: Any, b: Any) -> None:
    """Matrix products need operands of one dtype (torch does not promote them) and one device."""
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)) or a.lib != "torch" or b.lib != "torch":
        return
    require_same_dtype(ctx, op, a, b, ("self", "other"),
                       "expected m1 and m2 to have the same dtype, but got: {a} != {b}")
    require_same_device(ctx, op, (("self", a), ("other", b)))
