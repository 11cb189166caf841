"""Attention: nn.MultiheadAttention (and F.multi_head_attention_forward, what it runs), the Transformer
encoder/decoder layers and stacks, and F.scaled_dot_product_attention.

The Transformer layers are built from the MultiheadAttention check, so a layer reports exactly
what its self-/cross-attention would (embed_dim divisible by heads, mask shapes, batch sizes).
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import (broadcast_shapes, contiguous_strides, fmt, known, matmul_shapes, shape_of,
                                  with_strides)
from pytea_ci.models.registry import KEEPS, lookup, model, native_class
from pytea_ci.models.torch.devices import OFF_CPU
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.torch.nn.rnn import require_shape
from pytea_ci.models.values import Instance
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Dim
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT

Shape = tuple[Dim, ...]


def _check_heads(ctx: Ctx, embed_dim: Any, num_heads: Any) -> None:
    if isinstance(embed_dim, int) and isinstance(num_heads, int) and num_heads > 0:
        ctx.require(embed_dim % num_heads == 0, "MultiheadAttention",
                    f"embed_dim must be divisible by num_heads (embed_dim={embed_dim}, num_heads={num_heads})",
                    INVALID_ARGUMENT, dims=(("embed_dim", embed_dim), ("num_heads", num_heads)))


def _mha_attrs(ctx: Ctx, embed_dim: Any, num_heads: Any, batch_first: Any, kdim: Any = None,
               vdim: Any = None) -> dict[str, Any]:
    _check_heads(ctx, embed_dim, num_heads)
    return {"training": True, "embed_dim": embed_dim, "num_heads": num_heads, "batch_first": batch_first,
            "kdim": embed_dim if kdim is None else kdim, "vdim": embed_dim if vdim is None else vdim}


def _seq_first(x: Tensor, batch_first: Any) -> Shape:
    """The shape as (L, N, E) for batched inputs, (L, E) for unbatched ones."""
    s = shape_of(x)
    return (s[1], s[0], s[2]) if batch_first is True and len(s) == 3 else s


def _check_masks(ctx: Ctx, a: dict[str, Any], n: Dim | None, tgt: Dim, src: Dim, kpm: Any, mask: Any, op: str) -> None:
    if known(kpm):
        require_shape(ctx, shape_of(kpm), (n, src) if n is not None else (src,), op, "key_padding_mask")
    if not known(mask):
        return
    m = shape_of(mask)
    if len(m) == 3 and n is not None:
        require_shape(ctx, m, (n * a["num_heads"], tgt, src), op, "3D attn_mask")
    else:
        require_shape(ctx, m, (tgt, src), op, "2D attn_mask")


def mha_check(ctx: Ctx, a: dict[str, Any], query: Tensor, key: Tensor, value: Tensor, kpm: Any, mask: Any,
              op: str) -> Shape:
    """Check an attention call; returns the sequence-first query shape."""
    q, k, v = (_seq_first(t, a["batch_first"]) for t in (query, key, value))
    ctx.require(len(q) in (2, 3), op, f"query should be unbatched 2D or batched 3D tensor but received {len(q)}-D query "
                f"tensor", operands=(f"query: {fmt(q)}",))
    ctx.require(len(k) == len(q) and len(v) == len(q), op, f"key and value should be {len(q)}-D like the query, "
                f"got {fmt(k)} and {fmt(v)}", operands=(f"query: {fmt(q)}", f"key: {fmt(k)}", f"value: {fmt(v)}"))
    for what, t, want in (("query", q, a["embed_dim"]), ("key", k, a["kdim"]), ("value", v, a["vdim"])):
        ctx.require(P.eq(t[-1], want), op, f"was expecting {what} embedding dimension of {want!r}, but got {t[-1]!r}",
                    operands=(f"{what}: {fmt(t)}",), dims=((f"{what} embedding", t[-1]), ("expected", want)))
    require_shape(ctx, tuple(v[:-1]), tuple(k[:-1]), op, "value (sequence, batch)")
    n = q[1] if len(q) == 3 else None
    if n is not None:
        ctx.require(P.eq(k[1], n), op, f"key batch size {k[1]!r} does not match query batch size {n!r}",
                    operands=(f"query: {fmt(q)}", f"key: {fmt(k)}"), dims=(("key batch", k[1]), ("query batch", n)))
    _check_masks(ctx, a, n, q[0], k[0], kpm, mask, op)
    return q


def mha_forward(ctx: Ctx, a: dict[str, Any], query: Any, key: Any, value: Any, kpm: Any = None,
                need_weights: Any = True, mask: Any = None, average: Any = True, op: str = "MultiheadAttention") -> Any:
    if not known(query, key, value):
        return ctx.unknown(f"{op} of unknown input"), ctx.unknown(f"{op} weights")
    q = mha_check(ctx, a, query, key, value, kpm, mask, op)
    src = _seq_first(key, a["batch_first"])[0]
    if need_weights is False:
        weights: Any = None
    else:
        lead = (q[1],) if len(q) == 3 else ()
        heads = () if average is not False else (a["num_heads"],)
        weights = query.with_shape(lead + heads + (q[0], src))
    return query.with_shape(shape_of(query)[:-1] + (a["embed_dim"],)), weights


@native_class("torch.nn.MultiheadAttention", bases=(Module,))
class MultiheadAttention:
    def init(ctx: Ctx, self: Instance, embed_dim: Any, num_heads: Any, dropout: Any = 0.0, bias: Any = True,
             add_bias_kv: Any = False, add_zero_attn: Any = False, kdim: Any = None, vdim: Any = None,
             batch_first: Any = False, **kw: Any) -> None:
        self.attrs.update(_mha_attrs(ctx, embed_dim, num_heads, batch_first, kdim, vdim), bias=bias,
                          add_bias_kv=add_bias_kv)

    def forward(ctx: Ctx, self: Instance, query: Any, key: Any, value: Any, key_padding_mask: Any = None,
                need_weights: Any = True, attn_mask: Any = None, average_attn_weights: Any = True,
                is_causal: Any = False) -> Any:
        return mha_forward(ctx, self.attrs, query, key, value, key_padding_mask, need_weights, attn_mask,
                           average_attn_weights)


def _layer_attrs(ctx: Ctx, d_model: Any, nhead: Any, batch_first: Any) -> dict[str, Any]:
    return _mha_attrs(ctx, d_model, nhead, batch_first)


def _self_attend(ctx: Ctx, a: dict[str, Any], x: Any, mask: Any, kpm: Any, op: str) -> Any:
    if not known(x):
        return ctx.unknown(f"{op} of unknown input")
    mha_check(ctx, a, x, x, x, kpm, mask, op)
    return x


def _layer_parts(ctx: Ctx, self: Instance, d_model: Any, dim_feedforward: Any, dropout: Any, eps: Any,
                 norms: int) -> None:
    """The submodules torch's Transformer layers have (`linear1`, `norm1`, ...), which subclasses
    overriding `forward` use directly."""
    def make(name: str, *args: Any, **kwargs: Any) -> Any:
        return ctx.call(lookup(f"torch.nn.{name}"), *args, **kwargs)

    self.attrs.update(linear1=make("Linear", d_model, dim_feedforward), dropout=make("Dropout", dropout),
                      linear2=make("Linear", dim_feedforward, d_model))
    for i in range(1, norms + 1):
        self.attrs[f"norm{i}"] = make("LayerNorm", d_model, eps=eps)
        self.attrs[f"dropout{i}"] = make("Dropout", dropout)


def _ff_block(ctx: Ctx, self: Instance, x: Any) -> Any:
    """linear2(dropout(activation(linear1(x)))): the activation keeps the shape."""
    return ctx.call(self.attrs["linear2"], ctx.call(self.attrs["linear1"], x))


@native_class("torch.nn.TransformerEncoderLayer", bases=(Module,))
class TransformerEncoderLayer:
    def init(ctx: Ctx, self: Instance, d_model: Any, nhead: Any, dim_feedforward: Any = 2048, dropout: Any = 0.1,
             activation: Any = "relu", layer_norm_eps: Any = 1e-5, batch_first: Any = False, **kw: Any) -> None:
        self.attrs.update(_layer_attrs(ctx, d_model, nhead, batch_first), bias=kw.get("bias", True))
        _layer_parts(ctx, self, d_model, dim_feedforward, dropout, layer_norm_eps, 2)

    def forward(ctx: Ctx, self: Instance, src: Any, src_mask: Any = None, src_key_padding_mask: Any = None,
                is_causal: Any = False) -> Any:
        return _self_attend(ctx, self.attrs, src, src_mask, src_key_padding_mask, "TransformerEncoderLayer")

    def _sa_block(ctx: Ctx, self: Instance, x: Any, attn_mask: Any = None, key_padding_mask: Any = None,
                  is_causal: Any = False) -> Any:
        return _self_attend(ctx, self.attrs, x, attn_mask, key_padding_mask, "TransformerEncoderLayer")

    _ff_block = _ff_block


@native_class("torch.nn.TransformerDecoderLayer", bases=(Module,))
class TransformerDecoderLayer:
    def init(ctx: Ctx, self: Instance, d_model: Any, nhead: Any, dim_feedforward: Any = 2048, dropout: Any = 0.1,
             activation: Any = "relu", layer_norm_eps: Any = 1e-5, batch_first: Any = False, **kw: Any) -> None:
        self.attrs.update(_layer_attrs(ctx, d_model, nhead, batch_first), bias=kw.get("bias", True))
        _layer_parts(ctx, self, d_model, dim_feedforward, dropout, layer_norm_eps, 3)

    _ff_block = _ff_block

    def forward(ctx: Ctx, self: Instance, tgt: Any, memory: Any, tgt_mask: Any = None, memory_mask: Any = None,
                tgt_key_padding_mask: Any = None, memory_key_padding_mask: Any = None, tgt_is_causal: Any = False,
                memory_is_causal: Any = False) -> Any:
        op = "TransformerDecoderLayer"
        out = _self_attend(ctx, self.attrs, tgt, tgt_mask, tgt_key_padding_mask, op)
        if known(tgt, memory):
            mha_check(ctx, self.attrs, tgt, memory, memory, memory_key_padding_mask, memory_mask, op)
        return out


def _stack_init(ctx: Ctx, self: Instance, layer: Any, num_layers: Any, norm: Any) -> None:
    self.attrs.update(training=True, layers=[layer], num_layers=num_layers, norm=norm)


def _finish(ctx: Ctx, self: Instance, out: Any) -> Any:
    norm = self.attrs.get("norm")
    return ctx.call(norm, out) if norm is not None and isinstance(out, Tensor) else out


@native_class("torch.nn.TransformerEncoder", bases=(Module,))
class TransformerEncoder:
    """Every copy of the layer keeps the shape, so running one copy checks them all."""

    def init(ctx: Ctx, self: Instance, encoder_layer: Any, num_layers: Any, norm: Any = None, **kw: Any) -> None:
        _stack_init(ctx, self, encoder_layer, num_layers, norm)

    def forward(ctx: Ctx, self: Instance, src: Any, mask: Any = None, src_key_padding_mask: Any = None,
                is_causal: Any = None) -> Any:
        out = ctx.call(self.attrs["layers"][0], src, src_mask=mask, src_key_padding_mask=src_key_padding_mask)
        return _finish(ctx, self, out)


@native_class("torch.nn.TransformerDecoder", bases=(Module,))
class TransformerDecoder:
    def init(ctx: Ctx, self: Instance, decoder_layer: Any, num_layers: Any, norm: Any = None) -> None:
        _stack_init(ctx, self, decoder_layer, num_layers, norm)

    def forward(ctx: Ctx, self: Instance, tgt: Any, memory: Any, tgt_mask: Any = None, memory_mask: Any = None,
                tgt_key_padding_mask: Any = None, memory_key_padding_mask: Any = None, **kw: Any) -> Any:
        out = ctx.call(self.attrs["layers"][0], tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                       tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask)
        return _finish(ctx, self, out)


@model("torch.nn.functional.scaled_dot_product_attention", layout=KEEPS)  # it states its layout itself
def scaled_dot_product_attention(ctx: Ctx, query: Any, key: Any, value: Any, attn_mask: Any = None,
                                 dropout_p: Any = 0.0, is_causal: Any = False, scale: Any = None,
                                 enable_gqa: Any = False) -> Any:
    op = "scaled_dot_product_attention"
    if enable_gqa is True and known(query, key, value):
        key, value = _grouped(ctx, query, key, value, op)
    if not known(query, key, value):
        return ctx.unknown(f"{op} of unknown input")
    q, k, v = shape_of(query), shape_of(key), shape_of(value)
    if min(len(q), len(k), len(v)) < 2:
        return ctx.unknown(f"{op} of a 1-D input")
    scores = matmul_shapes(ctx, q, tuple(k[:-2]) + (k[-1], k[-2]), op)
    if known(attn_mask):
        broadcast_shapes(ctx, scores, shape_of(attn_mask), op, ("attention scores", "attn_mask"))
    out = matmul_shapes(ctx, scores, v, op)
    # With dropout the CPU has only the math kernel, whose output is a fresh matmul result (contiguous);
    # otherwise the kernel, and so the layout, depends on the inputs and the device (tests/oracle).
    cpu_math = isinstance(dropout_p, (int, float)) and not isinstance(dropout_p, bool) and dropout_p > 0 \
        and OFF_CPU not in ctx.facts and out is not None
    return with_strides(query, out, contiguous_strides(out) if cpu_math else None)  # type: ignore[arg-type]


def _grouped(ctx: Ctx, query: Tensor, key: Tensor, value: Tensor, op: str) -> tuple[Any, Any]:
    """`enable_gqa=True`: key and value heads (dim -3) repeated up to the query's, which they must
    divide (torch: "Number of heads in key and value must divide the number of heads in query");
    not known when a head count is not, or an input has fewer than 3 dims (torch: IndexError)."""
    q, k, v = shape_of(query), shape_of(key), shape_of(value)
    if min(len(q), len(k), len(v)) < 3:
        return None, None
    hq, hk, hv = q[-3], k[-3], v[-3]
    if not all(isinstance(h, int) and h > 0 for h in (hq, hk, hv)):
        return (key, value) if hk is hq and hv is hq else (None, None)
    ctx.require(hq % hk == 0 and hq % hv == 0, op, f"the number of heads in key ({hk}) and value ({hv}) must "
                f"divide the number of heads in query ({hq})", INVALID_ARGUMENT)
    return key.with_shape(k[:-3] + (hq,) + k[-2:]), value.with_shape(v[:-3] + (hq,) + v[-2:])


@model("torch.nn.functional.multi_head_attention_forward")
def f_multi_head_attention_forward(ctx: Ctx, query: Any, key: Any, value: Any, embed_dim_to_check: Any, num_heads: Any,
                                   in_proj_weight: Any, in_proj_bias: Any, bias_k: Any, bias_v: Any, add_zero_attn: Any,
                                   dropout_p: Any, out_proj_weight: Any, out_proj_bias: Any, *args: Any,
                                   **kwargs: Any) -> Any:
    """What `nn.MultiheadAttention` runs: sequence-first (L, N, E) inputs checked like the module's,
    an output of out_proj_weight's width and (N, L, S) weights (per head unless averaged)."""
    separate = kwargs.get("use_separate_proj_weight") is True
    kdim = shape_of(kwargs["k_proj_weight"])[-1] if separate and known(kwargs.get("k_proj_weight")) else embed_dim_to_check
    vdim = shape_of(kwargs["v_proj_weight"])[-1] if separate and known(kwargs.get("v_proj_weight")) else embed_dim_to_check
    a = {"embed_dim": embed_dim_to_check, "num_heads": num_heads, "batch_first": False, "kdim": kdim, "vdim": vdim}
    if isinstance(embed_dim_to_check, int) and isinstance(num_heads, int) and num_heads > 0:
        ctx.require(embed_dim_to_check % num_heads == 0, "multi_head_attention_forward", f"embed_dim {embed_dim_to_check} "
                    f"not divisible by num_heads {num_heads}", INVALID_ARGUMENT)
    out, weights = mha_forward(ctx, a, query, key, value, kwargs.get("key_padding_mask"), kwargs.get("need_weights", True),
                               kwargs.get("attn_mask"), kwargs.get("average_attn_weights", True),
                               "multi_head_attention_forward")
    if isinstance(out, Tensor) and known(out, out_proj_weight) and len(shape_of(out_proj_weight)) == 2:
        out = out.with_shape(shape_of(out)[:-1] + (shape_of(out_proj_weight)[0],))
    return out, weights


@native_class("torch.nn.attention.flex_attention.BlockMask")
class BlockMask:
    """flex_attention's block-sparse mask, a class of its own (built by `create_block_mask`, not modeled):
    `isinstance(None, (torch.Tensor, BlockMask))` is False (transformers' masking utilities ask it of
    an attention mask not given)."""
