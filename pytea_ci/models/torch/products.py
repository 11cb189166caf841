"""Products and distances beyond matmul: `outer/ger dot cross einsum addmm baddbmm addbmm
cdist dist mv`. Each reuses the matmul/broadcast primitives of `prim` and the matmul models."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import require_floating
from pytea_ci.models.prim import broadcast_shapes, fmt, known, matrix_operands, norm_dim, shape_of
from pytea_ci.models.registry import model
from pytea_ci.models.torch.tensor import bmm, mm
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Dim
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT

Shape = tuple[Dim, ...]


def _vectors(ctx: Ctx, a: Any, b: Any, op: str) -> tuple[Dim, Dim] | None:
    """Both operands 1-D; their lengths."""
    if not known(a, b):
        return None
    sa, sb = shape_of(a), shape_of(b)
    ctx.require(len(sa) == 1 and len(sb) == 1, op, f"{op}: expected 1D tensors, but got {len(sa)}D and {len(sb)}D "
                f"tensors ({fmt(sa)} and {fmt(sb)})", INVALID_ARGUMENT, (f"self: {fmt(sa)}", f"other: {fmt(sb)}"))
    return sa[0], sb[0]


@model("torch.outer", "torch.Tensor.outer", "torch.ger", "torch.Tensor.ger")
def outer(ctx: Ctx, input: Any, vec2: Any) -> Any:
    n = _vectors(ctx, input, vec2, "outer")
    return input.with_shape(n) if n is not None else ctx.unknown("outer")


@model("torch.dot", "torch.Tensor.dot", "torch.inner", "torch.vdot", "torch.Tensor.vdot")
def dot(ctx: Ctx, input: Any, other: Any) -> Any:
    n = _vectors(ctx, input, other, "dot")
    if n is None:
        return ctx.unknown("dot")
    ctx.require(P.eq(n[0], n[1]), "dot", f"inconsistent tensor size, expected tensor [{n[0]!r}] and src [{n[1]!r}] "
                f"to have the same number of elements", dims=(("self", n[0]), ("other", n[1])))
    return input.with_shape(())


@model("torch.cross", "torch.Tensor.cross", "torch.linalg.cross")
def cross(ctx: Ctx, input: Any, other: Any, dim: Any = None) -> Any:
    if not known(input, other):
        return ctx.unknown("cross")
    out = broadcast_shapes(ctx, shape_of(input), shape_of(other), "cross")
    d = norm_dim(ctx, -1 if dim is None else dim, len(out), "cross")
    if d is not None and out:
        ctx.require(P.eq(out[d], 3), "cross", f"linalg.cross: inputs dimension {d} must have length 3. Got "
                    f"{out[d]!r}", INVALID_ARGUMENT, (f"input: {fmt(out)}",), (("size", out[d]),))
    return input.with_shape(out)


@model("torch.addmm", "torch.Tensor.addmm")
def addmm(ctx: Ctx, input: Any, mat1: Any, mat2: Any, **kwargs: Any) -> Any:
    return _add_to(ctx, input, mm(ctx, mat1, mat2), "addmm")


@model("torch.baddbmm", "torch.Tensor.baddbmm")
def baddbmm(ctx: Ctx, input: Any, batch1: Any, batch2: Any, **kwargs: Any) -> Any:
    return _add_to(ctx, input, bmm(ctx, batch1, batch2), "baddbmm")


@model("torch.addmv", "torch.Tensor.addmv")
def addmv(ctx: Ctx, input: Any, mat: Any, vec: Any, **kwargs: Any) -> Any:
    if known(mat, vec):
        ctx.require(len(shape_of(mat)) == 2 and len(shape_of(vec)) == 1, "addmv", "vector + matrix @ vector expected",
                    INVALID_ARGUMENT)
    from pytea_ci.models.torch.tensor import matmul

    return _add_to(ctx, input, matmul(ctx, mat, vec), "addmv")


def _add_to(ctx: Ctx, input: Any, product: Any, op: str) -> Any:
    """`input` must broadcast to the product's shape (the result keeps the product's shape)."""
    if not known(input, product):
        return product
    si, sp = shape_of(input), shape_of(product)
    out = broadcast_shapes(ctx, si, sp, op, ("input", "product"))
    ctx.require(len(out) == len(sp) and P.and_(*[P.eq(a, b) for a, b in zip(out, sp)]), op,
                f"the input {fmt(si)} cannot be broadcast to the product's shape {fmt(sp)}",
                operands=(f"input: {fmt(si)}", f"product: {fmt(sp)}"))
    return product


@model("torch.cdist")
def cdist(ctx: Ctx, x1: Any, x2: Any, p: Any = 2.0, **kwargs: Any) -> Any:
    if not known(x1, x2):
        return ctx.unknown("cdist")
    a, b = shape_of(x1), shape_of(x2)
    require_floating(ctx, "cdist", x1, "x1", "cdist only supports floating-point dtypes, X1 got: {got}")
    require_floating(ctx, "cdist", x2, "x2", "cdist only supports floating-point dtypes, X2 got: {got}")
    ctx.require(len(a) >= 2 and len(b) >= 2, "cdist", f"cdist only supports at least 2D tensors, X1 got: {len(a)}D, "
                f"X2 got: {len(b)}D", INVALID_ARGUMENT, (f"x1: {fmt(a)}", f"x2: {fmt(b)}"))
    ctx.require(P.eq(a[-1], b[-1]), "cdist", f"X1 and X2 must have the same number of columns. X1: {a[-1]!r} "
                f"X2: {b[-1]!r}", operands=(f"x1: {fmt(a)}", f"x2: {fmt(b)}"), dims=(("x1 columns", a[-1]), ("x2 columns", b[-1])))
    batch = broadcast_shapes(ctx, a[:-2], b[:-2], "cdist", ("x1", "x2"))
    return x1.with_shape(tuple(batch) + (a[-2], b[-2]))


@model("torch.dist", "torch.Tensor.dist")
def dist(ctx: Ctx, input: Any, other: Any, p: Any = 2) -> Any:
    if not known(input, other):
        return ctx.unknown("dist")
    broadcast_shapes(ctx, shape_of(input), shape_of(other), "dist")
    return input.with_shape(())


# ---- einsum ----------------------------------------------------------------------------------

_ELL = "..."
_FIRST_ELL = 0x2460  # ellipsis dims get private letters (circled digits), right-aligned across operands


def _parse_einsum(ctx: Ctx, eq: str, ranks: list[int]) -> tuple[list[str], str | None] | None:
    """Operand subscripts and the explicit output (None when implicit), with each `...` replaced by
    one private letter per dim it covers; None for forms not followed."""
    eq = eq.replace(" ", "")
    lhs, _, rhs = eq.partition("->")
    terms = lhs.split(",")
    n = len(ranks)
    ctx.require(len(terms) == n, "einsum", "einsum(): more operands were provided than specified in the equation"
                if n > len(terms) else "einsum(): fewer operands were provided than specified in the equation", INVALID_ARGUMENT)
    if any(t.count(".") not in (0, 3) or (t.count(".") == 3 and _ELL not in t) for t in (*terms, rhs)):
        return None
    covered = [max(r - (len(t) - 3), 0) if _ELL in t else 0 for t, r in zip(terms, ranks)]
    width = max(covered, default=0)
    letters = "".join(chr(_FIRST_ELL + i) for i in range(width))
    terms = [t.replace(_ELL, letters[width - k:]) for t, k in zip(terms, covered)]
    if "->" not in eq:
        return terms, None
    if width and _ELL not in rhs:
        return None  # ellipsis dims left out of an explicit output: not followed
    return terms, rhs.replace(_ELL, letters)


def _bind_letters(ctx: Ctx, terms: list[str], shapes: list[Shape]) -> dict[str, Dim]:
    sizes: dict[str, Dim] = {}
    for k, (term, s) in enumerate(zip(terms, shapes)):
        ctx.require(len(term) == len(s), "einsum", f"einsum(): the number of subscripts in the equation ({len(term)}) "
                    f"does not match the number of dimensions ({len(s)}) for operand {k}", INVALID_ARGUMENT, (f"operand {k}: {fmt(s)}",))
        for letter, d in zip(term, s):
            if letter in sizes and sizes[letter] != 1 and d != 1:
                ctx.require(P.eq(sizes[letter], d), "einsum", f"einsum(): operands do not broadcast with remapped "
                            f"shapes (original->remapped): subscript {letter} has size {sizes[letter]!r} and {d!r}",
                            operands=tuple(f"operand {i}: {fmt(x)}" for i, x in enumerate(shapes)),
                            dims=((f"{letter} before", sizes[letter]), (f"{letter} in operand {k}", d)))
            if letter not in sizes or sizes[letter] == 1:
                sizes[letter] = d
    return sizes


@model("torch.einsum")
def einsum(ctx: Ctx, equation: Any, *operands: Any) -> Any:
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not isinstance(equation, str) or not known(*operands) or not operands:
        return ctx.unknown("einsum")
    shapes = [shape_of(t) for t in operands]
    parsed = _parse_einsum(ctx, equation, [len(s) for s in shapes])
    if parsed is None:
        return ctx.unknown("einsum with an ellipsis not followed")
    terms, out = parsed
    sizes = _bind_letters(ctx, terms, shapes)
    if out is None:  # implicit: the ellipsis dims, then the letters that occur once, sorted
        joined = "".join(terms)
        ell = sorted(c for c in set(joined) if ord(c) >= _FIRST_ELL)
        out = "".join(ell) + "".join(sorted(c for c in set(joined) if joined.count(c) == 1 and ord(c) < _FIRST_ELL))
    for c in out:
        ctx.require(c in sizes, "einsum", f"einsum(): output subscript {c} does not appear in the equation for any "
                    "input operand", INVALID_ARGUMENT)
    dtype = operands[0].dtype if isinstance(operands[0], Tensor) else None
    return operands[0].with_shape(tuple(sizes.get(c, 1) for c in out), dtype)


@model("torch.mv", "torch.Tensor.mv")
def mv(ctx: Ctx, input: Any, vec: Any) -> Any:
    shapes = matrix_operands(ctx, "mv", input, vec, (2, 1), ("self", "vec"), "vector + matrix @ vector expected")
    if shapes is None:
        return ctx.unknown("mv of unknown operands")
    a, b = shapes
    ctx.require(P.eq(a[1], b[0]), "mv", f"size mismatch, got input ({a[0]!r}), mat ({a[0]!r}x{a[1]!r}), vec ({b[0]!r})",
                operands=(f"self: {fmt(a)}", f"vec: {fmt(b)}"), dims=(("mat columns", a[1]), ("vec", b[0])))
    return input.with_shape((a[0],))
