"""`torch.autograd`: `Variable` (a plain tensor since PyTorch 0.4, returned as it was given) and
`grad` (one gradient per input, shaped like it)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import KEEPS, model
from pytea_ci.shapes.tensor import Tensor


@model("torch.autograd.Variable", layout=KEEPS)  # the tensor it was given
def variable(ctx: Ctx, data: Any, *args: Any, **kwargs: Any) -> Any:
    return data


@model("torch.autograd.grad")
def autograd_grad(ctx: Ctx, outputs: Any, inputs: Any, *args: Any, **kwargs: Any) -> Any:
    """`torch.autograd.grad(outputs, inputs)`: a tuple with one gradient per input, shaped like it."""
    ins = [inputs] if isinstance(inputs, Tensor) else ctx.iterate(inputs)
    if ins is None or not all(isinstance(t, Tensor) for t in ins):
        return ctx.unknown("torch.autograd.grad of inputs not understood")
    return tuple(t.with_shape(t.shape) for t in ins)
