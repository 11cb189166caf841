"""`torchvision.io.read_image` / `decode_image`: an image file read at run time is a uint8 tensor
[C, H, W] whose height and width are inputs (one value per file); C follows the `ImageReadMode`."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, register
from pytea_ci.shapes.dim import ASSUMED_SIZE, INPUT
from pytea_ci.shapes.tensor import Tensor

_CHANNELS = {"UNCHANGED": None, "GRAY": 1, "GRAY_ALPHA": 2, "RGB": 3, "RGB_ALPHA": 4, "RGBA": 4}
for _mode in _CHANNELS:
    register(f"torchvision.io.ImageReadMode.{_mode}", f"ImageReadMode.{_mode}")


@model("torchvision.io.read_image", "torchvision.io.decode_image", "torchvision.io.decode_jpeg",
       "torchvision.io.decode_png")
def read_image(ctx: Ctx, path: Any, mode: Any = "ImageReadMode.UNCHANGED", *args: Any, **kwargs: Any) -> Any:
    mode = kwargs.get("mode", mode)
    c = _CHANNELS.get(mode.rsplit(".", 1)[-1]) if isinstance(mode, str) else None
    channels = c if c is not None else ctx.fresh("channels", lo=1, hi=4)
    h = ctx.fresh("height", kind=INPUT, lo=1, note=f"height of an image file read by torchvision.io {ASSUMED_SIZE}")
    w = ctx.fresh("width", kind=INPUT, lo=1, note=f"width of an image file read by torchvision.io {ASSUMED_SIZE}")
    return Tensor((channels, h, w), "uint8", device="cpu")  # (decoded on the CPU)
