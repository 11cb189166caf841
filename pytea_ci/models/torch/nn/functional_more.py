"""Sliding-block, sampling and bilinear layers with their functional forms: `F.unfold`/`nn.Unfold`,
`F.fold`/`nn.Fold`, `F.grid_sample`, `F.affine_grid`, `F.bilinear`/`nn.Bilinear`, `F.glu`/`nn.GLU`,
`nn.Softmax2d`, `nn.ChannelShuffle`, and the functional norms `group_norm instance_norm
local_response_norm`. Sizes follow the formulas in torch's documentation."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import (
    fmt,
    known,
    norm_dim,
    shape_of,
    tag,
    tuple_arg,
    window_out,
)
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.torch.nn.parameters import UNSURE, flag
from pytea_ci.models.values import Instance
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Dim, floordiv, prod
from pytea_ci.shapes.tensor import Tensor

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
                f"transforms, respectively. Got size {list(size)}.", "PT003")
    n = len(size) - 2
    want = (size[0], n, n + 1)
    ok = len(st) == 3 and P.and_(*[P.eq(a, b) for a, b in zip(st, want)])
    ctx.require(ok, op, f"expected a batch of {n}D affine matrices of shape Nx{n}x{n + 1} for size {list(size)}. "
                f"Got {fmt(st)}.", operands=(f"theta: {fmt(st)}",))
    return theta.with_shape((size[0],) + tuple(size[2:]) + (n,))


# ----- bilinear --------------------------------------------------------------------------------------------


def bilinear_forward(ctx: Ctx, x1: Any, x2: Any, weight: Any, op: str) -> Any:
    if not known(x1, x2, weight):
        return ctx.unknown(f"{op} of unknown input")
    a, b, w = shape_of(x1), shape_of(x2), shape_of(weight)
    ops = (f"input1: {fmt(a)}", f"input2: {fmt(b)}", f"weight: {fmt(w)}")
    ctx.require(len(a) == len(b) and len(a) >= 1, op, f"bilinear(): input dimensions do not match: got {len(a)} "
                f"and {len(b)}", operands=ops)
    ctx.require(P.and_(*[P.eq(x, y) for x, y in zip(a[:-1], b[:-1])]), op, f"bilinear(): input batch dimensions do "
                f"not match: got {fmt(a[:-1])} and {fmt(b[:-1])}", operands=ops)
    ctx.require(len(w) == 3, op, f"bilinear(): weight must be 3-D, got {fmt(w)}", operands=ops)
    ctx.require(P.eq(a[-1], w[1]), op, f"bilinear(): input1 size does not match weight size: got {a[-1]!r} but "
                f"expected {w[1]!r}", operands=ops, dims=(("input1 features", a[-1]), ("in1_features", w[1])))
    ctx.require(P.eq(b[-1], w[2]), op, f"bilinear(): input2 size does not match weight size: got {b[-1]!r} but "
                f"expected {w[2]!r}", operands=ops, dims=(("input2 features", b[-1]), ("in2_features", w[2])))
    return x1.with_shape(tuple(a[:-1]) + (w[0],))


@model("torch.nn.functional.bilinear", "torch.bilinear")
def f_bilinear(ctx: Ctx, input1: Any, input2: Any, weight: Any, bias: Any = None) -> Any:
    return bilinear_forward(ctx, input1, input2, weight, "bilinear")


@native_class("torch.nn.Bilinear", bases=(Module,))
class Bilinear:
    def init(ctx: Ctx, self: Instance, in1_features: Any, in2_features: Any, out_features: Any, bias: Any = True,
             **kw: Any) -> None:
        self.attrs.update(training=True, in1_features=in1_features, in2_features=in2_features,
                          out_features=out_features, weight=Tensor((out_features, in1_features, in2_features)),
                          bias=Tensor((out_features,)) if flag(bias) is not False else None)
        if flag(bias) is None:
            self.attrs[UNSURE] = True

    def forward(ctx: Ctx, self: Instance, input1: Any, input2: Any) -> Any:
        return bilinear_forward(ctx, input1, input2, self.attrs["weight"], "Bilinear")


# ----- GLU, Softmax2d, ChannelShuffle ----------------------------------------------------------------------


def glu_forward(ctx: Ctx, input: Any, dim: Any) -> Any:
    if not known(input):
        return ctx.unknown("glu of unknown input")
    s = shape_of(input)
    ctx.require(len(s) >= 1, "glu", "glu does not support scalars because halving size must be even", "PT003")
    d = norm_dim(ctx, dim, len(s), "glu")
    if d is None:
        return ctx.unknown("glu over an unknown dim")
    ctx.require(P.divides(2, s[d]), "glu", f"Halving dimension must be even, but dimension {d} is size {s[d]!r}",
                operands=(f"input: {fmt(s)}",), dims=(("size", s[d]),))
    return input.with_shape(s[:d] + (floordiv(s[d], 2),) + s[d + 1:])


@model("torch.nn.functional.glu")
def f_glu(ctx: Ctx, input: Any, dim: Any = -1) -> Any:
    return glu_forward(ctx, input, dim)


@native_class("torch.nn.GLU", bases=(Module,))
class GLU:
    def init(ctx: Ctx, self: Instance, dim: Any = -1) -> None:
        self.attrs.update(training=True, dim=dim)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return glu_forward(ctx, input, self.attrs["dim"])


@native_class("torch.nn.Softmax2d", bases=(Module,))
class Softmax2d:
    def init(ctx: Ctx, self: Instance) -> None:
        self.attrs["training"] = True

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        if known(input):
            s = shape_of(input)
            ctx.require(len(s) in (3, 4), "Softmax2d", f"Softmax2d: expected input to be 3D or 4D, got {len(s)}D "
                        "instead", operands=(f"input: {fmt(s)}",))
        return input


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
        from pytea_ci.models.torch.nn.norm import instance_stats

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


@model("torch.nn.functional.multi_head_attention_forward")
def f_multi_head_attention_forward(ctx: Ctx, query: Any, key: Any, value: Any, embed_dim_to_check: Any, num_heads: Any,
                                   in_proj_weight: Any, in_proj_bias: Any, bias_k: Any, bias_v: Any, add_zero_attn: Any,
                                   dropout_p: Any, out_proj_weight: Any, out_proj_bias: Any, *args: Any,
                                   **kwargs: Any) -> Any:
    """What `nn.MultiheadAttention` runs: sequence-first (L, N, E) inputs checked like the module's,
    an output of out_proj_weight's width and (N, L, S) weights (per head unless averaged)."""
    from pytea_ci.models.torch.nn.attention import mha_forward

    separate = kwargs.get("use_separate_proj_weight") is True
    kdim = shape_of(kwargs["k_proj_weight"])[-1] if separate and known(kwargs.get("k_proj_weight")) else embed_dim_to_check
    vdim = shape_of(kwargs["v_proj_weight"])[-1] if separate and known(kwargs.get("v_proj_weight")) else embed_dim_to_check
    a = {"embed_dim": embed_dim_to_check, "num_heads": num_heads, "batch_first": False, "kdim": kdim, "vdim": vdim}
    if isinstance(embed_dim_to_check, int) and isinstance(num_heads, int) and num_heads > 0:
        ctx.require(embed_dim_to_check % num_heads == 0, "multi_head_attention_forward", f"embed_dim {embed_dim_to_check} "
                    f"not divisible by num_heads {num_heads}", "PT003")
    out, weights = mha_forward(ctx, a, query, key, value, kwargs.get("key_padding_mask"), kwargs.get("need_weights", True),
                               kwargs.get("attn_mask"), kwargs.get("average_attn_weights", True),
                               "multi_head_attention_forward")
    if isinstance(out, Tensor) and known(out, out_proj_weight) and len(shape_of(out_proj_weight)) == 2:
        out = out.with_shape(shape_of(out)[:-1] + (shape_of(out_proj_weight)[0],))
    return out, weights
