"""Random sampling with tensor parameters: `torch.normal` in its four forms (tensor/tensor
broadcast, tensor/number, number/tensor, number/number with a size)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import broadcast_shapes, shape_of, sizes_arg
from pytea_ci.models.registry import model
from pytea_ci.shapes.tensor import Tensor


@model("torch.normal")
def normal(ctx: Ctx, mean: Any = 0.0, std: Any = 1.0, size: Any = None, *args: Any, **kwargs: Any) -> Any:
    """The shape of the tensor parameters (broadcast together), else `size`."""
    tensors = [t for t in (mean, std) if isinstance(t, Tensor)]
    if any(t.shape is None for t in tensors):
        return Tensor(None, tensors[0].dtype)
    if len(tensors) == 2:
        return Tensor(broadcast_shapes(ctx, shape_of(mean), shape_of(std), "normal", ("mean", "std")), mean.dtype)
    if tensors:
        return Tensor(shape_of(tensors[0]), tensors[0].dtype)
    size = kwargs.get("size", size)
    s = None if size is None else sizes_arg((size,), held=ctx)
    return Tensor(tuple(s), "float32") if s is not None else ctx.unknown("normal without a size")
