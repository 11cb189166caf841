"""`torch.nn.modules.fold`: the sliding-block layers with their functional forms, `F.unfold`/`nn.Unfold`
(im2col) and `F.fold`/`nn.Fold` (col2im). Sizes follow the formulas in torch's documentation."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import (
    fmt,
    known,
    shape_of,
    tag,
    tuple_arg,
    window_out,
)
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.values import Instance
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Dim, floordiv, prod

# ----- unfold / fold (im2col / col2im) ---------------------------------------------------------------------


def _blocks(ctx: Ctx, spatial: tuple[Dim, ...], k: Any, d: Any, p: Any, s: Any, op: str) -> list[Dim]:
    ks, ds, ps, ss = (tuple_arg(v, 2) for v in (k, d, p, s))
    return [window_out(ctx, spatial[i], ks[i], ss[i], ps[i], ds[i], op) for i in range(2)]


def unfold_forward(ctx: Ctx, input: Any, kernel_size: Any, dilation: Any, padding: Any, stride: Any) -> Any:
    op = "unfold"
    if not known(input):
        return ctx.unknown(f"{op} of unknown input")
    s = shape_of(input)
    ctx.require(len(s) in (3, 4), op, f"Input Error: Only 3D or 4D input Tensors are supported (got {len(s)}D)",
                operands=(f"input: {fmt(s)}",))
    blocks = _blocks(ctx, s[-2:], kernel_size, dilation, padding, stride, op)
    k = tuple_arg(kernel_size, 2)
    out = (s[-3] * k[0] * k[1], tag(prod(blocks), ctx, "number of sliding blocks"))
    return input.with_shape(tuple(s[:-3]) + out)


def fold_forward(ctx: Ctx, input: Any, output_size: Any, kernel_size: Any, dilation: Any, padding: Any,
                 stride: Any) -> Any:
    op = "fold"
    if not known(input):
        return ctx.unknown(f"{op} of unknown input")
    s = shape_of(input)
    ctx.require(len(s) in (2, 3), op, f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported "
                f"(got {len(s)}D)", operands=(f"input: {fmt(s)}",))
    k = tuple_arg(kernel_size, 2)
    kk = k[0] * k[1]
    cols, length = s[-2], s[-1]
    ctx.require(P.divides(kk, cols), op, f"expected size of input's dimension 1 to be divisible by the product of "
                f"kernel_size, but got input.size(1)={cols!r} and kernel_size={tuple(k)}", operands=(f"input: {fmt(s)}",),
                dims=(("input.size(-2)", cols), ("kernel area", kk)))
    osize = tuple_arg(output_size, 2)
    blocks = _blocks(ctx, osize, kernel_size, dilation, padding, stride, op)
    ctx.require(P.eq(length, prod(blocks)), op, f"given output_size={tuple(osize)}, kernel_size={tuple(k)}, the "
                f"number of sliding blocks is {prod(blocks)!r}, but input.size(-1)={length!r}",
                operands=(f"input: {fmt(s)}",), dims=(("input.size(-1)", length), ("blocks", prod(blocks))))
    return input.with_shape(tuple(s[:-2]) + (floordiv(cols, kk),) + tuple(osize))


@model("torch.nn.functional.unfold")
def f_unfold(ctx: Ctx, input: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Any:
    return unfold_forward(ctx, input, kernel_size, dilation, padding, stride)


@model("torch.nn.functional.fold")
def f_fold(ctx: Ctx, input: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
           stride: Any = 1) -> Any:
    return fold_forward(ctx, input, output_size, kernel_size, dilation, padding, stride)


@native_class("torch.nn.Unfold", bases=(Module,))
class Unfold:
    def init(ctx: Ctx, self: Instance, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> None:
        self.attrs.update(training=True, kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        a = self.attrs
        return unfold_forward(ctx, input, a["kernel_size"], a["dilation"], a["padding"], a["stride"])


@native_class("torch.nn.Fold", bases=(Module,))
class Fold:
    def init(ctx: Ctx, self: Instance, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
             stride: Any = 1) -> None:
        self.attrs.update(training=True, output_size=output_size, kernel_size=kernel_size, dilation=dilation,
                          padding=padding, stride=stride)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        a = self.attrs
        return fold_forward(ctx, input, a["output_size"], a["kernel_size"], a["dilation"], a["padding"], a["stride"])


