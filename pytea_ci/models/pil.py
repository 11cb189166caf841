"""PIL images as abstract values (mode and size), and the few PIL functions programs call."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Instance

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
    return make_image(ctx, None, ctx.fresh("height", lo=1), ctx.fresh("width", lo=1))
