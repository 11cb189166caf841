"""`torchvision.utils.make_grid` (the [3, H', W'] grid of a batch of images) and `save_image`."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import fmt, known, shape_of
from pytea_ci.models.registry import model
from pytea_ci.shapes.dim import ceildiv, dmin, floordiv
from pytea_ci.shapes.tensor import Tensor


def _batch(ctx: Ctx, tensor: Any, op: str) -> Any:
    """The input as a [B, C, H, W] batch (torchvision stacks lists and widens 1-channel images to 3)."""
    if isinstance(tensor, (list, tuple)):
        items = [t for t in tensor]
        if not items or not all(known(t) for t in items):
            return None
        from pytea_ci.models.torch.creation import stack

        tensor = stack(ctx, items, 0)
    if not known(tensor):
        return None
    s = shape_of(tensor)
    ctx.require(len(s) in (2, 3, 4), op, f"expected a 2D, 3D or 4D tensor or a list of images, got {fmt(s)}",
                operands=(f"tensor: {fmt(s)}",))
    if len(s) == 2:
        s = (1,) + tuple(s)
    if len(s) == 3:
        s = (1,) + ((3,) if s[0] == 1 else (s[0],)) + tuple(s[1:])
    elif s[1] == 1:
        s = (s[0], 3) + tuple(s[2:])
    return tensor.with_shape(tuple(s))


@model("torchvision.utils.make_grid")
def make_grid(ctx: Ctx, tensor: Any, nrow: Any = 8, padding: Any = 2, *args: Any, **kwargs: Any) -> Any:
    nrow, padding = kwargs.get("nrow", nrow), kwargs.get("padding", padding)
    t = _batch(ctx, tensor, "make_grid")
    if t is None:
        return ctx.unknown("make_grid of unknown input")
    b, c, h, w = shape_of(t)
    if b == 1:
        return t.with_shape((c, h, w))
    xmaps = dmin(nrow, b)
    ymaps = ceildiv(b, xmaps)
    return Tensor((c, ymaps * (h + padding) + padding, xmaps * (w + padding) + padding), t.dtype)


@model("torchvision.utils.save_image")
def save_image(ctx: Ctx, tensor: Any, fp: Any = None, *args: Any, **kwargs: Any) -> Any:
    make_grid(ctx, tensor, **{k: v for k, v in kwargs.items() if k in ("nrow", "padding")})
    return None


_ = floordiv
