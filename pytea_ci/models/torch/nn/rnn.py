"""Recurrent layers: nn.RNN/LSTM/GRU, their single-step cells, and the packing utilities of
`torch.nn.utils.rnn` (pack_padded_sequence, pad_packed_sequence, pad_sequence).

A PackedSequence is a native instance carrying the padded tensor it came from (time-major) so that
an RNN can check its features and pad_packed_sequence can give the padded tensor back.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import parameter, require_parameters
from pytea_ci.models.prim import fmt, known, shape_of
from pytea_ci.models.ranges import padded_values
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.values import Instance
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Dim, dmax
from pytea_ci.shapes.tensor import Tensor

Shape = tuple[Dim, ...]


def require_shape(ctx: Ctx, got: Shape, want: Shape, op: str, what: str) -> None:
    """`got` must equal `want` dim for dim (rank included)."""
    msg = f"expected {what} size {fmt(want)}, got {fmt(got)}"
    ops = (f"{what}: {fmt(got)}",)
    if len(got) != len(want):
        ctx.require(False, op, msg, operands=ops)
        return
    ctx.require(P.and_(*[P.eq(g, w) for g, w in zip(got, want)]), op, msg, operands=ops,
                dims=tuple((f"{what} dim {i}", g) for i, g in enumerate(got)))


def require_features(ctx: Ctx, x: Tensor, want: Any, op: str, what: str = "input") -> None:
    s = shape_of(x)
    ctx.require(P.eq(s[-1], want), op, f"{what}.size(-1) must be equal to {what}_size. Expected {want!r}, got {s[-1]!r}",
                operands=(f"{what}: {fmt(s)}",), dims=((f"{what} features", s[-1]), (f"{what}_size", want)))


# ----- PackedSequence --------------------------------------------------------------------------------------


@native_class("torch.nn.utils.rnn.PackedSequence")
class PackedSequence:
    def to(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return self

    cuda = cpu = to


def packed(padded: Tensor, lengths: Any = None) -> Instance:
    """A PackedSequence whose padded form is `padded` (time-major, [T, N, *])."""
    s = shape_of(padded)
    # data holds sum(lengths) time steps; T * N only bounds it, so without known lengths its size is unknown
    total = sum(lengths) if isinstance(lengths, (list, tuple)) and lengths and all(isinstance(x, int) for x in lengths) else None
    if isinstance(total, int) and len(s) >= 2:
        data = padded.with_shape((total,) + tuple(s[2:]))
    else:
        data = padded.with_shape(None) if len(s) < 2 else padded.with_shape((s[0] * s[1],) + tuple(s[2:]))
    return Instance(PackedSequence, {"padded": padded, "lengths": lengths, "data": data,
                                     "batch_sizes": Tensor((s[0],), "int64")})


def is_packed(v: Any) -> bool:
    return isinstance(v, Instance) and v.cls is PackedSequence


def time_major(ctx: Ctx, x: Tensor, batch_first: Any) -> Tensor:
    s = shape_of(x)
    return x.with_shape((s[1], s[0]) + tuple(s[2:])) if batch_first is True and len(s) >= 2 else x


@model("torch.nn.utils.rnn.pack_padded_sequence")
def pack_padded_sequence(ctx: Ctx, input: Any, lengths: Any, batch_first: Any = False, enforce_sorted: Any = True) -> Any:
    if not known(input) or len(shape_of(input)) < 2:
        return ctx.unknown("pack_padded_sequence of unknown input")
    tm = time_major(ctx, input, batch_first)
    if known(lengths) and len(shape_of(lengths)) != 1:
        ctx.require(False, "pack_padded_sequence", f"'lengths' argument should be a 1D tensor, got a "
                    f"{len(shape_of(lengths))}-D one", operands=(f"lengths: {fmt(shape_of(lengths))}",))
    got = shape_of(lengths)[0] if known(lengths) and len(shape_of(lengths)) == 1 else (
        len(lengths) if isinstance(lengths, (list, tuple)) else None)
    if got is not None:
        n = shape_of(tm)[1]
        if enforce_sorted is True:
            ctx.require(P.eq(got, n), "pack_padded_sequence", f"expected `lengths` to have {n!r} entries (the "
                        f"batch size) but got {got!r}", operands=(f"input: {fmt(shape_of(input))}", f"lengths: {fmt((got,))}"))
        else:  # unsorted: the rows are picked by the lengths' sort order, so only len(lengths) <= batch is needed
            ctx.require(P.le(got, n), "pack_padded_sequence", f"`lengths` has {got!r} entries, more than the batch "
                        f"size {n!r}", operands=(f"input: {fmt(shape_of(input))}", f"lengths: {fmt((got,))}"))
            if enforce_sorted is False:
                tm = tm.with_shape((shape_of(tm)[0], got) + tuple(shape_of(tm)[2:]))
    return packed(tm, lengths)


@model("torch.nn.utils.rnn.pack_sequence")
def pack_sequence(ctx: Ctx, sequences: Any, enforce_sorted: Any = True) -> Any:
    padded = pad_sequence(ctx, sequences)
    if not isinstance(padded, Tensor) or padded.shape is None:
        return ctx.unknown("pack_sequence")
    lengths = [shape_of(it)[0] for it in ctx.iterate(sequences) or []]
    return packed(padded, lengths)


@model("torch.nn.utils.rnn.pad_packed_sequence")
def pad_packed_sequence(ctx: Ctx, sequence: Any, batch_first: Any = False, padding_value: Any = 0.0,
                        total_length: Any = None) -> Any:
    if not is_packed(sequence):
        return ctx.unknown("pad_packed_sequence of an unknown sequence")
    s = shape_of(sequence.attrs["padded"])
    # The padded length is max(lengths), which is at most the original length.
    t = total_length if isinstance(total_length, int) else ctx.fresh(
        "max_len", lo=1, hi=s[0] if isinstance(s[0], int) else None, note="max(lengths) of a packed sequence")
    out = sequence.attrs["padded"].with_shape((t,) + tuple(s[1:]))
    return time_major(ctx, out, batch_first), Tensor((s[1],), "int64")


@model("torch.nn.utils.rnn.pad_sequence", values=padded_values)
def pad_sequence(ctx: Ctx, sequences: Any, batch_first: Any = False, padding_value: Any = 0.0,
                 padding_side: Any = "right") -> Any:
    items = ctx.iterate(sequences)
    if not items or not known(*items):
        return ctx.unknown("pad_sequence of unknown sequences")
    first = shape_of(items[0])
    longest: Dim = first[0] if first else 1
    for it in items[1:]:
        s = shape_of(it)
        require_shape(ctx, tuple(s[1:]), tuple(first[1:]), "pad_sequence", "trailing sequence")
        longest = dmax(longest, s[0]) if s else longest
    out = items[0].with_shape((longest, len(items)) + tuple(first[1:]))
    return time_major(ctx, out, batch_first)


# ----- nn.RNN / LSTM / GRU ---------------------------------------------------------------------------------


def _setup(ctx: Ctx, self: Instance, kind: str, input_size: Any, hidden_size: Any, num_layers: Any, batch_first: Any,
           bidirectional: Any, proj_size: Any = 0, kw: dict[str, Any] | None = None) -> None:
    self.attrs.update(training=True, kind=kind, input_size=input_size, hidden_size=hidden_size,
                      num_layers=num_layers, batch_first=batch_first, bidirectional=bidirectional,
                      proj_size=proj_size)
    # the first layer's input weights stand for all parameters: their dtype and device (its shape is not used)
    self.attrs["weight_ih_l0"] = parameter(ctx, Tensor(None), kw or {})


def _rnn_input(ctx: Ctx, input: Any, a: dict[str, Any], op: str) -> tuple[Tensor, bool, bool] | None:
    """The time-major input, whether it is batched, and whether it was packed."""
    if is_packed(input):
        return input.attrs["padded"], True, True
    if not known(input):
        return None
    s = shape_of(input)
    ctx.require(len(s) in (2, 3), op, f"expected input to be 2D or 3D, got {len(s)}D input instead",
                operands=(f"input: {fmt(s)}",))
    if len(s) == 2:
        return input, False, False
    return time_major(ctx, input, a["batch_first"]), True, False


def _check_hidden(ctx: Ctx, h: Any, want: Shape, op: str, what: str) -> None:
    if known(h):
        require_shape(ctx, shape_of(h), want, op, what)


def rnn_forward(ctx: Ctx, self: Instance, input: Any, hx: Any, op: str) -> Any:
    a = self.attrs
    got = _rnn_input(ctx, input, a, op)
    if got is None:
        return ctx.unknown(f"{op} of unknown input")
    x, batched, was_packed = got
    require_parameters(ctx, op, x, a.get("weight_ih_l0"), "RNN input dtype ({a}) does not match weight dtype ({b})")
    require_features(ctx, x, a["input_size"], op)
    s = shape_of(x)
    d = 2 if a["bidirectional"] is True else 1
    proj = a.get("proj_size") or 0
    h_out = proj if proj else a["hidden_size"]
    lead = (d * a["num_layers"],) + ((s[1],) if batched else ())
    if a["kind"] == "LSTM":
        pair = ctx.iterate(hx) if hx is not None else None
        if pair is not None and len(pair) == 2:
            _check_hidden(ctx, pair[0], lead + (h_out,), op, "hidden[0]")
            _check_hidden(ctx, pair[1], lead + (a["hidden_size"],), op, "hidden[1]")
        hidden: Any = (x.with_shape(lead + (h_out,)), x.with_shape(lead + (a["hidden_size"],)))
    else:
        if hx is not None:
            _check_hidden(ctx, hx, lead + (h_out,), op, "hidden")
        hidden = x.with_shape(lead + (h_out,))
    out = x.with_shape(tuple(s[:-1]) + (d * h_out,))
    if was_packed:
        return packed(out, input.attrs.get("lengths")), hidden
    return (time_major(ctx, out, a["batch_first"]) if batched else out), hidden


def _flatten_parameters(ctx: Ctx, self: Instance) -> Any:
    return None


@native_class("torch.nn.RNN", bases=(Module,))
class RNN:
    def init(ctx: Ctx, self: Instance, input_size: Any, hidden_size: Any, num_layers: Any = 1,
             nonlinearity: Any = "tanh", bias: Any = True, batch_first: Any = False, dropout: Any = 0.0,
             bidirectional: Any = False, **kw: Any) -> None:
        _setup(ctx, self, "RNN", input_size, hidden_size, num_layers, batch_first, bidirectional, kw=kw)
        self.attrs["bias"] = bias

    def forward(ctx: Ctx, self: Instance, input: Any, hx: Any = None) -> Any:
        return rnn_forward(ctx, self, input, hx, "RNN")

    flatten_parameters = _flatten_parameters


@native_class("torch.nn.LSTM", bases=(Module,))
class LSTM:
    def init(ctx: Ctx, self: Instance, input_size: Any, hidden_size: Any, num_layers: Any = 1, bias: Any = True,
             batch_first: Any = False, dropout: Any = 0.0, bidirectional: Any = False, proj_size: Any = 0,
             **kw: Any) -> None:
        _setup(ctx, self, "LSTM", input_size, hidden_size, num_layers, batch_first, bidirectional, proj_size, kw)
        self.attrs["bias"] = bias

    def forward(ctx: Ctx, self: Instance, input: Any, hx: Any = None) -> Any:
        return rnn_forward(ctx, self, input, hx, "LSTM")

    flatten_parameters = _flatten_parameters


@native_class("torch.nn.GRU", bases=(Module,))
class GRU:
    def init(ctx: Ctx, self: Instance, input_size: Any, hidden_size: Any, num_layers: Any = 1, bias: Any = True,
             batch_first: Any = False, dropout: Any = 0.0, bidirectional: Any = False, **kw: Any) -> None:
        _setup(ctx, self, "GRU", input_size, hidden_size, num_layers, batch_first, bidirectional, kw=kw)
        self.attrs["bias"] = bias

    def forward(ctx: Ctx, self: Instance, input: Any, hx: Any = None) -> Any:
        return rnn_forward(ctx, self, input, hx, "GRU")

    flatten_parameters = _flatten_parameters


# ----- cells -----------------------------------------------------------------------------------------------


def cell_forward(ctx: Ctx, self: Instance, input: Any, hx: Any, op: str) -> Any:
    if not known(input):
        return ctx.unknown(f"{op} of unknown input")
    s = shape_of(input)
    ctx.require(len(s) in (1, 2), op, f"expected input to be 1D or 2D, got {len(s)}D instead",
                operands=(f"input: {fmt(s)}",))
    require_features(ctx, input, self.attrs["input_size"], op)
    want = tuple(s[:-1]) + (self.attrs["hidden_size"],)
    states = (ctx.iterate(hx) or []) if op == "LSTMCell" and hx is not None else ([hx] if hx is not None else [])
    for i, h in enumerate(states):
        _check_hidden(ctx, h, want, op, f"hidden{i}")
    h = input.with_shape(want)
    return (h, h) if op == "LSTMCell" else h


def _cell_class(name: str) -> None:
    def init(ctx: Ctx, self: Instance, input_size: Any, hidden_size: Any, *args: Any, **kwargs: Any) -> None:
        self.attrs.update(training=True, input_size=input_size, hidden_size=hidden_size,
                          bias=kwargs.get("bias", args[0] if args else True))

    def forward(ctx: Ctx, self: Instance, input: Any, hx: Any = None) -> Any:
        return cell_forward(ctx, self, input, hx, name)

    native_class(f"torch.nn.{name}", bases=(Module,))(type(name, (), {"init": init, "forward": forward}))


for _name in ("RNNCell", "LSTMCell", "GRUCell"):
    _cell_class(_name)
