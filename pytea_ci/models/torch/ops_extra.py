"""Tensor operations added for API breadth that fit no other module: `torch.diff`, `torch.fill`,
`torch.autograd.grad`."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import fmt, known, matrix_operands, norm_dim, shape_of
from pytea_ci.models.registry import model
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Dim, dmax
from pytea_ci.shapes.tensor import Tensor


def _diff_part(ctx: Ctx, s: tuple[Dim, ...], d: int, extra: Any, name: str) -> Dim:
    """Length `extra` adds along dim `d` (a tensor matching `s` elsewhere, or a scalar adding 1)."""
    if extra is None:
        return 0
    if not known(extra):
        return ctx.fresh(name)
    e = shape_of(extra)
    if len(e) == 0:
        return 1
    ctx.require(len(e) == len(s), "diff", f"diff expects {name} tensors to have the same number of dimensions as "
                f"the input, got {fmt(e)} for input {fmt(s)}", operands=(f"input: {fmt(s)}", f"{name}: {fmt(e)}"))
    for i, (a, b) in enumerate(zip(s, e)):
        if i != d:
            ctx.require(P.eq(a, b), "diff", f"diff expects the shape of tensor to {name} to match that of input "
                        f"except along the differencing dimension; input.size({i}) = {a!r}, but got tensor.size({i}) "
                        f"= {b!r}", operands=(f"input: {fmt(s)}", f"{name}: {fmt(e)}"), dims=(("input", a), (name, b)))
    return e[d]


@model("torch.diff", "torch.Tensor.diff")
def diff(ctx: Ctx, input: Any, n: Any = 1, dim: Any = -1, prepend: Any = None, append: Any = None) -> Any:
    if not known(input):
        return ctx.unknown("diff of unknown input")
    s = shape_of(input)
    ctx.require(len(s) >= 1, "diff", "diff expects input to be at least one-dimensional", "PT003",
                operands=(f"input: {fmt(s)}",))
    d = norm_dim(ctx, dim, len(s), "diff")
    if d is None or not isinstance(n, int):
        return ctx.unknown("diff over an unknown dim")
    ctx.require(n >= 0, "diff", f"order must be non-negative but got {n}", "PT003")
    size = s[d] + _diff_part(ctx, s, d, prepend, "prepend") + _diff_part(ctx, s, d, append, "append")
    out = size - n
    out = max(out, 0) if isinstance(out, int) else dmax(out, 0)
    return input.with_shape(s[:d] + (out,) + s[d + 1:])


@model("torch.mv", "torch.Tensor.mv")
def mv(ctx: Ctx, input: Any, vec: Any) -> Any:
    shapes = matrix_operands(ctx, "mv", input, vec, (2, 1), ("self", "vec"), "vector + matrix @ vector expected")
    if shapes is None:
        return ctx.unknown("mv of unknown operands")
    a, b = shapes
    ctx.require(P.eq(a[1], b[0]), "mv", f"size mismatch, got input ({a[0]!r}), mat ({a[0]!r}x{a[1]!r}), vec ({b[0]!r})",
                operands=(f"self: {fmt(a)}", f"vec: {fmt(b)}"), dims=(("mat columns", a[1]), ("vec", b[0])))
    return input.with_shape((a[0],))


@model("torch.fill")
def fill(ctx: Ctx, input: Any, value: Any) -> Any:
    """`torch.fill(t, v)`: a new tensor of `t`'s shape and dtype."""
    return input.with_shape(input.shape) if isinstance(input, Tensor) else ctx.unknown("torch.fill of a non-tensor")


@model("torch.autograd.grad")
def autograd_grad(ctx: Ctx, outputs: Any, inputs: Any, *args: Any, **kwargs: Any) -> Any:
    """`torch.autograd.grad(outputs, inputs)`: a tuple with one gradient per input, shaped like it."""
    ins = [inputs] if isinstance(inputs, Tensor) else ctx.iterate(inputs)
    if ins is None or not all(isinstance(t, Tensor) for t in ins):
        return ctx.unknown("torch.autograd.grad of inputs not understood")
    return tuple(t.with_shape(t.shape) for t in ins)
