"""torchvision.datasets: lengths and item shapes of the standard datasets, ImageFolder with a
symbolic length and image size, FakeData from its arguments."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.pil import make_image
from pytea_ci.models.ranges import covers
from pytea_ci.models.registry import native_class
from pytea_ci.models.torch.data import Dataset
from pytea_ci.models.values import Instance
from pytea_ci.shapes.dim import INPUT, ITERATION, UNKNOWN, PInt
from pytea_ci.shapes.tensor import Tensor

# name -> (train length, test length, mode, height, width, classes)
STANDARD = {
    "MNIST": (60000, 10000, "L", 28, 28, 10), "FashionMNIST": (60000, 10000, "L", 28, 28, 10),
    "KMNIST": (60000, 10000, "L", 28, 28, 10), "EMNIST": (112800, 18800, "L", 28, 28, 47),
    "CIFAR10": (50000, 10000, "RGB", 32, 32, 10), "CIFAR100": (50000, 10000, "RGB", 32, 32, 100),
    "SVHN": (73257, 26032, "RGB", 32, 32, 10), "STL10": (5000, 8000, "RGB", 96, 96, 10),
}


def _apply(ctx: Ctx, self: Instance, img: Any, label: Any) -> Any:
    t, tt = self.attrs.get("transform"), self.attrs.get("target_transform")
    if t is not None:
        img = ctx.call(t, img)
    if tt is not None:
        label = ctx.call(tt, label)
    return (img, label)


def _raw_arrays(name: str, mode: str, n: Any, h: int, w: int) -> dict[str, Any]:
    """`.data` and `.targets` as torchvision stores them: MNIST-style sets keep uint8 tensors
    [N, H, W] and a label tensor (also under their legacy names `train_data`/`test_data` and
    `train_labels`/`test_labels`), CIFAR/SVHN/STL keep a uint8 ndarray [N, H, W, C] and a list."""
    if mode == "L":
        data, targets = Tensor((n, h, w), "uint8", device="cpu"), Tensor((n,), "int64", device="cpu")
        return {"data": data, "targets": targets, "train_data": data, "test_data": data, "train_labels": targets,
                "test_labels": targets}
    if name.startswith("CIFAR"):
        return {"data": Tensor((n, h, w, 3), "uint8", "numpy"), "targets": Tensor((n,), "int64", "numpy")}
    return {}


def _standard(name: str) -> None:
    n_train, n_test, mode, h, w, classes = STANDARD[name]

    def init(ctx: Ctx, self: Instance, root: Any = None, train: Any = True, transform: Any = None,
             target_transform: Any = None, download: Any = False, *args: Any, **kwargs: Any) -> None:
        split = kwargs.get("split")
        is_train = train is not False and split not in ("test", "val")
        n = PInt(n_train if is_train else n_test, ctx.span,
                 f"length of the {name} {'training' if is_train else 'test'} set")
        self.attrs.update(transform=transform, target_transform=target_transform, n=n,
                          classes=list(range(classes)), span=ctx.span, **_raw_arrays(name, mode, n, h, w))

    def __len__(ctx: Ctx, self: Instance) -> Any:
        return self.attrs["n"]

    def __getitem__(ctx: Ctx, self: Instance, idx: Any) -> Any:
        img = make_image(ctx, mode, PInt(h, self.attrs["span"], f"{name} image height"),
                         PInt(w, self.attrs["span"], f"{name} image width"))
        # a loader that meets every item in every epoch meets every class (each of these datasets holds
        # all of its classes): the label takes all of its values in every run, as an iteration symbol does
        kind = ITERATION if covers(idx, self.attrs["n"]) else UNKNOWN
        label = ctx.fresh("label", kind=kind, lo=0, hi=classes - 1, note=f"a {name} label ({classes} classes)")
        return _apply(ctx, self, img, label)

    body = {"init": init, "__len__": __len__, "__getitem__": __getitem__}
    native_class(f"torchvision.datasets.{name}", bases=(Dataset,))(type(name, (), body))


for _name in STANDARD:
    _standard(_name)


@native_class("torchvision.datasets.FakeData", bases=(Dataset,))
class FakeData:
    def init(ctx: Ctx, self: Instance, size: Any = 1000, image_size: Any = (3, 224, 224), num_classes: Any = 10,
             transform: Any = None, target_transform: Any = None, random_offset: Any = 0) -> None:
        self.attrs.update(n=size, image_size=image_size, transform=transform, target_transform=target_transform,
                          num_classes=num_classes)

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return self.attrs["n"]

    def __getitem__(ctx: Ctx, self: Instance, idx: Any) -> Any:  # noqa: N805
        c, h, w = tuple(self.attrs["image_size"])
        k = self.attrs["num_classes"]
        label = ctx.fresh("label", lo=0, hi=k - 1 if isinstance(k, int) and k > 0 else None, note="a FakeData label")
        return _apply(ctx, self, make_image(ctx, "L" if c == 1 else "RGB", h, w), label)


@native_class("torchvision.datasets.ImageFolder", "torchvision.datasets.DatasetFolder", identity_eq=True)
class ImageFolder:
    def init(ctx: Ctx, self: Instance, root: Any = None, transform: Any = None, target_transform: Any = None,
             *args: Any, **kwargs: Any) -> None:
        n = ctx.fresh("len_imagefolder", kind=INPUT, lo=1, note="number of images in the folder")
        self.attrs.update(n=n, transform=transform, target_transform=target_transform, classes=ctx.unknown("classes"))

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return self.attrs["n"]

    def __getitem__(ctx: Ctx, self: Instance, idx: Any) -> Any:  # noqa: N805
        # Photos in a folder differ in size: each item has its own height and width.
        img = make_image(ctx, "RGB", ctx.fresh("height", kind=INPUT, lo=1, note="height of an image in the folder"),
                         ctx.fresh("width", kind=INPUT, lo=1, note="width of an image in the folder"))
        return _apply(ctx, self, img, ctx.fresh("label"))
