"""PIL images as abstract values (mode and size), and the few PIL functions programs call."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Instance
from pytea_ci.shapes.dim import ASSUMED_SIZE, INPUT, UNKNOWN, is_dim

CHANNELS = {"L": 1, "1": 1, "P": 1, "I": 1, "F": 1, "RGB": 3, "RGBA": 4, "CMYK": 4, "LA": 2, "YCbCr": 3}


@native_class("PIL.Image.Image")
class Image:
    def convert(ctx: Ctx, self: Instance, mode: Any = None, *args: Any, **kwargs: Any) -> Any:
        return Instance(self.cls, {**self.attrs, "mode": mode if isinstance(mode, str) else None})

    def resize(ctx: Ctx, self: Instance, size: Any, *args: Any, **kwargs: Any) -> Any:
        """A size not understood (`round(w * scale)`) is a size not understood, never an input of the
        program: it makes no counterexample (`shapes.dim.UNKNOWN`)."""
        if isinstance(size, (tuple, list)) and len(size) == 2:
            w, h = (v if is_dim(v) else ctx.fresh(k, UNKNOWN, 1, None, f"{k} of a resized image, not understood")
                    for k, v in (("width", size[0]), ("height", size[1])))
            return make_image(ctx, self.attrs.get("mode"), h, w)
        return ctx.unknown("resized image")

    def crop(ctx: Ctx, self: Instance, box: Any = None) -> Any:
        """`crop((left, upper, right, lower))`: an image of (right - left) x (lower - upper), as PIL
        gives (a box past the edges is filled, not clipped)."""
        if isinstance(box, (tuple, list)) and len(box) == 4 and all(is_dim(b) for b in box):
            return make_image(ctx, self.attrs.get("mode"), box[3] - box[1], box[2] - box[0])
        return ctx.unknown("cropped image")

    def copy(ctx: Ctx, self: Instance) -> Any:
        return self


_ARRAY_DTYPES = {"1": "bool", "I": "int32", "F": "float32"}


def array_of_image(img: Any) -> tuple[tuple[Any, ...], str] | None:
    """(shape, dtype) of `numpy.asarray(img)` for a PIL image of known mode: [H, W] for one channel,
    [H, W, C] otherwise; None when `img` is no image or its mode is not known."""
    if not (isinstance(img, Instance) and img.cls is Image):
        return None
    mode, h, w = img.attrs.get("mode"), img.attrs.get("height"), img.attrs.get("width")
    c = CHANNELS.get(mode) if isinstance(mode, str) else None
    if c is None or not (is_dim(h) and is_dim(w)):
        return None
    return ((h, w) if c == 1 else (h, w, c)), _ARRAY_DTYPES.get(mode, "uint8")


def make_image(ctx: Ctx, mode: Any, height: Any, width: Any) -> Instance:
    return Instance(Image, {"mode": mode, "height": height, "width": width, "size": (width, height)})


@model("PIL.Image.fromarray")
def fromarray(ctx: Ctx, obj: Any = None, mode: Any = None) -> Any:
    """An image of an HxW[xC] array's sizes; of an array not understood, an image not understood (its
    sizes are no input of the program: never a counterexample)."""
    from pytea_ci.shapes.tensor import Tensor

    if isinstance(obj, Tensor) and obj.shape is not None and len(obj.shape) in (2, 3):
        s = obj.shape
        guess = "L" if len(s) == 2 else {3: "RGB", 4: "RGBA"}.get(s[2]) if isinstance(s[2], int) else None
        return make_image(ctx, mode if isinstance(mode, str) else guess, s[0], s[1])
    return ctx.unknown("image from an array not understood")


@model("PIL.Image.open", "PIL.Image.new")
def image_open(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    # Image.new(mode, (width, height)) has a known size; open() does not
    if len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], (tuple, list)) and len(args[1]) == 2:
        return make_image(ctx, args[0], args[1][1], args[1][0])
    # the size of an image file is an input: one value per file the program is run on
    return make_image(ctx, None, ctx.fresh("height", kind=INPUT, lo=1, note=f"height of an image file PIL opens {ASSUMED_SIZE}"),
                      ctx.fresh("width", kind=INPUT, lo=1, note=f"width of an image file PIL opens {ASSUMED_SIZE}"))
