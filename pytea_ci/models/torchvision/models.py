"""`torchvision.models` classifiers (`resnet18/34/50/101/152 vgg11/13/16/19(_bn) alexnet mobilenet_v2`)
as black boxes with the real input requirements and output shapes.

The parts users replace or take apart (`conv1`, `fc`, `classifier`, `children()`) are real module
models, so `model.fc = nn.Linear(model.fc.in_features, 10)` and `nn.Sequential(*list(m.children())[:-1])`
behave as in torchvision. The convolutional trunks are `_Stage` black boxes computing their output
size with the conv/pool window formula; a stage with batch norm needs a 4-D input and, when
training, more than one value per channel at every batch norm (the smallest size it reaches).
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import fmt, known, shape_of, tag, window_out
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.torch.nn.conv import _check_rank
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.values import Instance
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import prod

TM = "torchvision.models"

# A stage op: ("w", kernel, stride, padding) is a conv/pool window; ("bn",) a batch norm.
Op = tuple[Any, ...]


@native_class(f"{TM}._Stage", bases=(Module,))
class Stage:
    """A convolutional trunk known by its windows and channel counts, not layer by layer."""

    def init(ctx: Ctx, self: Instance, name: str, in_channels: Any, out_channels: Any, ops: list[Op]) -> None:
        self.attrs.update(training=True, name=name, in_channels=in_channels, out_channels=out_channels, ops=ops)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        a = self.attrs
        op = a["name"]
        if not known(input):
            return ctx.unknown(f"{op} of unknown input")
        has_bn = any(o[0] == "bn" for o in a["ops"])
        s = shape_of(input)
        if has_bn:
            ctx.require(len(s) == 4, op, f"expected 4D input (got {len(s)}D input {fmt(s)})", operands=(f"input: {fmt(s)}",))
        batched = _check_rank(ctx, input, 2, op)
        c = s[1] if batched else s[0]
        ctx.require(P.eq(c, a["in_channels"]), op, f"expected input {fmt(s)} to have {a['in_channels']!r} channels, but "
                    f"got {c!r} channels instead", operands=(f"input: {fmt(s)}",),
                    dims=(("input channels", c), ("in_channels", a["in_channels"])))
        h, w = s[-2], s[-1]
        for o in a["ops"]:
            if o[0] == "w":
                _, k, st, p = o
                h, w = (window_out(ctx, d, k, st, p, 1, op) for d in (h, w))
            elif a.get("training") is True and batched:
                ctx.require(P.ne(prod((s[0], h, w)), 1), op, f"expected more than 1 value per channel when training, "
                            f"got input size [{s[0]!r}, {a['out_channels']!r}, {h!r}, {w!r}] at a batch norm inside "
                            f"{op} (input {fmt(s)})", operands=(f"input: {fmt(s)}",), dims=(("batch size", s[0]),))
        lead = (s[0],) if batched else ()
        return input.with_shape(lead + (a["out_channels"], tag(h, ctx, f"{op} output height"),
                                       tag(w, ctx, f"{op} output width")))

    def __getitem__(ctx: Ctx, self: Instance, idx: Any) -> Any:
        return ctx.unknown(f"a layer inside torchvision's {self.attrs['name']}")


def _nn(name: str) -> Any:
    from pytea_ci.models.registry import lookup

    return lookup(f"torch.nn.{name}")


def _stage(ctx: Ctx, name: str, cin: Any, cout: Any, ops: list[Op]) -> Instance:
    return ctx.call(Stage, name, cin, cout, ops)  # type: ignore[no-any-return]


def _num_classes(kwargs: dict[str, Any]) -> Any:
    return kwargs.get("num_classes", 1000)


# ----- ResNet ----------------------------------------------------------------------------------------------

_RESNETS = {"resnet18": 1, "resnet34": 1, "resnet50": 4, "resnet101": 4, "resnet152": 4, "resnext50_32x4d": 4,
            "resnext101_32x8d": 4, "wide_resnet50_2": 4, "wide_resnet101_2": 4}


@native_class(f"{TM}.ResNet", f"{TM}.resnet.ResNet", bases=(Module,))
class ResNet:
    def init(ctx: Ctx, self: Instance, block: Any = None, layers: Any = None, num_classes: Any = 1000,
             *args: Any, expansion: Any = None, name: str = "ResNet", **kwargs: Any) -> None:
        # public form ResNet(block, layers, num_classes): BasicBlock expands by 1, Bottleneck by 4
        if expansion is None:
            qual = getattr(block, "qualname", "") or getattr(block, "name", "")
            expansion = 4 if qual.endswith("Bottleneck") else (1 if qual.endswith("BasicBlock") else None)
        e = expansion if isinstance(expansion, int) else 1
        self.attrs["training"] = True
        self.attrs["conv1"] = ctx.call(_nn("Conv2d"), 3, 64, 7, stride=2, padding=3, bias=False)
        self.attrs["bn1"] = ctx.call(_nn("BatchNorm2d"), 64)
        self.attrs["relu"] = ctx.call(_nn("ReLU"), inplace=True)
        self.attrs["maxpool"] = ctx.call(_nn("MaxPool2d"), 3, 2, 1)
        cin = 64
        for i, width in enumerate((64, 128, 256, 512), 1):
            ops: list[Op] = [("bn",)] if i == 1 else [("w", 3, 2, 1), ("bn",)]
            self.attrs[f"layer{i}"] = _stage(ctx, f"{name}.layer{i}", cin, width * e, ops)
            cin = width * e
        self.attrs["avgpool"] = ctx.call(_nn("AdaptiveAvgPool2d"), (1, 1))
        features = 512 * e if isinstance(expansion, int) else ctx.fresh("resnet_features")
        self.attrs["fc"] = ctx.call(_nn("Linear"), features, num_classes)

    def forward(ctx: Ctx, self: Instance, x: Any) -> Any:
        for part in ("conv1", "bn1", "relu", "maxpool", "layer1", "layer2", "layer3", "layer4", "avgpool"):
            x = ctx.call(ctx.getattr(self, part), x)
        from pytea_ci.models.torch.tensor import flatten

        return ctx.call(ctx.getattr(self, "fc"), flatten(ctx, x, 1) if known(x) else x)


def _resnet(name: str, expansion: int) -> None:
    def build(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
        return ctx.call(ResNet, num_classes=_num_classes(kwargs), expansion=expansion, name=name)

    model(f"{TM}.{name}", f"{TM}.resnet.{name}")(build)


for _name, _e in _RESNETS.items():
    _resnet(_name, _e)


# ----- VGG and AlexNet -------------------------------------------------------------------------------------

_VGG = {"vgg11": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
        "vgg13": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
        "vgg16": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
        "vgg19": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M"]}


def _classifier(ctx: Ctx, in_features: int, num_classes: Any, dropout_first: bool) -> Instance:
    lin, relu, drop = _nn("Linear"), _nn("ReLU"), _nn("Dropout")
    if dropout_first:  # AlexNet
        layers = [ctx.call(drop), ctx.call(lin, in_features, 4096), ctx.call(relu), ctx.call(drop),
                  ctx.call(lin, 4096, 4096), ctx.call(relu), ctx.call(lin, 4096, num_classes)]
    else:  # VGG
        layers = [ctx.call(lin, in_features, 4096), ctx.call(relu), ctx.call(drop), ctx.call(lin, 4096, 4096),
                  ctx.call(relu), ctx.call(drop), ctx.call(lin, 4096, num_classes)]
    return ctx.call(_nn("Sequential"), *layers)  # type: ignore[no-any-return]


@native_class(f"{TM}.VGG", f"{TM}.vgg.VGG", f"{TM}.AlexNet", f"{TM}.alexnet.AlexNet", bases=(Module,))
class VGG:
    """VGG and AlexNet share the layout features → avgpool → flatten → classifier."""

    def init(ctx: Ctx, self: Instance, name: str, ops: list[Op], pool: int, num_classes: Any = 1000) -> None:
        self.attrs["training"] = True
        channels = 256 if name == "alexnet" else 512
        self.attrs["features"] = _stage(ctx, f"{name}.features", 3, channels, ops)
        self.attrs["avgpool"] = ctx.call(_nn("AdaptiveAvgPool2d"), (pool, pool))
        self.attrs["classifier"] = _classifier(ctx, channels * pool * pool, num_classes, name == "alexnet")

    def forward(ctx: Ctx, self: Instance, x: Any) -> Any:
        x = ctx.call(ctx.getattr(self, "avgpool"), ctx.call(ctx.getattr(self, "features"), x))
        from pytea_ci.models.torch.tensor import flatten

        return ctx.call(ctx.getattr(self, "classifier"), flatten(ctx, x, 1) if known(x) else x)


def _vgg(name: str, cfg: list[Any], bn: bool) -> None:
    ops: list[Op] = []
    for v in cfg:
        ops.extend([("w", 2, 2, 0)] if v == "M" else ([("bn",)] if bn else []))
    full = f"{name}_bn" if bn else name

    def build(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
        return ctx.call(VGG, full, ops, 7, _num_classes(kwargs))

    model(f"{TM}.{full}", f"{TM}.vgg.{full}")(build)


for _name, _cfg in _VGG.items():
    _vgg(_name, _cfg, False)
    _vgg(_name, _cfg, True)

_ALEXNET_OPS: list[Op] = [("w", 11, 4, 2), ("w", 3, 2, 0), ("w", 5, 1, 2), ("w", 3, 2, 0), ("w", 3, 1, 1),
                          ("w", 3, 1, 1), ("w", 3, 1, 1), ("w", 3, 2, 0)]


@model(f"{TM}.alexnet", f"{TM}.alexnet.alexnet")
def alexnet(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return ctx.call(VGG, "alexnet", _ALEXNET_OPS, 6, _num_classes(kwargs))


# ----- MobileNetV2 -----------------------------------------------------------------------------------------

# First conv (stride 2), then the four stride-2 inverted-residual groups, each followed by batch norm.
_MOBILENET_OPS: list[Op] = [("w", 3, 2, 1), ("bn",)] + [("w", 3, 2, 1), ("bn",)] * 4


@native_class(f"{TM}.MobileNetV2", f"{TM}.mobilenetv2.MobileNetV2", bases=(Module,))
class MobileNetV2:
    def init(ctx: Ctx, self: Instance, num_classes: Any = 1000, *args: Any, **kwargs: Any) -> None:
        self.attrs.update(training=True, last_channel=1280)
        self.attrs["features"] = _stage(ctx, "mobilenet_v2.features", 3, 1280, _MOBILENET_OPS)
        self.attrs["classifier"] = ctx.call(_nn("Sequential"), ctx.call(_nn("Dropout"), 0.2),
                                            ctx.call(_nn("Linear"), 1280, num_classes))

    def forward(ctx: Ctx, self: Instance, x: Any) -> Any:
        from pytea_ci.models.torch.nn.conv import adaptive_forward
        from pytea_ci.models.torch.tensor import flatten

        x = ctx.call(ctx.getattr(self, "features"), x)
        if known(x):
            x = flatten(ctx, adaptive_forward(ctx, x, 2, (1, 1), "adaptive_avg_pool2d"), 1)
        return ctx.call(ctx.getattr(self, "classifier"), x)


@model(f"{TM}.mobilenet_v2", f"{TM}.mobilenetv2.mobilenet_v2")
def mobilenet_v2(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return ctx.call(MobileNetV2, _num_classes(kwargs))


# ----- pretrained-weight enums (only their names are used: `weights=ResNet18_Weights.DEFAULT`) -------------

_WEIGHTS = ["ResNet18", "ResNet34", "ResNet50", "ResNet101", "ResNet152", "VGG11", "VGG13", "VGG16", "VGG19",
            "VGG11_BN", "VGG13_BN", "VGG16_BN", "VGG19_BN", "AlexNet", "MobileNet_V2"]
for _w in _WEIGHTS:
    native_class(f"{TM}.{_w}_Weights")(type(f"{_w}_Weights", (), {"DEFAULT": f"{_w}_Weights.DEFAULT",
                                                                    "IMAGENET1K_V1": f"{_w}_Weights.IMAGENET1K_V1",
                                                                    "IMAGENET1K_V2": f"{_w}_Weights.IMAGENET1K_V2"}))
