"""The vision functions of `torch.nn.functional` and their modules: nn.Upsample/F.interpolate,
nn.PixelShuffle/PixelUnshuffle, the padding modules and F.pad, F.grid_sample, F.affine_grid and
nn.ChannelShuffle/F.channel_shuffle. Sizes follow the formulas in torch's documentation."""

from __future__ import annotations

import math
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import (
    fmt,
    known,
    shape_of,
    tuple_arg,
)
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.values import Instance
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import UNKNOWN, Dim, floordiv, is_dim
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT

# ----- interpolate / Upsample ------------------------------------------------------------------------------


def _scaled(ctx: Ctx, size: Dim, scale: Any) -> Dim:
    if isinstance(scale, (int, float)) and float(scale).is_integer():
        return size * int(scale)
    if isinstance(size, int) and isinstance(scale, (int, float)):
        return math.floor(size * scale)
    return ctx.fresh("scaled", note="interpolate output size")


def interpolate_forward(ctx: Ctx, input: Any, size: Any, scale_factor: Any, op: str) -> Any:
    if not known(input):
        return ctx.unknown(f"{op} of unknown input")
    s = shape_of(input)
    n = len(s) - 2
    ctx.require(n >= 1, op, f"expected a 3D, 4D or 5D input, got {len(s)}D input {fmt(s)}", operands=(f"input: {fmt(s)}",))
    ctx.require((size is None) != (scale_factor is None), op,
                "only one of size or scale_factor should be defined" if size is not None
                else "either size or scale_factor should be defined", INVALID_ARGUMENT)
    if size is not None:
        if isinstance(size, (tuple, list)):
            ctx.require(len(size) == n, op, f"input and output must have the same number of spatial dimensions, but got "
                        f"input with spatial dimensions of {fmt(s[2:])} and output size of {list(size)}", INVALID_ARGUMENT)
        out = tuple_arg(size, n)
    else:
        if isinstance(scale_factor, (tuple, list)):
            ctx.require(len(scale_factor) == n, op, f"scale_factor has {len(scale_factor)} entries but the input has "
                        f"{n} spatial dimensions", INVALID_ARGUMENT)
        out = tuple(_scaled(ctx, d, f) for d, f in zip(s[2:], tuple_arg(scale_factor, n)))
    for d_in, d_out in zip(s[2:], out):
        if is_dim(d_out):
            ctx.require(P.ge(d_out, 1), op, f"Input and output sizes should be greater than 0, but got input "
                        f"{fmt(s[2:])} and output {list(out)}", operands=(f"input: {fmt(s)}",),
                        dims=(("input size", d_in), ("output size", d_out)))
    return input.with_shape(tuple(s[:2]) + tuple(out))


@native_class("torch.nn.Upsample", "torch.nn.UpsamplingNearest2d", "torch.nn.UpsamplingBilinear2d", bases=(Module,))
class Upsample:
    def init(ctx: Ctx, self: Instance, size: Any = None, scale_factor: Any = None, *args: Any, **kwargs: Any) -> None:
        self.attrs.update(training=True, size=size, scale_factor=scale_factor)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return interpolate_forward(ctx, input, self.attrs["size"], self.attrs["scale_factor"], "Upsample")


@model("torch.nn.functional.interpolate", "torch.nn.functional.upsample")
def interpolate(ctx: Ctx, input: Any, size: Any = None, scale_factor: Any = None, *args: Any, **kwargs: Any) -> Any:
    return interpolate_forward(ctx, input, size, scale_factor, "interpolate")


# ----- pixel shuffle ---------------------------------------------------------------------------------------


def pixel_shuffle_forward(ctx: Ctx, input: Any, r: Any, down: bool) -> Any:
    op = "pixel_unshuffle" if down else "pixel_shuffle"
    if not known(input) or not isinstance(r, int) or r <= 0:
        return ctx.unknown(f"{op} of unknown input")
    s = shape_of(input)
    ctx.require(len(s) >= 3, op, f"expects input to have at least 3 dimensions, but got input with {len(s)} dimension(s)",
                operands=(f"input: {fmt(s)}",))
    c, h, w = s[-3:]
    if down:
        for name, d in (("height", h), ("width", w)):
            ctx.require(P.eq(d % r, 0), op, f"expects {name} to be divisible by downscale_factor, but input {name} is "
                        f"{d!r} and downscale_factor={r}", operands=(f"input: {fmt(s)}",), dims=((name, d),))
        out = (c * r * r, floordiv(h, r), floordiv(w, r))
    else:
        ctx.require(P.eq(c % (r * r), 0), op, f"expects its input's 'channel' dimension to be divisible by the square "
                    f"of upscale_factor, but input.size(-3)={c!r} is not divisible by {r * r}",
                    operands=(f"input: {fmt(s)}",), dims=(("channels", c), ("upscale_factor^2", r * r)))
        out = (floordiv(c, r * r), h * r, w * r)
    return input.with_shape(tuple(s[:-3]) + out)


@native_class("torch.nn.PixelShuffle", bases=(Module,))
class PixelShuffle:
    def init(ctx: Ctx, self: Instance, upscale_factor: Any) -> None:
        self.attrs.update(training=True, upscale_factor=upscale_factor)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return pixel_shuffle_forward(ctx, input, self.attrs["upscale_factor"], False)


@native_class("torch.nn.PixelUnshuffle", bases=(Module,))
class PixelUnshuffle:
    def init(ctx: Ctx, self: Instance, downscale_factor: Any) -> None:
        self.attrs.update(training=True, downscale_factor=downscale_factor)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return pixel_shuffle_forward(ctx, input, self.attrs["downscale_factor"], True)


@model("torch.nn.functional.pixel_shuffle", "torch.pixel_shuffle")
def f_pixel_shuffle(ctx: Ctx, input: Any, upscale_factor: Any) -> Any:
    return pixel_shuffle_forward(ctx, input, upscale_factor, False)


@model("torch.nn.functional.pixel_unshuffle", "torch.pixel_unshuffle")
def f_pixel_unshuffle(ctx: Ctx, input: Any, downscale_factor: Any) -> Any:
    return pixel_shuffle_forward(ctx, input, downscale_factor, True)


# ----- padding ---------------------------------------------------------------------------------------------


def pad_forward(ctx: Ctx, input: Any, pad: Any, mode: str, op: str) -> Any:
    """`pad` lists (before, after) pairs starting from the last dimension."""
    if not known(input) or not isinstance(pad, (tuple, list)) or ctx.known_length(pad) != len(pad):
        return ctx.unknown(f"{op} of unknown input")  # (a padding list whose length is not known, too)
    s = list(shape_of(input))
    ctx.require(len(pad) % 2 == 0, op, f"padding length must be divisible by 2, got {len(pad)}", INVALID_ARGUMENT)
    ctx.require(len(pad) // 2 <= len(s), op, f"padding length ({len(pad)}) too large for a {len(s)}-D input", INVALID_ARGUMENT)
    if mode != "constant":
        k = len(pad) // 2
        ctx.require(len(s) in (k + 1, k + 2), op, f"Padding size {len(pad)} is not supported for {len(s)}D input tensor "
                    f"(mode {mode!r} pads the last {k} dims of a {k + 1}D or {k + 2}D input)",
                    operands=(f"input: {fmt(tuple(s))}",))
    for i in range(len(pad) // 2):
        d, lo, hi = s[-1 - i], pad[2 * i], pad[2 * i + 1]
        if not (is_dim(lo) and is_dim(hi)):  # a padding not understood: that size is not known
            s[-1 - i] = ctx.fresh("padded", UNKNOWN, 0, None, f"{op} output size, its padding not understood")
            continue
        if mode == "reflect":
            ctx.require(P.and_(P.lt(lo, d), P.lt(hi, d)), op, f"padding size should be less than the corresponding "
                        f"input dimension, but got padding ({lo!r}, {hi!r}) at dimension {len(s) - 1 - i} of input "
                        f"{fmt(tuple(s))}", operands=(f"input: {fmt(tuple(s))}",), dims=(("input size", d),))
        if mode == "circular":
            ctx.require(P.and_(P.le(lo, d), P.le(hi, d)), op, f"Padding value causes wrapping around more than once: "
                        f"padding ({lo!r}, {hi!r}) at dimension {len(s) - 1 - i} of input {fmt(tuple(s))}",
                        operands=(f"input: {fmt(tuple(s))}",), dims=(("input size", d),))
        if mode == "constant" and isinstance(lo, int) and isinstance(hi, int) and (lo < 0 or hi < 0):
            kept = d + min(lo, 0) + min(hi, 0)
            ctx.require(P.ge(kept, 0), op, f"negative padding ({lo}, {hi}) removes more than the input size {d!r} at "
                        f"dimension {len(s) - 1 - i} of input {fmt(tuple(s))}", operands=(f"input: {fmt(tuple(s))}",),
                        dims=(("input size", d),))
        new = d + lo + hi
        ctx.require(P.ge(new, 1) if mode != "constant" else P.ge(new, 0), op, f"the input size {d!r}, plus padding "
                    f"{lo!r} and {hi!r} resulted in an invalid output size {new!r}", operands=(f"input: {fmt(tuple(s))}",))
        s[-1 - i] = new
    return input.with_shape(tuple(s))


def _pad_class(kind: str, mode: str, n: int) -> None:
    name = f"{kind}Pad{n}d"

    def init(ctx: Ctx, self: Instance, padding: Any, value: Any = 0.0) -> None:
        self.attrs.update(training=True, padding=tuple_arg(padding, 2 * n) if isinstance(padding, int) else padding)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        if known(input) and mode != "constant":
            r = len(shape_of(input))
            ctx.require(r in (n + 1, n + 2), name, f"expected {n + 1}D or {n + 2}D input, got {r}D input",
                        operands=(f"input: {fmt(shape_of(input))}",))
        return pad_forward(ctx, input, self.attrs["padding"], mode, name)

    native_class(f"torch.nn.{name}", bases=(Module,))(type(name, (), {"init": init, "forward": forward}))


for _n in (1, 2, 3):
    for _kind, _mode in (("Zero", "constant"), ("Constant", "constant"), ("Reflection", "reflect"),
                         ("Replication", "replicate"), ("Circular", "circular")):
        _pad_class(_kind, _mode, _n)


@model("torch.nn.functional.pad")
def f_pad(ctx: Ctx, input: Any, pad: Any, mode: Any = "constant", value: Any = None) -> Any:
    return pad_forward(ctx, input, pad, mode if isinstance(mode, str) else "constant", "pad")


# ----- grid_sample / affine_grid ---------------------------------------------------------------------------


@model("torch.nn.functional.grid_sample", "torch.grid_sampler")
def grid_sample(ctx: Ctx, input: Any, grid: Any, *args: Any, **kwargs: Any) -> Any:
    op = "grid_sample"
    if not known(input, grid):
        return ctx.unknown(f"{op} of unknown input")
    si, sg = shape_of(input), shape_of(grid)
    ops = (f"input: {fmt(si)}", f"grid: {fmt(sg)}")
    ctx.require(len(si) in (4, 5), op, f"expected 4D or 5D input, but got input of size {fmt(si)}", operands=ops)
    ctx.require(len(sg) == len(si), op, f"expected grid to have the same number of dimensions as input "
                f"({len(si)}D), but got grid of size {fmt(sg)}", operands=ops)
    n = len(si) - 2
    ctx.require(P.eq(si[0], sg[0]), op, f"expected grid and input to have the same batch size, but got input with "
                f"sizes {fmt(si)} and grid with sizes {fmt(sg)}", operands=ops, dims=(("input batch", si[0]), ("grid batch", sg[0])))
    ctx.require(P.eq(sg[-1], n), op, f"expected grid to have size {n} in last dimension, but got grid with sizes "
                f"{fmt(sg)}", operands=ops, dims=(("grid last dim", sg[-1]),))
    return input.with_shape((si[0], si[1]) + tuple(sg[1:-1]))


@model("torch.nn.functional.affine_grid", "torch.affine_grid_generator")
def affine_grid(ctx: Ctx, theta: Any, size: Any, align_corners: Any = None) -> Any:
    op = "affine_grid"
    if not known(theta) or not isinstance(size, (tuple, list)):
        return ctx.unknown(f"{op} of unknown input")
    st = shape_of(theta)
    ctx.require(len(size) in (4, 5), op, f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine "
                f"transforms, respectively. Got size {list(size)}.", INVALID_ARGUMENT)
    n = len(size) - 2
    want = (size[0], n, n + 1)
    ok = len(st) == 3 and P.and_(*[P.eq(a, b) for a, b in zip(st, want)])
    ctx.require(ok, op, f"expected a batch of {n}D affine matrices of shape Nx{n}x{n + 1} for size {list(size)}. "
                f"Got {fmt(st)}.", operands=(f"theta: {fmt(st)}",))
    return theta.with_shape((size[0],) + tuple(size[2:]) + (n,))


# ----- channel_shuffle / ChannelShuffle ----------------------------------------------------------------


def channel_shuffle_forward(ctx: Ctx, input: Any, groups: Any) -> Any:
    op = "channel_shuffle"
    if not known(input):
        return ctx.unknown(f"{op} of unknown input")
    s = shape_of(input)
    ctx.require(len(s) > 2, op, f"channel_shuffle expects input to have at least 3 dimensions, but got input with "
                f"sizes {fmt(s)}", operands=(f"input: {fmt(s)}",))
    ctx.require(P.divides(groups, s[1]), op, f"Number of channels must be divisible by groups. Got {s[1]!r} channels "
                f"and {groups!r} groups.", operands=(f"input: {fmt(s)}",), dims=(("channels", s[1]),))
    return input


@native_class("torch.nn.ChannelShuffle", bases=(Module,))
class ChannelShuffle:
    def init(ctx: Ctx, self: Instance, groups: Any) -> None:
        self.attrs.update(training=True, groups=groups)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return channel_shuffle_forward(ctx, input, self.attrs["groups"])


@model("torch.nn.functional.channel_shuffle", "torch.channel_shuffle")
def f_channel_shuffle(ctx: Ctx, input: Any, groups: Any) -> Any:
    return channel_shuffle_forward(ctx, input, groups)
