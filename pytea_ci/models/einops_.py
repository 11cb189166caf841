"""einops: `rearrange repeat reduce einsum pack unpack parse_shape` and the layers `Rearrange Reduce`
(`einops.layers.torch`). Pattern strings are parsed as einops does; every composite axis `(h p)`
checks that its dim is divisible by the known part, named lengths must match, and the identifiers
on both sides must agree the way each operation requires. einops raises `EinopsError`, a
`RuntimeError`, for all of these."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import fmt, known, shape_of
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.values import Instance
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import UNKNOWN, Dim, floordiv, is_dim, prod
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT

ELLIPSIS = "..."
_TOKEN = re.compile(r"\.\.\.|\(|\)|[A-Za-z_][A-Za-z0-9_]*|\d+|\S")


@dataclass(frozen=True)
class Group:
    """One dim of a pattern side: a single axis or a parenthesised composite of axes."""

    axes: tuple[str, ...]
    paren: bool


def parse_side(ctx: Ctx, text: str, op: str) -> list[Group] | None:
    groups: list[Group] = []
    cur: list[str] | None = None
    for tok in _TOKEN.findall(text):
        if tok == "(":
            if cur is not None:
                ctx.require(False, op, f"Axis composition is one-level (brackets inside brackets not allowed) in "
                            f"'{text}'", INVALID_ARGUMENT)
                return None
            cur = []
        elif tok == ")":
            if cur is None:
                ctx.require(False, op, f"Brackets are not balanced in '{text}'", INVALID_ARGUMENT)
                return None
            groups.append(Group(tuple(cur), True))
            cur = None
        elif tok == ELLIPSIS or tok.isidentifier() or tok.isdigit():
            if cur is not None:
                cur.append(tok)
            else:
                groups.append(Group((tok,), False))
        else:
            ctx.require(False, op, f"Unknown character '{tok}' in pattern '{text}'", INVALID_ARGUMENT)
            return None
    if cur is not None:
        ctx.require(False, op, f"Imbalanced parentheses in expression: '{text}'", INVALID_ARGUMENT)
        return None
    names = [a for g in groups for a in g.axes if not a.isdigit()]
    dup = sorted({a for a in names if names.count(a) > 1})
    ctx.require(not dup, op, f"Indexing expression contains duplicate dimension {dup[0] if dup else ''!r} in "
                f"'{text}'", INVALID_ARGUMENT)
    ctx.require(names.count(ELLIPSIS) <= 1, op, f"Expression may contain dots only inside ellipsis (...) once: '{text}'",
                INVALID_ARGUMENT)
    return groups


def _names(groups: list[Group]) -> set[str]:
    return {a for g in groups for a in g.axes if not a.isdigit() and a != ELLIPSIS}


def _has_ellipsis(groups: list[Group]) -> bool:
    return any(ELLIPSIS in g.axes for g in groups)


def bind_left(ctx: Ctx, groups: list[Group], shape: tuple[Dim, ...], lengths: dict[str, Any],
              op: str) -> tuple[dict[str, Dim], tuple[Dim, ...]] | None:
    """Sizes of the left side's axes and the dims `...` stands for; None when unknown."""
    ell = _has_ellipsis(groups)
    n = len(groups) - (1 if ell else 0)
    ok = len(shape) >= n if ell else len(shape) == n
    ctx.require(ok, op, f"Wrong shape: expected {'at least ' if ell else ''}{n} dims. Received {len(shape)}-dim tensor "
                f"{fmt(shape)}", operands=(f"tensor: {fmt(shape)}",))
    sizes: dict[str, Dim] = {k: v for k, v in lengths.items() if is_dim(v)}
    dims = list(shape)
    ell_dims: tuple[Dim, ...] = ()
    pos = 0
    for g in groups:
        if g.axes == (ELLIPSIS,):
            take = len(shape) - n
            ell_dims = tuple(dims[pos:pos + take])
            pos += take
            continue
        ctx.require(ELLIPSIS not in g.axes, op, "Ellipsis inside parenthesis in the left side is not allowed", INVALID_ARGUMENT)
        d = dims[pos]
        pos += 1
        known_part: Dim = 1
        unknown: list[str] = []
        for a in g.axes:
            if a.isdigit():
                known_part = known_part * int(a)
            elif a in sizes:
                known_part = known_part * sizes[a]
            else:
                unknown.append(a)
        ctx.require(len(unknown) <= 1, op, f"Could not infer sizes for {set(unknown)}", INVALID_ARGUMENT)
        where = (f"tensor: {fmt(shape)}",)
        if unknown:
            ctx.require(P.and_(P.ne(known_part, 0), P.divides(known_part, d)), op, f"Shape mismatch, can't divide axis "
                        f"of length {d!r} in chunks of {known_part!r} (pattern group ({' '.join(g.axes)}))",
                        operands=where, dims=(("axis length", d), ("chunk", known_part)))
            sizes[unknown[0]] = floordiv(d, known_part) if known_part != 0 else 0
        else:
            ctx.require(P.eq(d, known_part), op, f"Shape mismatch, {d!r} != {known_part!r} for the pattern group "
                        f"{'(' if g.paren else ''}{' '.join(g.axes)}{')' if g.paren else ''}",
                        operands=where, dims=(("axis length", d), ("expected", known_part)))
    return sizes, ell_dims


def compose_right(groups: list[Group], sizes: dict[str, Dim], ell_dims: tuple[Dim, ...]) -> tuple[Dim, ...]:
    out: list[Dim] = []
    for g in groups:
        if g.axes == (ELLIPSIS,) and not g.paren:
            out.extend(ell_dims)
            continue
        parts: list[Dim] = []
        for a in g.axes:
            if a == ELLIPSIS:
                parts.extend(ell_dims)
            else:
                parts.append(int(a) if a.isdigit() else sizes[a])
        out.append(prod(parts))
    return tuple(out)


def _as_tensor(ctx: Ctx, tensor: Any) -> Any:
    if isinstance(tensor, (list, tuple)):
        from pytea_ci.models.torch.creation import stack

        return stack(ctx, list(tensor), 0) if tensor and all(known(t) for t in tensor) else ctx.unknown("einops list")
    return tensor


def transform(ctx: Ctx, tensor: Any, pattern: Any, kind: str, lengths: dict[str, Any]) -> Any:
    """`kind` is rearrange, repeat or reduce. A length given but not understood (`i=patch_size[0]` of a
    value not understood) is a size not known, never a length not given."""
    op = kind
    tensor = _as_tensor(ctx, tensor)
    lengths = {k: v if is_dim(v) else ctx.fresh(k, UNKNOWN, 1, None, f"einops length {k}, not understood")
               for k, v in lengths.items()}
    if not isinstance(pattern, str) or not known(tensor):
        return ctx.unknown(f"einops.{kind} of unknown input")
    ctx.require("->" in pattern, op, f"Pattern '{pattern}' must contain '->'", INVALID_ARGUMENT)
    left_s, _, right_s = pattern.partition("->")
    left, right = parse_side(ctx, left_s, op), parse_side(ctx, right_s, op)
    if left is None or right is None:
        return ctx.unknown("einops pattern")
    ln, rn = _names(left), _names(right)
    ctx.require(_has_ellipsis(left) == _has_ellipsis(right) or kind == "reduce" and not _has_ellipsis(right), op,
                f"Ellipsis found in {'left' if _has_ellipsis(left) else 'right'} side, but not "
                f"{'right' if _has_ellipsis(left) else 'left'} side of a pattern {pattern}", INVALID_ARGUMENT)
    if kind == "rearrange":
        ctx.require(ln == rn, op, f"Identifiers only on one side of expression (should be on both): "
                    f"{sorted(ln ^ rn)}", INVALID_ARGUMENT)
        anon = [a for g in left + right for a in g.axes if a.isdigit() and a != "1"]
        ctx.require(not anon, op, "Non-unitary anonymous axes are not supported in rearrange (exception is length 1)",
                    INVALID_ARGUMENT)
    elif kind == "repeat":
        ctx.require(ln <= rn, op, f"Unexpected identifiers on the left side of repeat: {sorted(ln - rn)}", INVALID_ARGUMENT)
        new = rn - ln
        missing = sorted(a for a in new if a not in lengths)
        ctx.require(not missing, op, f"Specify sizes for new axes in repeat: {missing}", INVALID_ARGUMENT)
    else:
        ctx.require(rn <= ln, op, f"Unexpected identifiers on the right side of reduce {kind}: {sorted(rn - ln)}",
                    INVALID_ARGUMENT)
    unused = sorted(k for k in lengths if k not in ln | rn)
    ctx.require(not unused, op, f"Axis {unused[0] if unused else ''} is not used in transform", INVALID_ARGUMENT)
    bound = bind_left(ctx, left, shape_of(tensor), lengths, op)
    if bound is None:
        return ctx.unknown("einops binding")
    sizes, ell = bound
    for a in rn - ln:
        sizes[a] = lengths[a]
    return tensor.with_shape(compose_right(right, sizes, ell))


def _lengths(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in kwargs.items()}


@model("einops.rearrange")
def rearrange(ctx: Ctx, tensor: Any, pattern: Any, **axes_lengths: Any) -> Any:
    return transform(ctx, tensor, pattern, "rearrange", _lengths(axes_lengths))


@model("einops.repeat")
def repeat(ctx: Ctx, tensor: Any, pattern: Any, **axes_lengths: Any) -> Any:
    return transform(ctx, tensor, pattern, "repeat", _lengths(axes_lengths))


@model("einops.reduce")
def reduce(ctx: Ctx, tensor: Any, pattern: Any, reduction: Any = "mean", **axes_lengths: Any) -> Any:
    return transform(ctx, tensor, pattern, "reduce", _lengths(axes_lengths))


@model("einops.parse_shape")
def parse_shape(ctx: Ctx, x: Any, pattern: Any) -> Any:
    if not known(x) or not isinstance(pattern, str):
        return ctx.unknown("parse_shape")
    groups = parse_side(ctx, pattern, "parse_shape")
    if groups is None:
        return ctx.unknown("parse_shape pattern")
    bound = bind_left(ctx, [g if g.axes != ("_",) else Group(("_",), False) for g in groups], shape_of(x), {},
                      "parse_shape")
    return {} if bound is None else {k: v for k, v in bound[0].items() if k != "_"}


@model("einops.einsum")
def einsum(ctx: Ctx, *args: Any) -> Any:
    """`einsum(a, b, "b i d, b j d -> b i j")`: multi-letter axis names mapped to letters for torch.einsum."""
    if not args or not isinstance(args[-1], str):
        return ctx.unknown("einops.einsum")
    pattern, tensors = args[-1], args[:-1]
    if "->" not in pattern:
        ctx.require(False, "einsum", f"Pattern '{pattern}' must contain '->'", INVALID_ARGUMENT)
        return ctx.unknown("einops.einsum")
    names: dict[str, str] = {}
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def conv(side: str) -> str:
        out = []
        for w in side.split():
            if w == ELLIPSIS:  # torch.einsum's own ellipsis
                out.append(w)
                continue
            if w not in names:
                names[w] = letters[len(names) % len(letters)]
            out.append(names[w])
        return "".join(out)

    lhs, _, rhs = pattern.partition("->")
    eq = ",".join(conv(t) for t in lhs.split(",")) + "->" + conv(rhs)
    from pytea_ci.models.torch.products import einsum as torch_einsum

    return torch_einsum(ctx, eq, *tensors)


# ----- pack / unpack ---------------------------------------------------------------------------------------


def _star_split(ctx: Ctx, pattern: Any, op: str) -> tuple[int, int] | None:
    if not isinstance(pattern, str):
        return None
    parts = pattern.split()
    ctx.require(parts.count("*") == 1, op, f"{op} pattern should contain exactly one '*', got '{pattern}'", INVALID_ARGUMENT)
    i = parts.index("*")
    return i, len(parts) - i - 1


@model("einops.pack")
def pack(ctx: Ctx, tensors: Any, pattern: Any) -> Any:
    split = _star_split(ctx, pattern, "pack")
    items = ctx.iterate(tensors)
    if split is None or items is None or not items or not all(known(t) for t in items):
        return (ctx.unknown("einops.pack"), ctx.unknown("packed shapes"))
    before, after = split
    shapes = [shape_of(t) for t in items]
    for k, s in enumerate(shapes):
        ctx.require(len(s) >= before + after, "pack", f"packed tensor #{k} (enumeration starts with 0) has shape "
                    f"{fmt(s)}, while pattern {pattern} assumes at least {before + after} axes",
                    operands=(f"tensor {k}: {fmt(s)}",))
    first = shapes[0]
    for k, s in enumerate(shapes[1:], 1):
        outer = list(zip(first[:before], s[:before])) + list(zip(first[len(first) - after:], s[len(s) - after:]))
        ctx.require(P.and_(*[P.eq(a, b) for a, b in outer]), "pack", f"Sizes of tensors must match except in the "
                    f"packed dimension: {fmt(first)} (tensor 0) vs {fmt(s)} (tensor {k}) for pattern '{pattern}'",
                    operands=(f"tensor 0: {fmt(first)}", f"tensor {k}: {fmt(s)}"))
    star = [tuple(s[before:len(s) - after]) for s in shapes]
    total: Dim = 0
    for st in star:
        total = total + prod(st)
    packed = items[0].with_shape(tuple(first[:before]) + (total,) + tuple(first[len(first) - after:]))
    return (packed, list(star))


@model("einops.unpack")
def unpack(ctx: Ctx, tensor: Any, packed_shapes: Any, pattern: Any) -> Any:
    split = _star_split(ctx, pattern, "unpack")
    shapes = ctx.iterate(packed_shapes)
    if split is None or shapes is None or not known(tensor):
        return ctx.unknown("einops.unpack")
    before, after = split
    s = shape_of(tensor)
    ctx.require(len(s) == before + after + 1, "unpack", f"unpack(..., {pattern}) received input of wrong dim with "
                f"shape {fmt(s)}", operands=(f"tensor: {fmt(s)}",))
    total: Dim = 0
    parts = []
    for ps in shapes:
        dims = ctx.iterate(ps)
        if dims is None or not all(is_dim(d) for d in dims):
            return ctx.unknown("einops.unpack of unknown shapes")
        total = total + prod(list(dims))
        parts.append(tuple(dims))
    ctx.require(P.eq(s[before], total), "unpack", f"Error during unpack(..., \"{pattern}\"): could not split axis of "
                f"size {s[before]!r} into requested {[list(p) for p in parts]}", operands=(f"tensor: {fmt(s)}",),
                dims=(("packed axis", s[before]), ("requested", total)))
    return [tensor.with_shape(tuple(s[:before]) + p + tuple(s[before + 1:])) for p in parts]


# ----- layers ----------------------------------------------------------------------------------------------


@native_class("einops.layers.torch.Rearrange", bases=(Module,))
class Rearrange:
    def init(ctx: Ctx, self: Instance, pattern: Any, **axes_lengths: Any) -> None:
        self.attrs.update(training=True, pattern=pattern, lengths=dict(axes_lengths))

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return transform(ctx, input, self.attrs["pattern"], "rearrange", self.attrs["lengths"])


@native_class("einops.layers.torch.Reduce", bases=(Module,))
class Reduce:
    def init(ctx: Ctx, self: Instance, pattern: Any, reduction: Any = "mean", **axes_lengths: Any) -> None:
        self.attrs.update(training=True, pattern=pattern, lengths=dict(axes_lengths))

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return transform(ctx, input, self.attrs["pattern"], "reduce", self.attrs["lengths"])


@native_class("einops.layers.torch.Repeat", bases=(Module,))
class Repeat:
    def init(ctx: Ctx, self: Instance, pattern: Any, **axes_lengths: Any) -> None:
        self.attrs.update(training=True, pattern=pattern, lengths=dict(axes_lengths))

    def forward(ctx: Ctx, self: Instance, input: Any) -> Any:
        return transform(ctx, input, self.attrs["pattern"], "repeat", self.attrs["lengths"])


_ = Tensor
