"""`torch.autograd`: `Variable` (a plain tensor since PyTorch 0.4, returned as it was given), `grad`
(one gradient per input, shaped like it) and `Function` (a custom op: `MyOp.apply(x)` runs the
subclass's static `forward`; `backward` is not run, as no backward pass is)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import KEEPS, Facets, declare, model, native_class
from pytea_ci.models.values import Builtin, ClassMethod, ClassVal, Instance
from pytea_ci.shapes.tensor import Tensor


@model("torch.autograd.Variable", layout=KEEPS)  # the tensor it was given
def variable(ctx: Ctx, data: Any, *args: Any, **kwargs: Any) -> Any:
    return data


@model("torch.autograd.grad")
def autograd_grad(ctx: Ctx, outputs: Any, inputs: Any, *args: Any, **kwargs: Any) -> Any:
    """`torch.autograd.grad(outputs, inputs)`: a tuple with one gradient per input, shaped like it."""
    ins = [inputs] if isinstance(inputs, Tensor) else ctx.iterate(inputs)
    if ins is None or not all(isinstance(t, Tensor) for t in ins):
        return ctx.unknown("torch.autograd.grad of inputs not understood")
    return tuple(t.with_shape(t.shape) for t in ins)


@native_class("torch.autograd.function.FunctionCtx", "torch.autograd.function.BackwardCFunction")
class FunctionCtx:
    """The `ctx` a custom Function's `forward` gets: what it saves is kept for `backward` (not run)."""

    def save_for_backward(ctx: Ctx, self: Instance, *tensors: Any) -> Any:  # noqa: N805
        self.attrs["saved_tensors"] = tensors
        return None

    def mark_dirty(ctx: Ctx, self: Instance, *args: Any) -> Any:  # noqa: N805
        return None

    mark_non_differentiable = set_materialize_grads = save_for_forward = mark_dirty


@native_class("torch.autograd.Function", "torch.autograd.function.Function")
class Function:
    """Subclassed with static `forward(ctx, *args)` (or `forward(*args)` with `setup_context`)."""


def _apply(ctx: Ctx, cls: Any, *args: Any, **kwargs: Any) -> Any:
    """`MyOp.apply(*args)`: the subclass's `forward` with a fresh `ctx` first, unless the subclass
    defines `setup_context` (then `forward(*args)`, and `setup_context(ctx, args, output)` after)."""
    fctx = Instance(FunctionCtx, {})
    forward = ctx.getattr(cls, "forward")
    own_setup = isinstance(cls, ClassVal) and any("setup_context" in c.ns for c in cls.mro() if not c.native)
    if not own_setup:
        return ctx.call(forward, fctx, *args, **kwargs)
    out = ctx.call(forward, *args, **kwargs)
    ctx.call(ctx.getattr(cls, "setup_context"), fctx, args, out)
    return out


Function.ns["apply"] = ClassMethod(Builtin("torch.autograd.Function.apply", _apply))  # type: ignore[attr-defined]
declare("torch.autograd.Function.apply", Facets(layout=KEEPS))  # what `forward` returned, its layout kept
