"""dtype questions a program asks to choose a branch: `x.is_floating_point()`, `x.is_complex()`,
`x.dtype.is_floating_point`, `torch.is_floating_point(x)`, and the dtype of a scalar read from a
tensor (`.item()`). An unknown dtype gives a bool of unknown value (the branch forks). Also the
floating-point facts torch publishes: `torch.finfo` and the constants `torch.pi`, `torch.e`,
`torch.inf`, `torch.nan` (Python floats, as torch's own)."""

from __future__ import annotations

import math
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, native_class, prop, register
from pytea_ci.models.values import DType, Instance, Unknown
from pytea_ci.shapes.tensor import Tensor, category


def _is(dtype: str | None, cat: int) -> Any:
    c = category(dtype)
    return Unknown("dtype not known", pytype="bool") if c is None else c == cat


@model("torch.Tensor.is_floating_point", "torch.is_floating_point")
def is_floating_point(ctx: Ctx, input: Tensor) -> Any:
    return _is(input.dtype, 2)


@model("torch.Tensor.is_complex", "torch.is_complex")
def is_complex(ctx: Ctx, input: Tensor) -> Any:
    return _is(input.dtype, 3)


@model("torch.Tensor.is_signed")
def is_signed(ctx: Ctx, input: Tensor) -> Any:
    c = category(input.dtype)
    return Unknown("dtype not known", pytype="bool") if c is None else (c != 0 and input.dtype != "uint8")


@prop("builtins.DType.is_floating_point")
def dtype_is_floating_point(ctx: Ctx, d: DType) -> Any:
    return _is(d.name, 2)


@prop("builtins.DType.is_complex")
def dtype_is_complex(ctx: Ctx, d: DType) -> Any:
    return _is(d.name, 3)


@prop("builtins.DType.itemsize")
def dtype_itemsize(ctx: Ctx, d: DType) -> Any:
    sizes = {"bool": 1, "uint8": 1, "int8": 1, "int16": 2, "float16": 2, "bfloat16": 2, "int32": 4, "float32": 4,
             "int64": 8, "float64": 8, "complex32": 4, "complex64": 8, "complex128": 16}
    return sizes.get(d.name, ctx.unknown("itemsize"))


def scalar_of(dtype: str | None) -> str | None:
    """The Python type of one element: what `.item()` gives."""
    return {0: "bool", 1: "int", 2: "float"}.get(category(dtype))  # type: ignore[arg-type]


for _name, _value in (("pi", math.pi), ("e", math.e), ("inf", math.inf), ("nan", math.nan)):
    register(f"torch.{_name}", _value)  # `scores.masked_fill(mask, -torch.inf)`


# torch.finfo(dtype): IEEE limits, public facts of each floating format (the same on every machine)
_FINFO = {
    "float16": {"bits": 16, "eps": 0.0009765625, "max": 65504.0, "min": -65504.0, "tiny": 6.103515625e-05,
                "resolution": 0.001},
    "bfloat16": {"bits": 16, "eps": 0.0078125, "max": 3.3895313892515355e+38, "min": -3.3895313892515355e+38,
                 "tiny": 1.1754943508222875e-38, "resolution": 0.01},
    "float32": {"bits": 32, "eps": 1.1920928955078125e-07, "max": 3.4028234663852886e+38,
                "min": -3.4028234663852886e+38, "tiny": 1.1754943508222875e-38, "resolution": 1e-06},
    "float64": {"bits": 64, "eps": 2.220446049250313e-16, "max": 1.7976931348623157e+308,
                "min": -1.7976931348623157e+308, "tiny": 2.2250738585072014e-308, "resolution": 1e-15},
}


@native_class("torch.finfo")
class finfo:
    """`torch.finfo(dtype).min` (a mask's fill value in transformers): the limits of a known floating
    dtype; of another dtype or the default one (which the program may have set), floats not known."""

    def init(ctx: Ctx, self: Instance, dtype: Any = None) -> None:  # noqa: N805
        known = _FINFO.get(dtype.name) if isinstance(dtype, DType) else None
        for key in ("bits", "eps", "max", "min", "tiny", "resolution"):
            self.attrs[key] = known[key] if known else Unknown("finfo of a dtype not known",
                                                                pytype="int" if key == "bits" else "float")
