"""Loss functions and their target-shape rules, as modules (`nn.CrossEntropyLoss`) and functions
(`F.cross_entropy`): class-index losses, element-wise losses and the strict-size BCE family."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import (dtype_note, require_dtype_in, require_floating, require_same_device,
                                         require_same_dtype, title)
from pytea_ci.models.index_checks import require_indices
from pytea_ci.models.prim import broadcast_shapes, fmt, known, same_shape_required, shape_of
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.values import Instance
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.tensor import Tensor


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
    if probs_ok and target.dtype is not None and target.is_float() and len(si) != len(st):
        ctx.require(False, op, _TARGET_DTYPE.format(got=title(target.dtype)) + " (a floating target holds class "
                    f"probabilities and must have the input's shape {fmt(si)}, got {fmt(st)})", "PT006",
                    operands=(dtype_note("target", target),))
    if probs_ok and target.dtype is not None and target.is_float():
        same_shape_required(ctx, input, target, op, "class-probability target {b} must have the shape of the input {a}")
        return _reduced(input, reduction, si[:1] + si[2:])
    if probs_ok and target.dtype is None and len(si) == len(st):
        return _reduced(input, reduction, si[:1] + si[2:])
    ctx.require(len(si) >= 1, op, "input must have at least one dimension", "PT003")
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
    else:  # binary_cross_entropy wants the target in the input's dtype
        require_same_dtype(ctx, op, target, input, ("target", "input"), "Found dtype {a} but expected {b}")
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
