"""Element-wise operations: one table line per op (binary ops broadcast, unary ops keep shape), with their
facets (a dense input's layout is kept; `.cuda()`/`.cpu()` move)."""

from __future__ import annotations

import dataclasses
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import (DTYPE_NAMES, TO_CPU, TO_CUDA, joined_device, require_bool_support,
                                         require_castable, require_cpu_floating, require_dtype_in,
                                         require_same_device)
from pytea_ci.models.prim import broadcast_shapes, known, result_dtype
from pytea_ci.models.registry import (ALWAYS, CONTIGUOUS, LIKE_INPUT, NO_FACETS, Facets, declare, model,
                                      register)
from pytea_ci.models.values import Builtin, Unknown
from pytea_ci.shapes.dim import is_dim
from pytea_ci.shapes.tensor import Tensor, category
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT

# name -> (result dtype: None = promoted, "bool", "float"); registered as torch.X, torch.Tensor.X
BINARY: dict[str, str | None] = {
    "add": None, "sub": None, "mul": None, "div": "float", "true_divide": "float", "floor_divide": None,
    "remainder": None, "fmod": None, "pow": None, "maximum": None, "minimum": None, "atan2": "float",
    "eq": "bool", "ne": "bool", "lt": "bool", "le": "bool", "gt": "bool", "ge": "bool",
    "logical_and": "bool", "logical_or": "bool", "logical_xor": "bool", "bitwise_and": None,
    "bitwise_or": None, "bitwise_xor": None, "hypot": "float", "copysign": "float", "xlogy": "float",
    "subtract": None, "multiply": None, "divide": "float", "greater": "bool", "less": "bool",
    "greater_equal": "bool", "less_equal": "bool", "not_equal": "bool", "fmax": None, "fmin": None,
}

# Python operator dunders -> binary op name (reflected forms swap operands)
DUNDERS: dict[str, tuple[str, bool]] = {
    "__add__": ("add", False), "__radd__": ("add", True), "__sub__": ("sub", False), "__rsub__": ("sub", True),
    "__mul__": ("mul", False), "__rmul__": ("mul", True), "__truediv__": ("div", False),
    "__rtruediv__": ("div", True), "__floordiv__": ("floor_divide", False), "__rfloordiv__": ("floor_divide", True),
    "__mod__": ("remainder", False), "__rmod__": ("remainder", True), "__pow__": ("pow", False),
    "__rpow__": ("pow", True), "__eq__": ("eq", False), "__ne__": ("ne", False), "__lt__": ("lt", False),
    "__le__": ("le", False), "__gt__": ("gt", False), "__ge__": ("ge", False), "__and__": ("logical_and", False),
    "__or__": ("logical_or", False), "__xor__": ("logical_xor", False), "__rand__": ("logical_and", True),
    "__ror__": ("logical_or", True),
    "__iadd__": ("add", False), "__isub__": ("sub", False), "__imul__": ("mul", False), "__itruediv__": ("div", False),
    "__ifloordiv__": ("floor_divide", False), "__imod__": ("remainder", False), "__ipow__": ("pow", False),
    "__iand__": ("logical_and", False), "__ior__": ("logical_or", False),
}

UNARY = (
    "relu sigmoid tanh exp exp2 expm1 log log2 log10 log1p abs neg negative sqrt rsqrt sin cos tan asin acos "
    "atan sinh cosh asinh acosh atanh floor ceil round trunc frac sign sgn square reciprocal erf erfc erfinv "
    "logical_not bitwise_not isnan isinf isfinite nan_to_num clamp clip clamp_min clamp_max silu gelu "
    "softplus mish hardswish hardsigmoid relu6 elu selu celu leaky_relu logit sigmoid_ deg2rad rad2deg "
    "positive conj detach clone contiguous cpu cuda requires_grad_ pin_memory share_memory_ fill_ zero_ "
    "normal_ uniform_ bernoulli bernoulli_ exponential_ random_ relu_ clamp_ abs_ neg_ exp_ log_ sqrt_ tanh_ "
    "round_ floor_ ceil_ sign_ add_noise retain_grad coalesce erfinv_ erf_ erfc_ log1p_ expm1_ sin_ cos_ "
    "reciprocal_ square_ trunc_ frac_ log2_ log10_ rsqrt_ exp2_ atan_ tan_ asin_ acos_ sinh_ cosh_ lgamma digamma "
    "i0 sinc"
).split()

BOOL_UNARY = {"logical_not", "isnan", "isinf", "isfinite"}
FLOAT_UNARY = {"sigmoid", "tanh", "exp", "log", "sqrt", "rsqrt", "sin", "cos", "erf", "silu", "gelu", "softplus",
               "lgamma", "digamma", "i0", "sinc"}


_STAND_IN = {"int": 1, "float": 0.5, "bool": True}


def _scalar(v: Any) -> Any:
    """A number of unknown value (`loss.item()`, `float(t)`) stands for itself by its kind: with a
    tensor, only its kind matters (the result keeps the tensor's shape)."""
    if isinstance(v, Unknown) and v.pytype in _STAND_IN:
        return _STAND_IN[v.pytype]
    return v


def binary(ctx: Ctx, op: str, a: Any, b: Any) -> Any:
    kind = BINARY[op]
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        a, b = _scalar(a), _scalar(b)
    if isinstance(a, Unknown) or isinstance(b, Unknown):
        return ctx.unknown(f"{op} with unknown operand")
    if not (isinstance(a, Tensor) or isinstance(b, Tensor)):
        return ctx.unknown(f"{op} without a tensor")
    for v in (a, b):
        if not isinstance(v, Tensor) and not (is_dim(v) or isinstance(v, (float, bool, complex))):
            return ctx.unknown(f"{op} with a non-tensor operand")
    sa = a.shape if isinstance(a, Tensor) else ()
    sb = b.shape if isinstance(b, Tensor) else ()
    dtype = "bool" if kind == "bool" else (_float_result(a, b) if kind == "float" else result_dtype(a, b))
    lib = getattr(a, "lib", None) if isinstance(a, Tensor) else getattr(b, "lib", None)
    if lib != "numpy":
        require_same_device(ctx, op, (("self", a), ("other", b)))
        require_bool_support(ctx, op, a, b, dtype)
    if lib != "numpy":
        _require_nonzero_divisor(ctx, op, a, b)
    if sa is None or sb is None:
        return Tensor(None, dtype) if lib != "numpy" else Tensor(None, dtype, lib="numpy")  # type: ignore[call-arg]
    shape = broadcast_shapes(ctx, sa, sb, op)
    if lib == "numpy":
        return Tensor(shape, dtype, lib="numpy")
    return Tensor(shape, dtype, device=joined_device(a, b))


def _require_nonzero_divisor(ctx: Ctx, op: str, a: Any, b: Any) -> None:
    """An integer tensor `%` or `//` an int: torch raises ZeroDivisionError for a divisor of 0 (a size
    of the program that may be 0, such as `arange(n) % (c - 1)`)."""
    if op not in ("remainder", "floor_divide", "fmod") or not isinstance(a, Tensor) or not a.is_int():
        return
    if a.dtype == "bool" or not is_dim(b) or isinstance(b, bool):
        return
    from pytea_ci.shapes import pred as P

    ctx.require(P.ne(b, 0), op, f"ZeroDivisionError: integer {'division' if op == 'floor_divide' else 'modulo'} by "
                f"zero" + ("" if isinstance(b, int) else f" when {b!r} is 0"), INVALID_ARGUMENT, dims=(("divisor", b),))


def _float_result(a: Any, b: Any) -> str | None:
    """Division and friends: float32 for integer operands, else the promoted floating dtype."""
    if any(isinstance(v, Tensor) and v.dtype is None for v in (a, b)):
        return None
    return result_dtype(a, b) if any(isinstance(v, Tensor) and v.is_float() for v in (a, b)) else "float32"


def _binary_model(op: str) -> Any:
    def run(ctx: Ctx, input: Any, other: Any, *args: Any, **kwargs: Any) -> Any:
        return binary(ctx, op, input, other)

    return run


def _dunder_model(op: str, reflected: bool, inplace: bool) -> Any:
    def run(ctx: Ctx, self: Any, other: Any) -> Any:
        out = binary(ctx, op, other, self) if reflected else binary(ctx, op, self, other)
        if inplace and isinstance(self, Tensor) and not isinstance(out, Tensor):
            return self  # an in-place op never changes the shape of its target
        if inplace and known(out) and known(self) and out.shape != self.shape:
            from pytea_ci.models.prim import fmt
            from pytea_ci.shapes import pred as P

            same = len(out.shape) == len(self.shape) and P.and_(*[P.eq(x, y) for x, y in zip(out.shape, self.shape)])
            ctx.require(same, f"in-place {op}", f"output with shape {fmt(self.shape)} doesn't match the broadcast "
                        f"shape {fmt(out.shape)}", operands=(f"self: {fmt(self.shape)}",))
            require_castable(ctx, f"in-place {op}", self, out.dtype)
            return self
        if inplace and isinstance(out, Tensor) and isinstance(self, Tensor):  # after the shapes, as torch
            require_castable(ctx, f"in-place {op}", self, out.dtype)
            # written into self: self's dtype and device, whatever the promotion gave
            return dataclasses.replace(out, dtype=self.dtype, dtype_from=self.dtype_from, device=self.device,
                                       device_from=self.device_from)
        return out

    return run


# Activations whose CPU kernels take floating dtypes only (torch 2.13's names; `dtype_device.require_cpu_floating`)
CPU_FLOAT_KERNELS = {"elu": "elu_cpu", "selu": "elu_cpu", "celu": "elu_cpu", "leaky_relu": "leaky_relu_cpu",
                     "leakyrelu": "leaky_relu_cpu", "leaky_relu_": "leaky_relu_cpu", "rrelu": "leaky_relu_cpu",
                     "gelu": "GeluKernelImpl", "silu": "silu_cpu", "mish": "mish_cpu", "softplus": "softplus_cpu",
                     "hardswish": "hardswish_cpu", "hardsigmoid": "hardsigmoid_cpu", "logsigmoid": "log_sigmoid_cpu"}


def unary(ctx: Ctx, op: str, input: Any) -> Any:
    if not isinstance(input, Tensor):
        return ctx.unknown(f"{op} of a non-tensor")
    if op in CPU_FLOAT_KERNELS:
        require_cpu_floating(ctx, op, input, CPU_FLOAT_KERNELS[op])
    if op in ("neg", "negative") and input.lib == "torch":
        require_dtype_in(ctx, op, input, tuple(d for d in DTYPE_NAMES if d != "bool"), "input",
                         "Negation, the `-` operator, on a bool tensor is not supported")
    dtype = "bool" if op in BOOL_UNARY else (
        "float32" if op in FLOAT_UNARY and category(input.dtype) in (0, 1) else input.dtype)
    return input.with_shape(input.shape, dtype) if getattr(input, "lib", "torch") != "numpy" else input


def unary_model(op: str) -> Any:
    """The model of the unary op `op` (its first argument the input; the others change no shape)."""

    def run(ctx: Ctx, input: Any, *args: Any, **kwargs: Any) -> Any:
        return unary(ctx, op, input)

    return run


# Facets of the unary ops beyond their layout: `.contiguous()` makes a fresh contiguous tensor,
# `.cuda()`/`.cpu()` move their result.
_UNARY_FACETS = {"contiguous": Facets(layout=CONTIGUOUS),
                 "cuda": Facets(layout=LIKE_INPUT, device=TO_CUDA, places=ALWAYS),
                 "cpu": Facets(layout=LIKE_INPUT, device=TO_CPU)}
# An element-wise op on one tensor (a Python number or tensors of the very same layout beside it)
# allocates its output like its input; `number ** x` is computed by another kernel (contiguous output).
_LIKE_INPUT = Facets(layout=LIKE_INPUT)


def _register_tables() -> None:
    for op in BINARY:
        b = Builtin(f"torch.{op}", _binary_model(op))
        register(f"torch.{op}", b)
        declare(b.name, _LIKE_INPUT)
        register(f"torch.Tensor.{op}", b)
        if op not in ("eq", "ne", "lt", "le", "gt", "ge", "maximum", "minimum", "fmax", "fmin") and not op.startswith("logical"):
            # in place: the target's shape is the result's, so the broadcast shape must equal it
            register(f"torch.Tensor.{op}_", Builtin(f"torch.Tensor.{op}_", _dunder_model(op, False, True)))
    for name, (op, reflected) in DUNDERS.items():
        register(f"torch.Tensor.{name}", Builtin(f"torch.Tensor.{name}", _dunder_model(op, reflected, name.startswith("__i"))))
        declare(f"torch.Tensor.{name}", _LIKE_INPUT if name != "__rpow__" else NO_FACETS)
    for op in UNARY:
        u = Builtin(f"torch.{op}", unary_model(op))
        register(f"torch.Tensor.{op}", u)
        declare(u.name, _UNARY_FACETS.get(op, _LIKE_INPUT))
        if not op.endswith("_") and op not in ("cpu", "cuda", "detach", "contiguous", "requires_grad_", "pin_memory",
                                               "share_memory_", "retain_grad", "coalesce", "add_noise"):
            register(f"torch.{op}", u)
    for name, op in (("__neg__", "neg"), ("__pos__", "positive"), ("__invert__", "bitwise_not"), ("__abs__", "abs")):
        register(f"torch.Tensor.{name}", Builtin(name, unary_model(op)))
        declare(name, _LIKE_INPUT)


_register_tables()


@model("torch.where")
def where(ctx: Ctx, condition: Any, input: Any = None, other: Any = None) -> Any:
    """`where(condition, input, other)`: the three broadcast together; either value may be a number."""
    if input is None:
        return ctx.unknown("torch.where(condition)")
    operands = (condition, input, other)
    for v in operands:
        if not isinstance(v, Tensor) and not (is_dim(v) or isinstance(v, (float, bool))):
            return ctx.unknown("where with an operand not understood")
    if not any(isinstance(v, Tensor) for v in operands):
        return ctx.unknown("where without a tensor")
    dtype = result_dtype(input, other)
    lib = "numpy" if any(isinstance(v, Tensor) and v.lib == "numpy" for v in operands) else "torch"
    if any(isinstance(v, Tensor) and v.shape is None for v in operands):
        return Tensor(None, dtype, lib)
    shape: tuple[Any, ...] = ()
    for name, v in zip(("condition", "input", "other"), operands):
        if isinstance(v, Tensor):
            shape = broadcast_shapes(ctx, shape, v.shape, "where", ("the others", name))
    return Tensor(shape, dtype, lib)


@model("torch.Tensor.where")
def tensor_where(ctx: Ctx, self: Any, condition: Any, other: Any) -> Any:
    """`x.where(condition, y)` is `torch.where(condition, x, y)`."""
    return where(ctx, condition, self, other)
