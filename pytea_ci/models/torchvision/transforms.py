"""torchvision.transforms on PIL images and tensors, with torchvision's output-size rules
(e.g. `Resize(int)` scales the shorter side and keeps the aspect ratio)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.pil import CHANNELS, Image, make_image
from pytea_ci.models.prim import known, shape_of
from pytea_ci.models.registry import native_class
from pytea_ci.models import registry
from pytea_ci.models.values import Instance
from pytea_ci.shapes.dim import INPUT, UNKNOWN, Sym, Term, floordiv
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT

T = "torchvision.transforms"
ISUB = registry.get("torch.Tensor.__isub__")


def _hw(ctx: Ctx, x: Any) -> tuple[Any, Any] | None:
    if isinstance(x, Instance) and x.cls is Image:
        return x.attrs["height"], x.attrs["width"]
    if known(x) and len(shape_of(x)) >= 2:
        return shape_of(x)[-2], shape_of(x)[-1]
    return None


def _with_hw(ctx: Ctx, x: Any, h: Any, w: Any) -> Any:
    if isinstance(x, Instance) and x.cls is Image:
        return make_image(ctx, x.attrs["mode"], h, w)
    if isinstance(x, Tensor) and x.shape is not None:
        return x.with_shape(tuple(x.shape[:-2]) + (h, w))
    return ctx.unknown("transformed image")


def _size2(size: Any) -> tuple[Any, Any]:
    if isinstance(size, (tuple, list)):
        return (size[0], size[1]) if len(size) == 2 else (size[0], size[0])
    return size, size


@native_class(f"{T}.Compose", "torchvision.transforms.v2.Compose", identity_eq=True)
class Compose:
    def init(ctx: Ctx, self: Instance, transforms: Any) -> None:
        self.attrs["transforms"] = transforms

    def call(ctx: Ctx, self: Instance, x: Any) -> Any:
        items = ctx.iterate(self.attrs["transforms"])
        if items is None:
            return ctx.unknown("Compose of unknown transforms")
        for t in items:
            x = ctx.call(t, x)
        return x


def _transform(name: str, apply: Any, params: tuple[str, ...] = (), aliases: tuple[str, ...] = ()) -> None:
    """Register a transform class whose constructor stores `params` and whose call runs `apply`."""

    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        self.attrs.update(dict(zip(params, args)))
        self.attrs.update({k: v for k, v in kwargs.items()})

    def call(ctx: Ctx, self: Instance, x: Any, *rest: Any) -> Any:
        return apply(ctx, self.attrs, x)

    names = (f"{T}.{name}", f"torchvision.transforms.v2.{name}") + aliases
    native_class(*names)(type(name, (), {"init": init, "call": call}))


def to_tensor(ctx: Ctx, a: dict[str, Any], x: Any) -> Any:
    if isinstance(x, Instance) and x.cls is Image:
        mode = x.attrs["mode"]
        c = CHANNELS.get(mode) if isinstance(mode, str) else None
        return Tensor((c if c is not None else ctx.fresh("channels"), x.attrs["height"], x.attrs["width"]), "float32",
                      device="cpu")  # (a new tensor: on the CPU)
    if isinstance(x, Tensor) and x.lib == "numpy" and x.shape is not None:
        s = x.shape
        return Tensor((s[2], s[0], s[1]) if len(s) == 3 else (1,) + tuple(s), "float32", device="cpu")
    return x if isinstance(x, Tensor) else ctx.unknown("ToTensor of unknown input")


def normalize(ctx: Ctx, a: dict[str, Any], x: Any) -> Any:
    if not known(x):
        return x
    mean = a.get("mean")
    items = ctx.iterate(mean) if not isinstance(mean, Tensor) else None
    n = len(items) if items is not None else None
    if n is None:
        return x
    stat = Tensor((n, 1, 1))
    # torchvision normalises in place (`tensor.sub_(mean)`): the result must keep x's shape.
    return ISUB.fn(ctx, x, stat)


def resize(ctx: Ctx, a: dict[str, Any], x: Any) -> Any:
    hw = _hw(ctx, x)
    size = a.get("size")
    if hw is None:
        return ctx.unknown("Resize of unknown input")
    h, w = hw
    if isinstance(size, (tuple, list)) and len(size) == 2:
        return _with_hw(ctx, x, size[0], size[1])
    if isinstance(size, (tuple, list)) and len(size) == 1:
        size = size[0]
    if isinstance(h, int) and isinstance(w, int) and isinstance(size, int):
        if h <= w:
            return _with_hw(ctx, x, size, int(size * w / h))
        return _with_hw(ctx, x, int(size * h / w), size)
    # The shorter side becomes `size`, the other keeps the image's aspect ratio: it varies per image
    # when the image size does, and is unknown otherwise.
    kind = INPUT if any(isinstance(d, Sym) and d.kind == INPUT for d in (h, w)) else UNKNOWN
    if not isinstance(size, int):
        return _with_hw(ctx, x, ctx.fresh("resized_h", kind=kind, lo=1), ctx.fresh("resized_w", kind=kind, lo=1))
    # One side becomes `size`, the other at least `size` (not forking on which one is shorter).
    note = "side after Resize, which keeps each image's aspect ratio"
    return _with_hw(ctx, x, ctx.fresh("resized_h", kind=kind, lo=size, note=note),
                    ctx.fresh("resized_w", kind=kind, lo=size, note=note))


def crop(ctx: Ctx, a: dict[str, Any], x: Any) -> Any:
    h, w = _size2(a.get("size"))
    return _with_hw(ctx, x, h, w)


def random_crop(ctx: Ctx, a: dict[str, Any], x: Any) -> Any:
    """RandomCrop fails when the (padded) image is smaller than the crop, unless pad_if_needed."""
    h, w = _size2(a.get("size"))
    hw = _hw(ctx, x)
    padding = a.get("padding")
    if hw is not None and (padding is None or padding == 0) and a.get("pad_if_needed") is not True and all(
            isinstance(v, int) for v in (h, w, hw[0], hw[1])):
        ctx.require(h <= hw[0] and w <= hw[1], "RandomCrop", f"required crop size ({h}, {w}) is larger than input "
                    f"image size ({hw[0]}, {hw[1]})", INVALID_ARGUMENT)
    return _with_hw(ctx, x, h, w)


def pad(ctx: Ctx, a: dict[str, Any], x: Any) -> Any:
    hw = _hw(ctx, x)
    p = a.get("padding", 0)
    if hw is None or not isinstance(p, int):
        return ctx.unknown("Pad")
    return _with_hw(ctx, x, hw[0] + 2 * p, hw[1] + 2 * p)


def grayscale(ctx: Ctx, a: dict[str, Any], x: Any) -> Any:
    c = a.get("num_output_channels", 1)
    if isinstance(x, Instance) and x.cls is Image:
        return Instance(Image, {**x.attrs, "mode": "L" if c == 1 else "RGB"})
    if known(x) and len(shape_of(x)) >= 3:
        return x.with_shape(tuple(shape_of(x)[:-3]) + (c,) + tuple(shape_of(x)[-2:]))
    return x


def identity(ctx: Ctx, a: dict[str, Any], x: Any) -> Any:
    return x


def lambda_(ctx: Ctx, a: dict[str, Any], x: Any) -> Any:
    return ctx.call(a["lambd"], x)


_transform("ToTensor", to_tensor)
_transform("PILToTensor", to_tensor)
_transform("Normalize", normalize, ("mean", "std", "inplace"))
_transform("Resize", resize, ("size",))
for _crop in ("CenterCrop", "RandomResizedCrop", "FiveCrop_free"):
    if not _crop.endswith("_free"):
        _transform(_crop, crop, ("size",))
_transform("RandomCrop", random_crop, ("size", "padding", "pad_if_needed"))
_transform("Pad", pad, ("padding",))
_transform("Grayscale", grayscale, ("num_output_channels",))
_transform("Lambda", lambda_, ("lambd",))
for _name in ("RandomHorizontalFlip", "RandomVerticalFlip", "ColorJitter", "RandomRotation", "RandomAffine",
              "GaussianBlur", "RandomErasing", "RandomApply", "RandomGrayscale_keep", "ConvertImageDtype",
              "RandomPerspective", "AutoAugment", "RandAugment", "TrivialAugmentWide", "RandomInvert",
              "RandomPosterize", "RandomSolarize", "RandomAdjustSharpness", "RandomAutocontrast", "RandomEqualize",
              "ToPILImage", "AugMix", "ElasticTransform"):
    _transform(_name.replace("_keep", ""), identity)

_ = (Term, floordiv)
