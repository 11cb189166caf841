"""Normalisation layers: BatchNorm1d/2d/3d (incl. the one-sample-per-channel training rule),
LayerNorm, GroupNorm, InstanceNorm, and their functional forms (also `F.group_norm`, `F.instance_norm`,
`F.local_response_norm`)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import (creation_device, parameter, placed, require_floating,
                                          require_norm_parameters)
from pytea_ci.models.prim import fmt, known, shape_of
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.torch.reduction import NORM_FLOAT
from pytea_ci.models.torch.nn.parameters import UNSURE, flag
from pytea_ci.models.values import Instance
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import is_dim, prod
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT

_BN_RANKS = {1: (2, 3), 2: (4,), 3: (5,)}
_STATS = ("weight", "bias", "running_mean", "running_var")


def norm_state(ctx: Ctx, self: Instance, size: Any, affine: Any, stats: Any, kwargs: dict[str, Any],
               bias: Any = True) -> None:
    """A normalization layer's parameters (`affine`) and running statistics (`stats`), vectors of
    `size` made with the default (or `dtype=`) floating dtype and device."""
    dims = tuple(size) if isinstance(size, (tuple, list)) else (size,)
    vector = Tensor(dims if all(is_dim(d) for d in dims) else None)
    on, with_bias = flag(affine), flag(bias)  # torch tests them as `if affine:`
    if on is not False:
        self.attrs["weight"] = parameter(ctx, vector, kwargs)
        self.attrs["bias"] = parameter(ctx, vector, kwargs) if with_bias is not False else None
    if on is None or on and with_bias is None:
        self.attrs[UNSURE] = True
    if stats is not False:
        self.attrs["running_mean"] = parameter(ctx, vector, kwargs)
        self.attrs["running_var"] = parameter(ctx, vector, kwargs)


def norm_input(ctx: Ctx, op: str, kernel: str, x: Any, params: tuple[tuple[str, Any], ...]) -> None:
    """The dtype and device requirements of a normalization: a floating input (the kernels have no
    integer version on any machine), then its parameters' (dtype_device.require_norm_parameters)."""
    require_floating(ctx, op, x, "input", f'"{kernel}" not implemented for \'{{got}}\'')
    require_norm_parameters(ctx, op, x, params)


def _state(self: Instance) -> tuple[tuple[str, Any], ...]:
    return tuple((k, self.attrs.get(k)) for k in _STATS)


def _arg(args: tuple[Any, ...], kwargs: dict[str, Any], key: str, at: int, default: Any) -> Any:
    return kwargs.get(key, args[at] if len(args) > at else default)


def batch_norm(ctx: Ctx, x: Any, num_features: Any, training: Any, op: str, ranks: tuple[int, ...]) -> Any:
    if not known(x):
        return ctx.unknown(f"{op} of unknown input")
    s = shape_of(x)
    want = " or ".join(f"{r}D" for r in ranks)
    ctx.require(len(s) in ranks, op, f"expected {want} input (got {len(s)}D input {fmt(s)})", operands=(f"input: {fmt(s)}",))
    # torch returns an empty input as it is before it compares its channels (`_batch_norm_impl_index`)
    ctx.require(P.or_(P.eq(prod(s), 0), P.eq(s[1], num_features)), op, f"running_mean should contain {s[1]!r} elements not {num_features!r} "
                f"(input {fmt(s)}, num_features={num_features!r})", operands=(f"input: {fmt(s)}",),
                dims=(("input channels", s[1]), ("num_features", num_features)))
    if training is True:
        per_channel = prod((s[0],) + tuple(s[2:]))
        # (torch's `_verify_batch_size` rejects exactly one value per channel: an empty batch passes)
        ctx.require(P.ne(per_channel, 1), op, f"expected more than 1 value per channel when training, got input size {fmt(s)}",
                    operands=(f"input: {fmt(s)}",), dims=(("batch size", s[0]),))
    return x


def _bn_class(n: int) -> None:
    name = f"BatchNorm{n}d"

    def init(ctx: Ctx, self: Instance, num_features: Any, *args: Any, **kwargs: Any) -> None:
        affine, track = _arg(args, kwargs, "affine", 2, True), _arg(args, kwargs, "track_running_stats", 3, True)
        # what `_NormBase.__init__` keeps (timm's BatchNormAct2d reads them in its own forward)
        self.attrs.update(training=True, num_features=num_features, eps=_arg(args, kwargs, "eps", 0, 1e-5),
                          momentum=_arg(args, kwargs, "momentum", 1, 0.1), affine=affine, track_running_stats=track)
        norm_state(ctx, self, num_features, affine, track, kwargs)
        if flag(track) is True:
            self.attrs["num_batches_tracked"] = placed(ctx, Tensor((), "int64"), creation_device(ctx, kwargs),
                                                       "layer construction")
        elif flag(track) is False:
            self.attrs.update(running_mean=None, running_var=None, num_batches_tracked=None)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        norm_input(ctx, name, "batch_norm", input, _state(self))
        return batch_norm(ctx, input, self.attrs["num_features"], self.attrs.get("training"), name, _BN_RANKS[n])

    native_class(f"torch.nn.{name}", bases=(Module,))(type(name, (), {"init": init, "forward": forward}))
    lazy = f"Lazy{name}"

    def lazy_init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        """`LazyBatchNorm{n}d(eps, momentum, affine, track_running_stats)`: `num_features` is the first input's
        `shape[1]` (torch's `_LazyNormBase.initialize_parameters`), when torch makes the parameters."""
        self.attrs.update(training=True, num_features=0)
        self.attrs[_LAZY] = (args, kwargs)

    def lazy_forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        if _LAZY in self.attrs and known(input) and len(shape_of(input)) >= 2:
            args, kwargs = self.attrs.pop(_LAZY)
            training = self.attrs.get("training")
            init(ctx, self, shape_of(input)[1], *args, **kwargs)
            self.attrs["training"] = training  # `.eval()` before the first call stays
        if _LAZY in self.attrs:  # not made yet (an input not understood, or a rank torch rejects)
            return ctx.unknown(f"{lazy} before its parameters are made")
        return forward(ctx, self, input)

    native_class(f"torch.nn.{lazy}", bases=(Module,))(type(lazy, (), {"init": lazy_init, "forward": lazy_forward}))


_LAZY = "_lazy_parameters"  # a LazyBatchNorm before its first call: its constructor's arguments

for _n in (1, 2, 3):
    _bn_class(_n)


def _in_class(n: int) -> None:
    name = f"InstanceNorm{n}d"

    def init(ctx: Ctx, self: Instance, num_features: Any, *args: Any, **kwargs: Any) -> None:
        affine = kwargs.get("affine", args[2] if len(args) > 2 else False)
        track = kwargs.get("track_running_stats", args[3] if len(args) > 3 else False)
        self.attrs.update(training=True, num_features=num_features, affine=affine, track_running_stats=track)
        norm_state(ctx, self, num_features, affine, track, kwargs)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        norm_input(ctx, name, "batch_norm", input, _state(self))
        if not known(input):
            return ctx.unknown(name)
        s = shape_of(input)
        ctx.require(len(s) in (n + 1, n + 2), name, f"expected {n + 1}D or {n + 2}D input, got {fmt(input.shape)}")
        if self.attrs.get("affine") is True and len(s) in (n + 1, n + 2):
            c = s[-n - 1]  # with affine weights the channel count must match num_features
            ctx.require(P.eq(c, self.attrs["num_features"]), name, f"expected input's size at dim={len(s) - n - 1} to "
                        f"match num_features ({self.attrs['num_features']!r}), but got: {c!r}",
                        operands=(f"input: {fmt(s)}",))
        if self.attrs.get("training") is True or self.attrs.get("track_running_stats") is False:
            instance_stats(ctx, s, len(s) - n, name)
        return input

    native_class(f"torch.nn.{name}", bases=(Module,))(type(name, (), {"init": init, "forward": forward}))


def instance_stats(ctx: Ctx, s: tuple[Any, ...], first: int, op: str) -> None:
    """Statistics over each instance's own spatial elements (dims from `first` on) need more than one
    (torch's `_verify_spatial_size` rejects exactly one: an empty input passes)."""
    spatial = prod(tuple(s[first:]))
    ctx.require(P.ne(spatial, 1), op, f"expected more than 1 spatial element when training, got input size {fmt(s)}",
                operands=(f"input: {fmt(s)}",), dims=tuple(("spatial size", d) for d in s[first:]))


for _n in (1, 2, 3):
    _in_class(_n)


@model("torch.nn.functional.batch_norm")
def f_batch_norm(ctx: Ctx, input: Any, running_mean: Any, running_var: Any, weight: Any = None, bias: Any = None,
                 training: Any = False, *args: Any, **kwargs: Any) -> Any:
    norm_input(ctx, "batch_norm", "batch_norm", input, (("weight", weight), ("bias", bias),
                                                        ("running_mean", running_mean), ("running_var", running_var)))
    n = shape_of(running_mean)[0] if known(running_mean) else None
    if n is None:
        return input
    return batch_norm(ctx, input, n, training, "batch_norm", (2, 3, 4, 5))


def layer_norm(ctx: Ctx, x: Any, normalized_shape: Any, op: str) -> Any:
    if not known(x):
        return ctx.unknown(f"{op} of unknown input")
    ns = tuple(normalized_shape) if isinstance(normalized_shape, (tuple, list)) else (normalized_shape,)
    if not all(is_dim(n) for n in ns):  # d2l's `nn.LayerNorm(norm_shape)` of a size not understood
        return ctx.unknown(f"{op} with a normalized_shape not understood")
    s = shape_of(x)
    tail = s[len(s) - len(ns):] if len(ns) <= len(s) else None
    same = tail is not None and P.and_(*[P.eq(a, b) for a, b in zip(tail, ns)])
    ctx.require(same, op, f"given normalized_shape={list(ns)!r}, expected input with shape [*, "
                f"{', '.join(map(repr, ns))}], but got input of size {fmt(s)}", operands=(f"input: {fmt(s)}",),
                dims=tuple(("input", a) for a in (tail or ())) + tuple(("normalized_shape", b) for b in ns))
    return x


@native_class("torch.nn.LayerNorm", bases=(Module,))
class LayerNorm:
    def init(ctx: Ctx, self: Instance, normalized_shape: Any, *args: Any, **kwargs: Any) -> None:
        self.attrs.update(training=True, normalized_shape=normalized_shape)
        shape = normalized_shape if isinstance(normalized_shape, (tuple, list)) else (normalized_shape,)
        norm_state(ctx, self, shape, _arg(args, kwargs, "elementwise_affine", 1, True), False, kwargs,
                   _arg(args, kwargs, "bias", 2, True))

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        norm_input(ctx, "LayerNorm", "LayerNormKernelImpl", input, _state(self))
        return layer_norm(ctx, input, self.attrs["normalized_shape"], "LayerNorm")


@native_class("torch.nn.RMSNorm", bases=(Module,))
class RMSNorm:  # torch computes it in the input's dtype whatever its weight's: no dtype requirement
    def init(ctx: Ctx, self: Instance, normalized_shape: Any, *args: Any, **kwargs: Any) -> None:
        self.attrs.update(training=True, normalized_shape=normalized_shape)
        shape = normalized_shape if isinstance(normalized_shape, (tuple, list)) else (normalized_shape,)
        norm_state(ctx, self, shape, _arg(args, kwargs, "elementwise_affine", 1, True), False, kwargs, False)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return layer_norm(ctx, input, self.attrs["normalized_shape"], "RMSNorm")


@model("torch.nn.functional.layer_norm")
def f_layer_norm(ctx: Ctx, input: Any, normalized_shape: Any, weight: Any = None, bias: Any = None,
                 *args: Any, **kwargs: Any) -> Any:
    norm_input(ctx, "layer_norm", "LayerNormKernelImpl", input, (("weight", weight), ("bias", bias)))
    return layer_norm(ctx, input, normalized_shape, "layer_norm")


@model("torch.nn.functional.rms_norm")
def f_rms_norm(ctx: Ctx, input: Any, normalized_shape: Any, *args: Any, **kwargs: Any) -> Any:
    return layer_norm(ctx, input, normalized_shape, "rms_norm")


@native_class("torch.nn.GroupNorm", bases=(Module,))
class GroupNorm:
    def init(ctx: Ctx, self: Instance, num_groups: Any, num_channels: Any, *args: Any, **kwargs: Any) -> None:
        ctx.require(P.eq(num_channels % num_groups, 0), "GroupNorm", f"num_channels ({num_channels!r}) must be "
                    f"divisible by num_groups ({num_groups!r})", INVALID_ARGUMENT)
        self.attrs.update(training=True, num_groups=num_groups, num_channels=num_channels)
        norm_state(ctx, self, num_channels, _arg(args, kwargs, "affine", 1, True), False, kwargs)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        norm_input(ctx, "GroupNorm", "GroupNormKernelImpl", input, _state(self))
        if not known(input):
            return ctx.unknown("GroupNorm")
        s = shape_of(input)
        ctx.require(len(s) >= 2 and P.eq(s[1], self.attrs["num_channels"]), "GroupNorm",
                    f"expected input with {self.attrs['num_channels']!r} channels, got {fmt(s)}", operands=(f"input: {fmt(s)}",))
        if len(s) >= 2:  # torch rejects exactly one value per group, in eval mode too (an empty input passes)
            per_group = prod((s[0] * s[1] // self.attrs["num_groups"],) + tuple(s[2:]))
            ctx.require(P.ne(per_group, 1), "GroupNorm", f"expected more than 1 value per channel, got input size "
                        f"{fmt(s)}", INVALID_ARGUMENT, (f"input: {fmt(s)}",))
        return input


@native_class("torch.nn.LocalResponseNorm", bases=(Module,))
class LocalResponseNorm:
    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        self.attrs["training"] = True

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        if known(input):
            ctx.require(len(shape_of(input)) >= 3, "LocalResponseNorm", "expected 3D or higher dimensionality input "
                        f"(got {len(shape_of(input))} dimensions)", INVALID_ARGUMENT)
        return input


@model("torch.nn.functional.normalize")
def f_normalize(ctx: Ctx, input: Any, p: Any = 2.0, dim: Any = 1, *args: Any, **kwargs: Any) -> Any:
    from pytea_ci.models.prim import norm_dim

    require_floating(ctx, "normalize", input, "input", NORM_FLOAT)  # F.normalize divides by the vector norm
    if known(input):
        norm_dim(ctx, dim, len(shape_of(input)), "normalize")
    return input


# ----- functional norms ------------------------------------------------------------------------------------


@model("torch.nn.functional.group_norm", "torch.group_norm")
def f_group_norm(ctx: Ctx, input: Any, num_groups: Any, weight: Any = None, bias: Any = None, eps: Any = 1e-5) -> Any:
    if not known(input):
        return ctx.unknown("group_norm of unknown input")
    s = shape_of(input)
    ctx.require(len(s) >= 2, "group_norm", f"Expected at least 2 dimensions for input tensor but received {len(s)}",
                operands=(f"input: {fmt(s)}",))
    ctx.require(P.divides(num_groups, s[1]), "group_norm", f"Expected number of channels in input to be divisible by "
                f"num_groups, but got input of shape {fmt(s)} and num_groups={num_groups!r}",
                operands=(f"input: {fmt(s)}",), dims=(("channels", s[1]),))
    if known(weight):
        w = shape_of(weight)
        ctx.require(len(w) == 1 and P.eq(w[0], s[1]), "group_norm", f"Expected weight to be a vector of size equal to "
                    f"the number of channels in input, but got weight of shape {fmt(w)} and input of shape {fmt(s)}",
                    operands=(f"input: {fmt(s)}", f"weight: {fmt(w)}"))
    return input


@model("torch.nn.functional.instance_norm", "torch.instance_norm")
def f_instance_norm(ctx: Ctx, input: Any, *args: Any, **kwargs: Any) -> Any:
    if not known(input):
        return ctx.unknown("instance_norm of unknown input")
    s = shape_of(input)
    ctx.require(len(s) >= 2, "instance_norm", f"expected at least 2D input, got {fmt(s)}", operands=(f"input: {fmt(s)}",))
    if kwargs.get("use_input_stats", args[4] if len(args) > 4 else True) is True:
        instance_stats(ctx, s, 2, "instance_norm")
    return input


@model("torch.nn.functional.local_response_norm", "torch.local_response_norm")
def f_local_response_norm(ctx: Ctx, input: Any, size: Any, *args: Any, **kwargs: Any) -> Any:
    if not known(input):
        return ctx.unknown("local_response_norm of unknown input")
    s = shape_of(input)
    ctx.require(len(s) >= 3, "local_response_norm", f"Expected 3D or higher dimensionality input (got {len(s)} "
                "dimensions)", operands=(f"input: {fmt(s)}",))
    return input
