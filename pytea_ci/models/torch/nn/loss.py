"""Loss functions and their target-shape rules, as modules (`nn.CrossEntropyLoss`) and functions
(`F.cross_entropy`): class-index losses, element-wise losses, the strict-size BCE family, and the pair,
triplet, margin and sequence losses (`CosineEmbeddingLoss MarginRankingLoss TripletMarginLoss
HingeEmbeddingLoss MultiMarginLoss MultiLabelSoftMarginLoss CTCLoss`), each with the rank and
broadcasting rules torch checks before computing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import (dtype_note, require_cpu_floating, require_dtype_in, require_floating,
                                         require_same_device, require_same_dtype, title)
from pytea_ci.models.index_checks import require_indices, require_values
from pytea_ci.models.prim import broadcast_shapes, fmt, known, same_shape_required, shape_of
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.values import Instance
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.diagnostics.rules import DTYPE_MISMATCH, INVALID_ARGUMENT


def _reduced(x: Tensor, reduction: Any, shape: Any) -> Tensor:
    return x.with_shape(tuple(shape) if reduction == "none" else ())


_TARGET_DTYPE = "expected target dtype to be Long or Byte, but got {got}"


def class_index_loss(ctx: Ctx, input: Any, target: Any, reduction: Any, op: str, probs_ok: bool,
                     ignore_index: Any = -100) -> Any:
    if not known(input, target):
        return ctx.unknown(f"{op} of unknown input")
    si, st = shape_of(input), shape_of(target)
    ops = (f"input: {fmt(si)}", f"target: {fmt(st)}")
    require_same_device(ctx, op, (("input", input), ("target", target)))
    if op == "cross_entropy":  # its log_softmax of integer logits has no CPU kernel
        require_cpu_floating(ctx, op, input, "log_softmax_kernel_impl")
    if probs_ok and target.dtype is not None and target.is_float() and len(si) != len(st):
        ctx.require(False, op, _TARGET_DTYPE.format(got=title(target.dtype)) + " (a floating target holds class "
                    f"probabilities and must have the input's shape {fmt(si)}, got {fmt(st)})", DTYPE_MISMATCH,
                    operands=(dtype_note("target", target),))
    if probs_ok and target.dtype is not None and target.is_float():
        same_shape_required(ctx, input, target, op, "class-probability target {b} must have the shape of the input {a}")
        return _reduced(input, reduction, si[:1] + si[2:])
    if probs_ok and target.dtype is None and len(si) == len(st):
        return _reduced(input, reduction, si[:1] + si[2:])
    ctx.require(len(si) >= 1, op, "input must have at least one dimension", INVALID_ARGUMENT)
    classes = si[1] if len(si) >= 2 else si[0]
    require_indices(ctx, target, classes, op, "the class targets", "the number of classes", ignore=ignore_index)
    if len(si) == 1:
        ok = len(st) == 0 or (len(st) == 1 and P.eq(st[0], 1))
        ctx.require(ok, op, f"for a 1-D input {fmt(si)} the target must be 0-D or of size [1], got {fmt(st)}", operands=ops)
        require_dtype_in(ctx, op, target, ("int64", "uint8"), "target", _TARGET_DTYPE)
        return _reduced(input, reduction, ())
    expected = (si[0],) + tuple(si[2:])
    if len(st) != len(expected):
        if len(st) == 2 and len(si) == 2:
            ctx.require(False, op, f"0D or 1D target tensor expected, multi-target not supported (target {fmt(st)}, "
                        f"input {fmt(si)})", operands=ops)
        ctx.require(False, op, f"expected target of shape {fmt(expected)} for input {fmt(si)}, got target {fmt(st)}",
                    operands=ops)
    ctx.require(P.eq(st[0], si[0]), op, f"expected input batch_size ({si[0]!r}) to match target batch_size ({st[0]!r})",
                operands=ops, dims=(("input batch", si[0]), ("target batch", st[0])))
    for a, b in zip(st[1:], expected[1:]):
        ctx.require(P.eq(a, b), op, f"expected target size {fmt(expected)}, got {fmt(st)}", operands=ops,
                    dims=(("target", a), ("input", b)))
    require_dtype_in(ctx, op, target, ("int64", "uint8"), "target", _TARGET_DTYPE)  # after the sizes, as torch
    return _reduced(input, reduction, expected)


def elementwise_loss(ctx: Ctx, input: Any, target: Any, reduction: Any, op: str, **_: Any) -> Any:
    if not known(input, target):
        return ctx.unknown(f"{op} of unknown input")
    shape = broadcast_shapes(ctx, shape_of(input), shape_of(target), op, ("input", "target"))
    require_same_device(ctx, op, (("input", input), ("target", target)))
    return _reduced(input, reduction, shape)


def strict_loss(ctx: Ctx, input: Any, target: Any, reduction: Any, op: str, **_: Any) -> Any:
    if not known(input, target):
        return ctx.unknown(f"{op} of unknown input")
    same_shape_required(ctx, input, target, op, "using a target size {b} that is different to the input size {a}")
    require_same_device(ctx, op, (("input", input), ("target", target)))
    if "logits" in op.lower():  # the result is computed in the target's dtype: a float result cannot go there
        require_floating(ctx, op, target, "target", "result type Float can't be cast to the desired output type {got}")
    else:  # binary_cross_entropy wants the target in the input's dtype, and probabilities in it
        require_same_dtype(ctx, op, target, input, ("target", "input"), "Found dtype {a} but expected {b}")
        require_values(ctx, target, 0, 1, op, "all elements of target should be between 0 and 1: the targets",
                       "but a target is a probability", (), any_dtype=True)
    return _reduced(input, reduction, shape_of(input))


_CLASS = {"CrossEntropyLoss": ("cross_entropy", True), "NLLLoss": ("nll_loss", False)}
_ELEMENTWISE = {"MSELoss": "mse_loss", "L1Loss": "l1_loss", "SmoothL1Loss": "smooth_l1_loss", "HuberLoss": "huber_loss",
                "KLDivLoss": "kl_div", "PoissonNLLLoss": "poisson_nll_loss", "SoftMarginLoss": "soft_margin_loss"}
_STRICT = {"BCELoss": "binary_cross_entropy", "BCEWithLogitsLoss": "binary_cross_entropy_with_logits"}


def _loss_class(name: str, fn_name: str, rule: Any) -> None:
    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        self.attrs.update(training=True, reduction=kwargs.get("reduction", "mean"),
                          ignore_index=kwargs.get("ignore_index", args[2] if len(args) > 2 else -100))

    def forward(ctx: Ctx, self: Instance, input: Any, target: Any, *args: Any) -> Any:
        return rule(ctx, input, target, self.attrs["reduction"], name, ignore_index=self.attrs["ignore_index"])

    native_class(f"torch.nn.{name}", bases=(Module,))(type(name, (), {"init": init, "forward": forward}))

    def functional(ctx: Ctx, input: Any, target: Any, *args: Any, **kwargs: Any) -> Any:
        ignore = kwargs.get("ignore_index", args[2] if len(args) > 2 else -100)
        return rule(ctx, input, target, kwargs.get("reduction", "mean"), fn_name, ignore_index=ignore)

    model(f"torch.nn.functional.{fn_name}")(functional)


def _class_rule(probs_ok: bool) -> Any:
    def rule(ctx: Ctx, input: Any, target: Any, reduction: Any, op: str, ignore_index: Any = -100) -> Any:
        return class_index_loss(ctx, input, target, reduction, op, probs_ok, ignore_index)

    return rule


for _name, (_fn, _probs) in _CLASS.items():
    _loss_class(_name, _fn, _class_rule(_probs))
for _name, _fn in _ELEMENTWISE.items():
    _loss_class(_name, _fn, elementwise_loss)
for _name, _fn in _STRICT.items():
    _loss_class(_name, _fn, strict_loss)


# ----- pair, triplet, margin and sequence losses --------------------------------------------------

Shape = tuple[Any, ...]


def _out(reduction: Any, shape: Shape) -> Tensor:
    return Tensor(tuple(shape) if reduction == "none" else (), "float32")


def cosine_embedding(ctx: Ctx, args: tuple[Any, ...], reduction: Any, op: str) -> Any:
    x1, x2, y = args[:3]
    if not known(x1, x2, y):
        return ctx.unknown(f"{op} of unknown input")
    a, b, t = shape_of(x1), shape_of(x2), shape_of(y)
    ops = (f"input1: {fmt(a)}", f"input2: {fmt(b)}", f"target: {fmt(t)}")
    ctx.require(len(t) in (0, 1), op, f"0D or 1D target tensor expected, multi-target not supported (target {fmt(t)})",
                operands=ops)
    want = len(t) + 1
    ctx.require(len(a) == want and len(b) == want, op, f"{len(t)}D target tensor expects {want}D input tensors, but "
                f"found inputs with sizes {fmt(a)} and {fmt(b)}", operands=ops)
    s = broadcast_shapes(ctx, a, b, op, ("input1", "input2"))[:-1]
    return _out(reduction, broadcast_shapes(ctx, s, t, op, ("inputs", "target")))


def margin_ranking(ctx: Ctx, args: tuple[Any, ...], reduction: Any, op: str) -> Any:
    x1, x2, y = args[:3]
    if not known(x1, x2, y):
        return ctx.unknown(f"{op} of unknown input")
    a, b, t = shape_of(x1), shape_of(x2), shape_of(y)
    ctx.require(len(a) == len(b) == len(t), op, f"margin_ranking_loss : All input tensors should have same dimension "
                f"but got sizes: input1: {fmt(a)}, input2: {fmt(b)}, target: {fmt(t)}",
                operands=(f"input1: {fmt(a)}", f"input2: {fmt(b)}", f"target: {fmt(t)}"))
    s = broadcast_shapes(ctx, a, b, op, ("input1", "input2"))
    return _out(reduction, broadcast_shapes(ctx, t, s, op, ("target", "input")))


def triplet_margin(ctx: Ctx, args: tuple[Any, ...], reduction: Any, op: str) -> Any:
    an, po, ne = args[:3]
    if not known(an, po, ne):
        return ctx.unknown(f"{op} of unknown input")
    a, p, n = shape_of(an), shape_of(po), shape_of(ne)
    ops = (f"anchor: {fmt(a)}", f"positive: {fmt(p)}", f"negative: {fmt(n)}")
    ctx.require(len(a) == len(p) == len(n), op, f"The anchor, positive, and negative tensors are expected to have the "
                f"same number of dimensions, but got: anchor {len(a)}D, positive {len(p)}D, and negative {len(n)}D "
                "inputs", operands=ops)
    ctx.require(len(a) >= 1, op, "triplet_margin_loss expects inputs with at least one dimension", operands=ops)
    ap = broadcast_shapes(ctx, a, p, op, ("anchor", "positive"))
    an_ = broadcast_shapes(ctx, a, n, op, ("anchor", "negative"))
    return _out(reduction, broadcast_shapes(ctx, ap[:-1], an_[:-1], op, ("d(anchor, positive)", "d(anchor, negative)")))


def hinge_embedding(ctx: Ctx, args: tuple[Any, ...], reduction: Any, op: str) -> Any:
    x, y = args[:2]
    if not known(x, y):
        return ctx.unknown(f"{op} of unknown input")
    return _out(reduction, broadcast_shapes(ctx, shape_of(x), shape_of(y), op, ("input", "target")))


def multi_margin(ctx: Ctx, args: tuple[Any, ...], reduction: Any, op: str) -> Any:
    x, y = args[:2]
    if not known(x, y):
        return ctx.unknown(f"{op} of unknown input")
    a, t = shape_of(x), shape_of(y)
    ops = (f"input: {fmt(a)}", f"target: {fmt(t)}")
    ctx.require(len(a) in (1, 2), op, f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                f"{fmt(a)}", operands=ops)
    n = a[0] if len(a) == 2 else 1
    ok = (len(t) == 1 and P.eq(t[0], n)) if len(t) == 1 else (len(t) == 0 and len(a) == 1)
    ctx.require(ok, op, f"multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples "
                f"(batch size). Expected target size [{n!r}], but got {fmt(t)}", operands=ops)
    return _out(reduction, a[:1] if len(a) == 2 else ())


def multilabel_soft_margin(ctx: Ctx, args: tuple[Any, ...], reduction: Any, op: str) -> Any:
    x, y = args[:2]
    if not known(x, y):
        return ctx.unknown(f"{op} of unknown input")
    s = broadcast_shapes(ctx, shape_of(x), shape_of(y), op, ("input", "target"))
    return _out(reduction, s[:-1])


def _batch_vector(ctx: Ctx, v: Any, n: Any, name: str, op: str) -> None:
    if isinstance(v, Tensor) and known(v):
        s = shape_of(v)
        ctx.require(len(s) == 1 and P.eq(s[0], n), op, f"{name} must be of size batch_size ({n!r}), got {fmt(s)}",
                    operands=(f"{name}: {fmt(s)}",), dims=((name, s[0] if s else 1), ("batch size", n)))
    elif isinstance(v, (tuple, list)) and isinstance(n, int):
        ctx.require(len(v) == n, op, f"{name} must be of size batch_size ({n}), got {len(v)}", INVALID_ARGUMENT)


def ctc(ctx: Ctx, args: tuple[Any, ...], reduction: Any, op: str) -> Any:
    log_probs, targets, input_lengths, target_lengths = (args + (None,) * 4)[:4]
    if not known(log_probs):
        return ctx.unknown(f"{op} of unknown input")
    s = shape_of(log_probs)
    ctx.require(len(s) in (2, 3), op, f"ctc_loss expects log_probs of shape (T, N, C) or (T, C), got {fmt(s)}",
                operands=(f"log_probs: {fmt(s)}",))
    if len(s) == 2:
        return _out(reduction, ())
    n = s[1]
    _batch_vector(ctx, input_lengths, n, "input_lengths", op)
    _batch_vector(ctx, target_lengths, n, "target_lengths", op)
    if isinstance(targets, Tensor) and known(targets) and len(shape_of(targets)) == 2:
        t0 = shape_of(targets)[0]
        ctx.require(P.eq(t0, n), op, f"Expected tensor to have size {n!r} at dimension 0, but got size {t0!r} for "
                    "argument #2 'targets'", operands=(f"targets: {fmt(shape_of(targets))}",),
                    dims=(("targets rows", t0), ("batch size", n)))
    return _out(reduction, (n,))


Rule = Callable[[Ctx, tuple[Any, ...], Any, str], Any]

# module name -> (functional name, number of tensor arguments, rule)
LOSSES: dict[str, tuple[str, int, Rule]] = {
    "CosineEmbeddingLoss": ("cosine_embedding_loss", 3, cosine_embedding),
    "MarginRankingLoss": ("margin_ranking_loss", 3, margin_ranking),
    "TripletMarginLoss": ("triplet_margin_loss", 3, triplet_margin),
    "TripletMarginWithDistanceLoss": ("triplet_margin_with_distance_loss", 3, triplet_margin),
    "HingeEmbeddingLoss": ("hinge_embedding_loss", 2, hinge_embedding),
    "MultiMarginLoss": ("multi_margin_loss", 2, multi_margin),
    "MultiLabelSoftMarginLoss": ("multilabel_soft_margin_loss", 2, multilabel_soft_margin),
    "CTCLoss": ("ctc_loss", 4, ctc),
}


def _register(name: str, fn_name: str, n_args: int, rule: Rule) -> None:
    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        self.attrs.update(training=True, reduction=kwargs.get("reduction", "mean"))

    def forward(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return rule(ctx, tuple(args[:n_args]), self.attrs["reduction"], name)

    native_class(f"torch.nn.{name}", bases=(Module,))(type(name, (), {"init": init, "forward": forward}))

    def functional(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
        return rule(ctx, tuple(args[:n_args]), kwargs.get("reduction", "mean"), fn_name)

    model(f"torch.nn.functional.{fn_name}")(functional)


for _name, (_fn, _n, _rule) in LOSSES.items():
    _register(_name, _fn, _n, _rule)
