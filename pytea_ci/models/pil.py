"""PIL images as abstract values (mode and size), and the few PIL functions programs call."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Instance
from pytea_ci.shapes.dim import INPUT

CHANNELS = {"L": 1, "1": 1, "P": 1, "I": 1, "F": 1, "RGB": 3, "RGBA": 4, "CMYK": 4, "LA": 2, "YCbCr": 3}


@native_class("PIL.Image.Image")
class Image:
    def convert(ctx: Ctx, self: Instance, mode: Any = None, *args: Any, **kwargs: Any) -> Any:
        return Instance(self.cls, {**self.attrs, "mode": mode if isinstance(mode, str) else None})

    def resize(ctx: Ctx, self: Instance, size: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(size, (tuple, list)) and len(size) == 2:
            return make_image(ctx, self.attrs.get("mode"), size[1], size[0])
        return ctx.unknown("resized image")

    def copy(ctx: Ctx, self: Instance) -> Any:
        return self


def make_image(ctx: Ctx, mode: Any, height: Any, width: Any) -> Instance:
    return Instance(Image, {"mode": mode, "height": height, "width": width, "size": (width, height)})


@model("PIL.Image.open", "PIL.Image.new", "PIL.Image.fromarray")
def image_open(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    # Image.new(mode, (width, height)) and Image.fromarray(HxW[xC] array) have known sizes; open() does not
    from pytea_ci.shapes.tensor import Tensor

    if len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], (tuple, list)) and len(args[1]) == 2:
        return make_image(ctx, args[0], args[1][1], args[1][0])
    if args and isinstance(args[0], Tensor) and args[0].shape is not None and len(args[0].shape) in (2, 3):
        s = args[0].shape
        mode = "L" if len(s) == 2 else {3: "RGB", 4: "RGBA"}.get(s[2]) if isinstance(s[2], int) else None
        return make_image(ctx, kwargs.get("mode", mode), s[0], s[1])
    # the size of an image file is an input: one value per file the program is run on
    return make_image(ctx, None, ctx.fresh("height", kind=INPUT, lo=1, note="height of an image file PIL opens"),
                      ctx.fresh("width", kind=INPUT, lo=1, note="width of an image file PIL opens"))
