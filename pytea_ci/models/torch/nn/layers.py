"""Shape-simple layers: Linear, Bilinear-free basics, Identity, Flatten, Unflatten, Dropout*,
Embedding, and every activation (one table line each), with their functional forms."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import parameter, require_dtype_in, require_parameters
from pytea_ci.models.index_checks import count_bins, require_indices, require_values
from pytea_ci.models.prim import dim_arg, fmt, known, shape_of, tag
from pytea_ci.models.registry import REGISTRY, model, native_class
from pytea_ci.models.torch.elementwise import unary
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.torch.nn.parameters import UNSURE, flag
from pytea_ci.models.torch.tensor import flatten, unflatten
from pytea_ci.models.values import Instance, StaticMethod
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import is_dim
from pytea_ci.shapes.tensor import Tensor


def linear_forward(ctx: Ctx, x: Any, weight: Any, bias: Any, op: str) -> Any:
    if not known(x, weight):
        return ctx.unknown(f"{op} of unknown input")
    s, w = shape_of(x), shape_of(weight)
    if len(w) != 2:
        return ctx.unknown("linear with a non-matrix weight")
    out_f, in_f = w
    ctx.require(len(s) >= 1, op, "input must have at least one dimension", "PT003")
    require_parameters(ctx, op, x, weight)
    last = s[-1]
    rows = "x".join(repr(d) for d in s[:-1]) or "1"
    ctx.require(P.eq(last, in_f), op,
                f"input has {last!r} features in its last dimension but in_features is {in_f!r} "
                f"(mat1 and mat2 shapes cannot be multiplied: {rows}x{last!r} and {in_f!r}x{out_f!r})",
                operands=(f"input: {fmt(s)}", f"weight: {fmt(w)}"),
                dims=(("input features", last), ("in_features", in_f)))
    return x.with_shape(s[:-1] + (out_f,))


@native_class("torch.nn.Linear", "torch.nn.LazyLinear", bases=(Module,))
class Linear:
    def init(ctx: Ctx, self: Instance, in_features: Any, out_features: Any, bias: Any = True, **kw: Any) -> None:
        in_features, out_features = dim_arg(ctx, in_features), dim_arg(ctx, out_features)
        self.attrs.update(training=True, in_features=in_features, out_features=out_features,
                          weight=parameter(ctx, Tensor((out_features, in_features)), kw),
                          bias=parameter(ctx, Tensor((out_features,)), kw) if flag(bias) is not False else None)
        if flag(bias) is None:
            self.attrs[UNSURE] = True

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return linear_forward(ctx, input, self.attrs.get("weight"), self.attrs.get("bias"), "Linear")


@model("torch.nn.functional.linear")
def f_linear(ctx: Ctx, input: Any, weight: Any, bias: Any = None) -> Any:
    return linear_forward(ctx, input, weight, bias, "linear")


@native_class("torch.nn.Identity", bases=(Module,))
class Identity:
    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        self.attrs["training"] = True

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

    def forward(ctx: Ctx, self: Instance, input: Any, *args: Any, **kwargs: Any) -> Any:
        if known(input) and name == "Dropout1d":
            s = shape_of(input)
            ctx.require(len(s) in (2, 3), "dropout1d", f"expected 2D or 3D input, but received a {len(s)}D input",
                        "PT003")
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


@model("torch.nn.functional.relu", "torch.nn.functional.relu6", "torch.nn.functional.elu", "torch.nn.functional.selu",
       "torch.nn.functional.leaky_relu", "torch.nn.functional.gelu", "torch.nn.functional.silu",
       "torch.nn.functional.mish", "torch.nn.functional.sigmoid", "torch.nn.functional.tanh",
       "torch.nn.functional.softplus", "torch.nn.functional.hardswish", "torch.nn.functional.hardtanh",
       "torch.nn.functional.dropout", "torch.nn.functional.dropout1d", "torch.nn.functional.dropout2d",
       "torch.nn.functional.dropout3d", "torch.nn.functional.alpha_dropout", "torch.nn.functional.celu",
       "torch.nn.functional.logsigmoid", "torch.nn.functional.hardsigmoid", "torch.nn.functional.relu_",
       "torch.nn.functional.prelu", "torch.nn.functional.rrelu", "torch.nn.functional.softsign",
       "torch.nn.functional.threshold", "torch.dropout", "torch.nn.functional.leaky_relu_")
def f_activation(ctx: Ctx, input: Any, *args: Any, **kwargs: Any) -> Any:
    return unary(ctx, "relu", input)


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
                        f"padding_idx ({padding_idx!r}) must be within num_embeddings ({num_embeddings!r})", "PT003")
        self.attrs.update(training=True, num_embeddings=num_embeddings, embedding_dim=embedding_dim,
                          weight=Tensor((num_embeddings, tag(embedding_dim, ctx, "embedding_dim"))))

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return embedding_forward(ctx, input, self.attrs["weight"], "Embedding")


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
                f"{fmt(s)}", "PT003", operands=(f"embeddings: {fmt(s)}",))
    emb = ctx.call(Embedding, s[0], s[1])
    if isinstance(emb, Instance):
        emb.attrs["weight"] = embeddings
    return emb


REGISTRY["torch.nn.Embedding"].ns["from_pretrained"] = StaticMethod(REGISTRY["torch.nn.Embedding.from_pretrained"])
