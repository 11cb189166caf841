"""Convolutions, transposed convolutions and pooling (1-D, 2-D, 3-D), modules and functional forms.

Output sizes follow PyTorch's documented formulas; the input must be (N, C, *spatial) or the
unbatched (C, *spatial), with C equal to in_channels.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import INPUT_DTYPES, parameter, require_parameters
from pytea_ci.models.prim import (
    dim_arg,
    fmt,
    known,
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
from pytea_ci.shapes.dim import UNKNOWN, floordiv, is_dim
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT


def _check_rank(ctx: Ctx, x: Tensor, n: int, op: str) -> bool:
    s = shape_of(x)
    ctx.require(len(s) in (n + 1, n + 2), op, f"expected {n + 1}D (unbatched) or {n + 2}D (batched) input, but got "
                f"input of size {fmt(s)}", operands=(f"input: {fmt(s)}",))
    return len(s) == n + 2


def conv_forward(ctx: Ctx, x: Any, n: int, cfg: dict[str, Any], op: str, transposed: bool = False) -> Any:
    if not known(x):
        return ctx.unknown(f"{op} of unknown input")
    batched = _check_rank(ctx, x, n, op)
    require_parameters(ctx, op, x, cfg.get("weight"), INPUT_DTYPES)
    s = shape_of(x)
    c_in = s[1] if batched else s[0]
    want = cfg["in_channels"]
    ctx.require(P.and_(P.lt(0, want), P.lt(0, cfg["out_channels"])), op, f"non-empty weight tensor expected, but "
                f"in_channels is {want!r} and out_channels {cfg['out_channels']!r}", INVALID_ARGUMENT)
    ctx.require(P.eq(c_in, want), op, f"expected input {fmt(s)} to have {want!r} channels, but got {c_in!r} channels instead",
                operands=(f"input: {fmt(s)}",), dims=(("input channels", c_in), ("in_channels", want)))
    spatial = s[-n:]
    k, st, pd, dl = (tuple_arg(cfg[key], n) for key in ("kernel_size", "stride", "padding", "dilation"))
    if not all(is_dim(v) for v in k + st + dl + tuple(tuple_arg(cfg.get("output_padding", 0), n))) or \
            not all(is_dim(v) or v in ("same", "valid") for v in pd):
        return ctx.unknown(f"{op} with a window argument not known")  # (the channels were checked above)
    out: list[Any] = []
    for i, size in enumerate(spatial):
        if transposed:
            op_pad = tuple_arg(cfg.get("output_padding", 0), n)[i]
            size_out = (size - 1) * st[i] - 2 * pd[i] + dl[i] * (k[i] - 1) + op_pad + 1
            ctx.require(P.ge(size_out, 1), op, f"given input size {size!r}, calculated output size {size_out!r}: "
                        "output size is too small", INVALID_ARGUMENT, dims=(("input size", size), ("output size", size_out)))
            out.append(size_out)
        elif pd[i] == "same":
            out.append(size)
        else:
            p = 0 if pd[i] == "valid" else pd[i]
            out.append(window_out(ctx, size, k[i], st[i], p, dl[i], op))
    ctx.require(P.or_(P.eq(s[0], 0) if batched else False, P.and_(*(P.lt(0, size) for size in spatial))), op,
                f"Only zero batch or zero channel inputs are supported, but got input shape: {fmt(s)}",
                operands=(f"input: {fmt(s)}",))  # torch has no kernel for an empty image, padded or not
    lead = (s[0],) if batched else ()
    return x.with_shape(lead + (cfg["out_channels"],) + tuple(tag(d, ctx, f"{op} output size") for d in out))


def _check_conv_args(ctx: Ctx, op: str, c_in: Any, c_out: Any, groups: Any, stride: Any, padding: Any,
                     transposed: bool) -> None:
    """The constructor's own checks (torch raises ValueError before any input is seen)."""
    if isinstance(groups, int) and groups > 0:
        ctx.require(P.eq(c_in % groups, 0), op, f"in_channels ({c_in!r}) must be divisible by groups ({groups})", INVALID_ARGUMENT)
        ctx.require(P.eq(c_out % groups, 0), op, f"out_channels ({c_out!r}) must be divisible by groups ({groups})",
                    INVALID_ARGUMENT)
    if isinstance(padding, str):
        ctx.require(padding in ("same", "valid") and not transposed, op, f"invalid padding string {padding!r}", INVALID_ARGUMENT)
        strided = any(s != 1 for s in (stride if isinstance(stride, (tuple, list)) else (stride,)))
        ctx.require(not (padding == "same" and strided), op, "padding='same' is not supported for strided "
                    "convolutions", INVALID_ARGUMENT)


def _check_output_padding(ctx: Ctx, op: str, n: int, output_padding: Any, stride: Any, dilation: Any) -> None:
    for o, s, d in zip(tuple_arg(output_padding, n), tuple_arg(stride, n), tuple_arg(dilation, n)):
        if all(isinstance(v, int) for v in (o, s, d)):
            ctx.require(o < s or o < d, op, f"output padding must be smaller than either stride or dilation, but got "
                        f"output_padding={o}, stride={s}, dilation={d}", INVALID_ARGUMENT)


def _as_tuple(v: Any, n: int) -> Any:
    """What a conv layer keeps of a size argument (torch's `_ntuple`): a number for every spatial
    dim, a sequence as a tuple; a padding mode ("same") and values not understood as they came."""
    if is_dim(v) and not isinstance(v, bool):
        return (v,) * n
    return tuple(v) if isinstance(v, (tuple, list)) else v


def _conv_class(n: int, transposed: bool) -> None:
    name = f"ConvTranspose{n}d" if transposed else f"Conv{n}d"

    def init(ctx: Ctx, self: Instance, in_channels: Any, out_channels: Any, kernel_size: Any, stride: Any = 1,
             padding: Any = 0, *args: Any, **kwargs: Any) -> None:
        names = ("output_padding", "groups", "bias", "dilation") if transposed else ("dilation", "groups", "bias")
        extra = dict(zip(names, args))
        extra.update(kwargs)
        in_channels, out_channels = dim_arg(ctx, in_channels), dim_arg(ctx, out_channels)
        k = tuple(dim_arg(ctx, x) for x in tuple_arg(kernel_size, n))
        self.attrs.update(training=True, in_channels=in_channels, out_channels=out_channels, groups=extra.get("groups", 1),
                          **{key: _as_tuple(v, n) for key, v in (("kernel_size", kernel_size), ("stride", stride),
                             ("padding", padding), ("dilation", extra.get("dilation", 1)),
                             ("output_padding", extra.get("output_padding", 0)))})
        groups = extra.get("groups", 1)
        _check_conv_args(ctx, name, in_channels, out_channels, groups, stride, padding, transposed)
        if transposed:
            _check_output_padding(ctx, name, n, extra.get("output_padding", 0), stride, extra.get("dilation", 1))
        w = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        self.attrs["weight"] = parameter(ctx, Tensor(w + tuple(k)), extra)
        with_bias = flag(extra.get("bias", True))
        self.attrs["bias"] = parameter(ctx, Tensor((out_channels,)), extra) if with_bias is not False else None
        if with_bias is None:
            self.attrs[UNSURE] = True

    def forward(ctx: Ctx, self: Instance, input: Any, *args: Any) -> Any:
        return conv_forward(ctx, input, n, self.attrs, name, transposed)

    native_class(f"torch.nn.{name}", bases=(Module,))(type(name, (), {"init": init, "forward": forward}))
    _lazy_conv_class(n, name, init, forward)


_LAZY = "_lazy_parameters"  # a LazyConv before its first call: its constructor's arguments


def _lazy_conv_class(n: int, name: str, init: Any, forward: Any) -> None:
    """`LazyConv{n}d(out_channels, kernel_size, ...)` (and the transposed ones): the arguments of `Conv{n}d` after
    `in_channels`, which is the channel size of the first input (torch's `_get_in_channels`: `input.shape[1]`,
    `shape[0]` unbatched), when torch makes the weight; until then the weight is not a tensor."""
    lazy = f"Lazy{name}"

    def lazy_init(ctx: Ctx, self: Instance, out_channels: Any, *args: Any, **kwargs: Any) -> None:
        self.attrs.update(training=True, in_channels=0, out_channels=dim_arg(ctx, out_channels),
                          weight=ctx.unknown(f"{lazy}'s weight before its first call"),
                          bias=ctx.unknown(f"{lazy}'s bias before its first call"))
        self.attrs[_LAZY] = (out_channels, args, kwargs)

    def lazy_forward(ctx: Ctx, self: Instance, input: Any, *args: Any) -> Any:
        if _LAZY in self.attrs and known(input) and len(shape_of(input)) in (n + 1, n + 2):
            out_channels, a, kw = self.attrs.pop(_LAZY)
            s, training = shape_of(input), self.attrs.get("training")
            init(ctx, self, s[1] if len(s) == n + 2 else s[0], out_channels, *a, **kw)
            self.attrs["training"] = training  # `.eval()` before the first call stays
        if _LAZY in self.attrs:  # not made yet (an input not understood, or a rank torch rejects)
            return ctx.unknown(f"{lazy} before its weight is made")
        return forward(ctx, self, input, *args)

    native_class(f"torch.nn.{lazy}", bases=(Module,))(type(lazy, (), {"init": lazy_init, "forward": lazy_forward}))


for _n in (1, 2, 3):
    _conv_class(_n, False)
    _conv_class(_n, True)


def _f_conv(n: int, transposed: bool) -> Any:
    def run(ctx: Ctx, input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, *args: Any,
            **kwargs: Any) -> Any:
        if not known(weight):
            return ctx.unknown("conv with unknown weight")
        w = shape_of(weight)
        extra = {**dict(zip(("output_padding", "groups", "dilation") if transposed else ("dilation", "groups"), args)),
                 **kwargs}  # F.conv2d(x, w, b, stride, padding, dilation, groups): the order differs when transposed
        groups = extra.get("groups", 1)
        cfg = {"in_channels": w[0] if transposed else w[1] * groups, "out_channels": w[1] * groups if transposed else w[0],
               "kernel_size": tuple(w[2:]), "stride": stride, "padding": padding,
               "dilation": extra.get("dilation", 1), "output_padding": extra.get("output_padding", 0),
               "weight": weight}
        if transposed:
            _check_output_padding(ctx, f"conv_transpose{n}d", n, cfg["output_padding"], stride, cfg["dilation"])
        return conv_forward(ctx, input, n, cfg, f"conv{'_transpose' if transposed else ''}{n}d", transposed)

    return run


for _n in (1, 2, 3):
    model(f"torch.nn.functional.conv{_n}d", f"torch.conv{_n}d")(_f_conv(_n, False))
    model(f"torch.nn.functional.conv_transpose{_n}d", f"torch.conv_transpose{_n}d")(_f_conv(_n, True))


def pool_out(ctx: Ctx, size: Any, k: Any, s: Any, p: Any, d: Any, ceil_mode: bool, op: str) -> Any:
    """torch's pooling_output_shape: floor division of the padded extent (rounded up in ceil mode, where
    a last window starting in the right padding is dropped); the result must be at least 1."""
    extent = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    out = floordiv(extent, s) + 1
    if ceil_mode and isinstance(out, int) and isinstance(size, int) and isinstance(p, int) and (out - 1) * s >= size + p:
        out -= 1
    ctx.require(P.ge(out, 1), op, f"Given input size {size!r}, kernel_size={k!r}, stride={s!r}, padding={p!r}, "
                f"dilation={d!r}: calculated output size {out!r}. Output size is too small", INVALID_ARGUMENT,
                dims=(("input size", size), ("kernel size", k)))
    return out


def pool_forward(ctx: Ctx, x: Any, n: int, kernel: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: Any,
                 op: str) -> Any:
    if not known(x):
        return ctx.unknown(f"{op} of unknown input")
    _check_rank(ctx, x, n, op)
    s = shape_of(x)
    k = tuple_arg(kernel, n)
    st = tuple_arg(stride if stride not in (None, ()) else kernel, n)
    pd, dl = tuple_arg(padding, n), tuple_arg(dilation, n)
    for i in range(n):
        if isinstance(pd[i], int) and isinstance(k[i], int) and isinstance(dl[i], int):
            ctx.require(pd[i] <= k[i] // 2, op, f"pad should be at most half of effective kernel "
                        f"size, but got pad={pd[i]}, kernel_size={k[i]} and dilation={dl[i]}", INVALID_ARGUMENT)
    if not all(is_dim(v) for v in k + st + pd + dl):  # a window not understood: sizes not understood, no check
        return x.with_shape(tuple(s[:-n]) + tuple(ctx.fresh("size", UNKNOWN, 1, None, f"{op} output size, its window "
                                                            "not understood") for _ in range(n)))
    out = [pool_out(ctx, size, k[i], st[i], pd[i], dl[i], bool(ceil_mode), op) for i, size in enumerate(s[-n:])]
    return x.with_shape(tuple(s[:-n]) + tuple(tag(d, ctx, f"{op} output size") for d in out))


def _pool_class(kind: str, n: int) -> None:
    name = f"{kind}Pool{n}d"

    def init(ctx: Ctx, self: Instance, kernel_size: Any, stride: Any = None, padding: Any = 0, *args: Any,
             **kwargs: Any) -> None:
        names = ("dilation", "return_indices", "ceil_mode") if kind == "Max" else ("ceil_mode",)
        extra = dict(zip(names, args))
        extra.update(kwargs)
        self.attrs.update(training=True, kernel_size=kernel_size, stride=stride, padding=padding,
                          dilation=extra.get("dilation", 1), ceil_mode=extra.get("ceil_mode", False),
                          return_indices=extra.get("return_indices", False))

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        a = self.attrs
        out = pool_forward(ctx, input, n, a["kernel_size"], a["stride"], a["padding"], a["dilation"], a["ceil_mode"], name)
        return (out, out.with_shape(out.shape, "int64")) if a.get("return_indices") is True and isinstance(out, Tensor) else out

    native_class(f"torch.nn.{name}", bases=(Module,))(type(name, (), {"init": init, "forward": forward}))


def _f_pool(kind: str, n: int) -> Any:
    def run(ctx: Ctx, input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, *args: Any,
            **kwargs: Any) -> Any:
        names = ("dilation", "ceil_mode", "return_indices") if kind == "max" else ("ceil_mode",)
        extra = dict(zip(names, args))
        extra.update(kwargs)
        out = pool_forward(ctx, input, n, kernel_size, stride, padding, extra.get("dilation", 1),
                           extra.get("ceil_mode", False), f"{kind}_pool{n}d")
        return (out, out) if extra.get("return_indices") is True else out

    return run


for _n in (1, 2, 3):
    for _kind in ("Max", "Avg"):
        _pool_class(_kind, _n)
        model(f"torch.nn.functional.{_kind.lower()}_pool{_n}d", f"torch.{_kind.lower()}_pool{_n}d")(_f_pool(_kind.lower(), _n))


def _mean_rank(n: int, output_size: Any, avg: bool) -> int | None:
    """torch's adaptive average pool to size 1 (2-D, 3-D) is a mean over the last n dims, of any rank
    from n (`1`) or n + 1 (`(1, 1)`); None for the other pools."""
    if not avg or n == 1:
        return None
    def one(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v == 1

    if one(output_size):
        return n
    if isinstance(output_size, (tuple, list)) and len(output_size) == n and all(one(v) for v in output_size):
        return n + 1
    return None


def adaptive_forward(ctx: Ctx, x: Any, n: int, output_size: Any, op: str, avg: bool = False) -> Any:
    if not known(x):
        return ctx.unknown(f"{op} of unknown input")
    lowest = _mean_rank(n, output_size, avg)
    if lowest is None:
        _check_rank(ctx, x, n, op)
    else:
        ctx.require(len(shape_of(x)) >= lowest, op, f"expected an input of at least {lowest} dimensions, but got "
                    f"input of size {fmt(shape_of(x))}", operands=(f"input: {fmt(shape_of(x))}",))
    s = shape_of(x)
    size = tuple_arg(output_size, n)
    out = tuple(s[len(s) - n + i] if size[i] is None else size[i] for i in range(n))
    return x.with_shape(tuple(s[:-n]) + out)


def _adaptive_class(kind: str, n: int) -> None:
    name = f"Adaptive{kind}Pool{n}d"

    def init(ctx: Ctx, self: Instance, output_size: Any, return_indices: Any = False) -> None:
        self.attrs.update(training=True, output_size=output_size)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return adaptive_forward(ctx, input, n, self.attrs["output_size"], name, kind == "Avg")

    native_class(f"torch.nn.{name}", bases=(Module,))(type(name, (), {"init": init, "forward": forward}))


def _f_adaptive(n: int, avg: bool) -> Any:
    def run(ctx: Ctx, input: Any, output_size: Any, *args: Any, **kwargs: Any) -> Any:
        return adaptive_forward(ctx, input, n, output_size, f"adaptive_pool{n}d", avg)

    return run


for _n in (1, 2, 3):
    for _kind in ("Avg", "Max"):
        _adaptive_class(_kind, _n)
        model(f"torch.nn.functional.adaptive_{_kind.lower()}_pool{_n}d")(_f_adaptive(_n, _kind == "Avg"))
