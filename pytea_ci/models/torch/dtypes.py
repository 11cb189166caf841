"""dtype questions a program asks to choose a branch: `x.is_floating_point()`, `x.is_complex()`,
`x.dtype.is_floating_point`, `torch.is_floating_point(x)`, and the dtype of a scalar read from a
tensor (`.item()`). An unknown dtype gives a bool of unknown value (the branch forks)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, prop
from pytea_ci.models.values import DType, Unknown
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
