"""Shape-simple layers: Linear, Identity, Flatten, Unflatten, Dropout*, Embedding, and every activation
(one table line each), with their functional forms; nn.Bilinear/F.bilinear, nn.GLU/F.glu, nn.Softmax2d
and nn.EmbeddingBag."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import parameter, require_cpu_floating, require_dtype_in, require_parameters
from pytea_ci.models.index_checks import count_bins, require_indices, require_values
from pytea_ci.models.prim import dim_arg, fmt, known, norm_dim, shape_of, tag
from pytea_ci.models.registry import CONTIGUOUS, KEEPS, REGISTRY, facets, model, native_class
from pytea_ci.models.torch.elementwise import unary, unary_model
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.torch.nn.parameters import UNSURE, flag
from pytea_ci.models.torch.tensor import flatten, unflatten
from pytea_ci.models.values import Instance, StaticMethod
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import floordiv, is_dim
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT


def linear_forward(ctx: Ctx, x: Any, weight: Any, bias: Any, op: str) -> Any:
    if not known(x, weight):
        return ctx.unknown(f"{op} of unknown input")
    s, w = shape_of(x), shape_of(weight)
    if len(w) != 2:
        return ctx.unknown("linear with a non-matrix weight")
    out_f, in_f = w
    ctx.require(len(s) >= 1, op, "input must have at least one dimension", INVALID_ARGUMENT)
    require_parameters(ctx, op, x, weight)
    last = s[-1]
    rows = "x".join(repr(d) for d in s[:-1]) or "1"
    ctx.require(P.eq(last, in_f), op,
                f"input has {last!r} features in its last dimension but in_features is {in_f!r} "
                f"(mat1 and mat2 shapes cannot be multiplied: {rows}x{last!r} and {in_f!r}x{out_f!r})",
                operands=(f"input: {fmt(s)}", f"weight: {fmt(w)}"),
                dims=(("input features", last), ("in_features", in_f)))
    return x.with_shape(s[:-1] + (out_f,))


@native_class("torch.nn.Linear", bases=(Module,))
class Linear:
    def init(ctx: Ctx, self: Instance, in_features: Any, out_features: Any, bias: Any = True, **kw: Any) -> None:
        in_features, out_features = dim_arg(ctx, in_features), dim_arg(ctx, out_features)
        self.attrs.update(training=True, in_features=in_features, out_features=out_features,
                          weight=parameter(ctx, Tensor((out_features, in_features)), kw),
                          bias=parameter(ctx, Tensor((out_features,)), kw) if flag(bias) is not False else None)
        if flag(bias) is None:
            self.attrs[UNSURE] = True

    @facets(layout=CONTIGUOUS)  # addmm into a fresh output
    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return linear_forward(ctx, input, self.attrs.get("weight"), self.attrs.get("bias"), "Linear")


_LAZY = "_lazy_parameters"  # LazyLinear before its first call: (bias, constructor keywords)


@native_class("torch.nn.LazyLinear", bases=(Linear,))
class LazyLinear:
    """`LazyLinear(out_features, bias=True)`: `in_features` is the last dim of the first input, when torch
    makes the weight; until then the weight is not a tensor (torch's UninitializedParameter)."""

    def init(ctx: Ctx, self: Instance, out_features: Any, bias: Any = True, **kw: Any) -> None:
        self.attrs.update(training=True, in_features=0, out_features=dim_arg(ctx, out_features),
                          weight=ctx.unknown("LazyLinear's weight before its first call"),
                          bias=None if flag(bias) is False else ctx.unknown("LazyLinear's bias before its first call"))
        self.attrs[_LAZY] = (bias, kw)

    @facets(layout=CONTIGUOUS)
    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        if _LAZY in self.attrs and known(input) and shape_of(input):
            bias, kw = self.attrs.pop(_LAZY)
            in_f, out_f = shape_of(input)[-1], self.attrs["out_features"]
            self.attrs.update(in_features=in_f, weight=parameter(ctx, Tensor((out_f, in_f)), kw),
                              bias=parameter(ctx, Tensor((out_f,)), kw) if flag(bias) is not False else None)
            if flag(bias) is None:
                self.attrs[UNSURE] = True
        return linear_forward(ctx, input, self.attrs.get("weight"), self.attrs.get("bias"), "Linear")


@model("torch.nn.functional.linear", layout=CONTIGUOUS)  # addmm into a fresh output
def f_linear(ctx: Ctx, input: Any, weight: Any, bias: Any = None) -> Any:
    return linear_forward(ctx, input, weight, bias, "linear")


@native_class("torch.nn.Identity", bases=(Module,))
class Identity:
    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        self.attrs["training"] = True

    @facets(layout=KEEPS)  # the tensor it was given
    def forward(ctx: Ctx, self: Instance, input: Any, *args: Any) -> Any:
        return input


@native_class("torch.nn.Flatten", bases=(Module,))
class Flatten:
    def init(ctx: Ctx, self: Instance, start_dim: Any = 1, end_dim: Any = -1) -> None:
        self.attrs.update(training=True, start_dim=start_dim, end_dim=end_dim)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return flatten(ctx, input, self.attrs["start_dim"], self.attrs["end_dim"])


@native_class("torch.nn.Unflatten", bases=(Module,))
class Unflatten:
    def init(ctx: Ctx, self: Instance, dim: Any, unflattened_size: Any) -> None:
        self.attrs.update(training=True, dim=dim, sizes=unflattened_size)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return unflatten(ctx, input, self.attrs["dim"], self.attrs["sizes"])


def _shape_preserving(name: str) -> None:
    """Register an nn module whose forward keeps the input shape (activations, dropout)."""

    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        self.attrs["training"] = True
        if name == "PReLU":
            self.attrs["num_parameters"] = kwargs.get("num_parameters", args[0] if args else 1)
        if "Dropout" in name:  # `module.p`, read by code that switches dropout off
            self.attrs.update(p=kwargs.get("p", args[0] if args else 0.5),
                              inplace=kwargs.get("inplace", args[1] if len(args) > 1 else False))

    def forward(ctx: Ctx, self: Instance, input: Any, *args: Any, **kwargs: Any) -> Any:
        if known(input) and name == "Dropout1d":
            s = shape_of(input)
            ctx.require(len(s) in (2, 3), "dropout1d", f"expected 2D or 3D input, but received a {len(s)}D input",
                        INVALID_ARGUMENT)
        n = self.attrs.get("num_parameters")
        if known(input) and name == "PReLU" and isinstance(n, int) and n != 1 and len(shape_of(input)) >= 2:
            c = shape_of(input)[1]
            ctx.require(P.eq(c, n), "PReLU", f"mismatch of parameter numbers and input channel size: found "
                        f"parameter numbers = {n} and channel size = {c!r}", operands=(f"input: {fmt(shape_of(input))}",))
        return unary(ctx, name.lower(), input)

    native_class(f"torch.nn.{name}", bases=(Module,))(type(name, (), {"init": init, "forward": forward}))


ACTIVATIONS = ("ReLU ReLU6 LeakyReLU PReLU ELU SELU CELU GELU SiLU Mish Sigmoid Tanh Softplus Softsign Hardswish "
               "Hardsigmoid Hardtanh LogSigmoid Tanhshrink Softshrink Hardshrink Threshold RReLU GLU_free "
               "Dropout Dropout1d Dropout2d Dropout3d AlphaDropout FeatureAlphaDropout").split()
for _name in ACTIVATIONS:
    if not _name.endswith("_free"):
        _shape_preserving(_name)


@native_class("torch.nn.Softmax", "torch.nn.LogSoftmax", "torch.nn.Softmin", bases=(Module,))
class Softmax:
    def init(ctx: Ctx, self: Instance, dim: Any = None) -> None:
        self.attrs.update(training=True, dim=dim)

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        from pytea_ci.models.torch.reduction import softmax

        return softmax(ctx, input, self.attrs["dim"])


@model("torch.nn.functional.relu", "torch.nn.functional.relu6", "torch.nn.functional.sigmoid",
       "torch.nn.functional.tanh", "torch.nn.functional.hardtanh", "torch.nn.functional.dropout",
       "torch.nn.functional.dropout1d", "torch.nn.functional.dropout2d", "torch.nn.functional.dropout3d",
       "torch.nn.functional.alpha_dropout", "torch.nn.functional.relu_", "torch.nn.functional.prelu",
       "torch.nn.functional.softsign", "torch.nn.functional.threshold", "torch.dropout")
def f_activation(ctx: Ctx, input: Any, *args: Any, **kwargs: Any) -> Any:
    return unary(ctx, "relu", input)


for _name in ("elu", "selu", "leaky_relu", "gelu", "silu", "mish", "softplus", "hardswish", "celu", "logsigmoid",
              "hardsigmoid", "rrelu", "leaky_relu_"):  # their CPU kernels take floating dtypes only (elementwise.py)
    model(f"torch.nn.functional.{_name}")(unary_model(_name))


def embedding_forward(ctx: Ctx, input: Any, weight: Any, op: str) -> Any:
    if not known(input, weight):
        return ctx.unknown(f"{op} of unknown input")
    w = shape_of(weight)
    require_dtype_in(ctx, op, input, ("int64", "int32"), "indices", "Expected tensor for argument #1 'indices' to "
                     "have one of the following scalar types: Long, Int; but got {got} instead")
    if w:
        require_indices(ctx, input, w[0], op, "the indices", "the number of embeddings")
    return Tensor(shape_of(input) + (w[-1],), weight.dtype)


@native_class("torch.nn.Embedding", bases=(Module,))
class Embedding:
    def init(ctx: Ctx, self: Instance, num_embeddings: Any, embedding_dim: Any, padding_idx: Any = None,
             *args: Any, **kwargs: Any) -> None:
        num_embeddings, embedding_dim = dim_arg(ctx, num_embeddings), dim_arg(ctx, embedding_dim)
        if is_dim(padding_idx) and is_dim(num_embeddings):  # torch asserts it is an index into the table
            ctx.require(P.and_(P.lt(padding_idx, num_embeddings), P.le(-num_embeddings, padding_idx)), "Embedding",
                        f"padding_idx ({padding_idx!r}) must be within num_embeddings ({num_embeddings!r})", INVALID_ARGUMENT)
        self.attrs.update(training=True, num_embeddings=num_embeddings, embedding_dim=embedding_dim,
                          weight=Tensor((num_embeddings, tag(embedding_dim, ctx, "embedding_dim"))).as_parameter())
        if padding_idx is None or isinstance(padding_idx, int) and (padding_idx >= 0 or isinstance(num_embeddings, int)):
            # torch keeps a negative padding_idx as its position from the start
            self.attrs["padding_idx"] = padding_idx if padding_idx is None or padding_idx >= 0 \
                else num_embeddings + padding_idx

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        # `self.weight`, as torch's forward reads it: a subclass that skipped this __init__ may have set it
        # otherwise (peft's LoraEmbeddingATPHolder, through `_parameters`), or not at all
        return embedding_forward(ctx, input, ctx.getattr(self, "weight"), "Embedding")


@model("torch.nn.functional.embedding")
def f_embedding(ctx: Ctx, input: Any, weight: Any, *args: Any, **kwargs: Any) -> Any:
    return embedding_forward(ctx, input, weight, "embedding")


@model("torch.nn.functional.one_hot")
def one_hot(ctx: Ctx, tensor: Any, num_classes: Any = -1) -> Any:
    if not known(tensor):
        return ctx.unknown("one_hot")
    given = is_dim(num_classes) and not isinstance(num_classes, bool) and not (isinstance(num_classes, int)
                                                                              and num_classes < 0)
    if given:
        require_indices(ctx, tensor, num_classes, "one_hot", "the class values", "num_classes")
    require_dtype_in(ctx, "one_hot", tensor, ("int64",), "tensor",
                     "one_hot is only applicable to index tensor of type LongTensor (got {got})")
    if not given:
        require_values(ctx, tensor, 0, None, "one_hot", "Class values must be non-negative: the class values",
                       "and one_hot counts the classes from 0", ())
    inferred = count_bins(ctx, tensor, 0) if not given else None  # num_classes=-1: the largest value + 1
    n = num_classes if given else (inferred if inferred is not None else ctx.fresh("classes"))
    return Tensor(shape_of(tensor) + (n,), "int64")


@model("torch.nn.Embedding.from_pretrained")
def embedding_from_pretrained(ctx: Ctx, embeddings: Any, freeze: Any = True, padding_idx: Any = None,
                              *args: Any, **kwargs: Any) -> Any:
    """An Embedding whose table is the given 2-D tensor: (num_embeddings, embedding_dim)."""
    if not known(embeddings):
        return ctx.unknown("Embedding.from_pretrained of an unknown tensor")
    s = shape_of(embeddings)
    ctx.require(len(s) == 2, "Embedding.from_pretrained", f"Embeddings parameter is expected to be 2-dimensional, got "
                f"{fmt(s)}", INVALID_ARGUMENT, operands=(f"embeddings: {fmt(s)}",))
    emb = ctx.call(Embedding, s[0], s[1])
    if isinstance(emb, Instance):
        emb.attrs["weight"] = embeddings
    return emb


REGISTRY["torch.nn.Embedding"].ns["from_pretrained"] = StaticMethod(REGISTRY["torch.nn.Embedding.from_pretrained"])


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
                          out_features=out_features, weight=Tensor((out_features, in1_features, in2_features)).as_parameter(),
                          bias=Tensor((out_features,)).as_parameter() if flag(bias) is not False else None)
        if flag(bias) is None:
            self.attrs[UNSURE] = True

    def forward(ctx: Ctx, self: Instance, input1: Any, input2: Any) -> Any:
        return bilinear_forward(ctx, input1, input2, ctx.getattr(self, "weight"), "Bilinear")  # as Embedding's


# ----- GLU, Softmax2d, ChannelShuffle ----------------------------------------------------------------------


def glu_forward(ctx: Ctx, input: Any, dim: Any) -> Any:
    if not known(input):
        return ctx.unknown("glu of unknown input")
    s = shape_of(input)
    require_cpu_floating(ctx, "glu", input, "glu_cpu")
    ctx.require(len(s) >= 1, "glu", "glu does not support scalars because halving size must be even", INVALID_ARGUMENT)
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


# ----- EmbeddingBag ----------------------------------------------------------------------------------------


def embedding_bag_forward(ctx: Ctx, self: Instance, input: Any, offsets: Any) -> Any:
    op = "EmbeddingBag"
    if not known(input):
        return ctx.unknown(f"{op} of unknown input")
    s, dim = shape_of(input), self.attrs["embedding_dim"]
    ctx.require(len(s) in (1, 2), op, f"input has to be 1D or 2D Tensor, but got Tensor of dimension {len(s)}",
                operands=(f"input: {fmt(s)}",))
    if len(s) == 2:
        ctx.require(offsets is None, op, "if input is 2D, then offsets has to be None, as input is treated is a "
                    "mini-batch of fixed length sequences", INVALID_ARGUMENT)
        return Tensor((s[0], dim), "float32")
    ctx.require(offsets is not None, op, "offsets has to be a 1D Tensor but got None", INVALID_ARGUMENT)
    if not known(offsets):
        return Tensor((ctx.fresh("bags"), dim), "float32")
    o = shape_of(offsets)
    ctx.require(len(o) == 1, op, f"offsets has to be a 1D Tensor, but got Tensor of dimension {len(o)}",
                operands=(f"offsets: {fmt(o)}",))
    bags = o[0] - 1 if self.attrs["include_last_offset"] else o[0]
    return Tensor((bags, dim), "float32")


@native_class("torch.nn.EmbeddingBag", bases=(Module,))
class EmbeddingBag:
    def init(ctx: Ctx, self: Instance, num_embeddings: Any, embedding_dim: Any, max_norm: Any = None,
             norm_type: Any = 2.0, scale_grad_by_freq: Any = False, mode: Any = "mean", sparse: Any = False,
             _weight: Any = None, include_last_offset: Any = False, padding_idx: Any = None, **kw: Any) -> None:
        self.attrs.update(training=True, num_embeddings=num_embeddings, embedding_dim=embedding_dim,
                          include_last_offset=include_last_offset is True,
                          weight=Tensor((num_embeddings, embedding_dim)).as_parameter())

    def forward(ctx: Ctx, self: Instance, input: Any, offsets: Any = None, per_sample_weights: Any = None) -> Any:
        return embedding_bag_forward(ctx, self, input, offsets)
