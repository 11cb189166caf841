"""Candidate repairs at the operands of the failing operation itself, read from the expression the finding
is reported on (its span and line), for the kinds the constructor and provenance literals cannot repair:

- an elementwise operation whose operands do not broadcast (`a + b`, `a / b`): an operand given a trailing
  dim (`deg[..., None]`) or two (`mean[:, None, None]`), a table sliced to the other operand's size (`pos[..., :x.size(-2), :]`), or a
  table given its missing leading dim (`table.unsqueeze(0)[...]`);
- a concatenation of tensors of different rank or layout: an element unsqueezed at the joined dim or
  transposed;
- a `view` that cannot hold: `.reshape` for a non-contiguous input, one size replaced by `-1`, or the
  sizes replaced by `x.size(0), -1` (flatten per sample);
- an unpacking: a `chunk(n)` that gives another number of pieces than the names, a tensor of pairs
  unpacked by rows (`.t()`), too many values (`*_, ` in front of the names);
- a 0-dim tensor indexed with `[0]` (`.item()`);
- indices one past the size they index (`labels - 1`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from pytea_ci.diagnostics import Diagnostic, Edit
from pytea_ci.fixes.source import Candidate, Sources, call_at, callee, constant_value, group, span_of, wrap

_ELEMENTWISE = (ast.Add, ast.Sub, ast.Mult, ast.Div)
_TENSORS = (ast.Name, ast.Attribute, ast.Call, ast.Subscript)


def at_operands(d: Diagnostic, src: Sources) -> Iterator[Candidate]:
    """The candidates at the operation on the finding's line, most specific first."""
    tree = src.tree(d.span.path)
    if tree is None:
        return
    on_line = [n for n in ast.walk(tree) if getattr(n, "lineno", None) == d.span.line]
    for n in on_line:
        if isinstance(n, ast.BinOp) and isinstance(n.op, _ELEMENTWISE) and (n.lineno, n.col_offset) == (
                d.span.line, d.span.col):
            ranks = dict(d.sizes)
            yield from _broadcast(d.span.path, n, (ranks.get("rank of self"), ranks.get("rank of other")))
        elif isinstance(n, ast.Call) and callee(n) in ("cat", "concat") and n.args \
                and isinstance(n.args[0], (ast.Tuple, ast.List)):
            yield from _joined(d.span.path, n)
        elif isinstance(n, ast.Call) and callee(n) in ("view", "reshape") and isinstance(n.func, ast.Attribute) \
                and (n.lineno, n.col_offset) <= (d.span.line, d.span.col):
            yield from _view(d.span.path, n)
        elif isinstance(n, (ast.Assign, ast.For)):
            rows = any(label == "rows" for label in [*(r.label for r in d.related), *(k for k, _ in d.sizes)])
            yield from _unpack(d.span.path, n, rows)
        elif isinstance(n, ast.Subscript) and constant_value(n.slice) == 0 and (n.value.lineno, n.value.col_offset) \
                == (d.span.line, d.span.col):
            yield Candidate("[0] -> .item()", Edit(span_of(d.span.path, n), f"{group(n.value)}.item()"), False)


def sizes(d: Diagnostic) -> list[tuple[str, int]]:
    """The sizes a finding's check compared, without the ranks it gives alongside (`rank of self`)."""
    return [(label, v) for label, v in d.sizes if not label.startswith("rank of ")]


def index_offset(d: Diagnostic, src: Sources) -> Iterator[Candidate]:
    """Indices one-based where zero-based were meant: each tensor argument of the call minus the excess of
    the size the indices need over the size they index (`gather(1, labels - 1)`)."""
    sizes = dict(d.sizes)
    excess = sizes.get("size the indices need", 0) - sizes.get("indexed size", 0)
    tree = src.tree(d.span.path)
    call = call_at(tree, d.span) if tree is not None and excess > 0 else None
    for a in [*call.args, *(k.value for k in call.keywords)] if call is not None else ():
        if isinstance(a, _TENSORS):
            text = f"{ast.unparse(a)} - {excess}"
            yield Candidate(f"{ast.unparse(a)} -> {text}", Edit(span_of(d.span.path, a), text), False)


def _broadcast(path: str, n: ast.BinOp, ranks: tuple[int | None, int | None]) -> Iterator[Candidate]:
    """`ranks`: of the left and right operands when the finding gives them; a trailing dim is added only
    to the operand of lower rank (two 1-D operands would broadcast to their outer product)."""
    sides = [(n.left, n.right), (n.right, n.left)]
    lower = [ranks[0] is None or ranks[1] is None or ranks[0] < ranks[1],
             ranks[0] is None or ranks[1] is None or ranks[1] < ranks[0]]
    gap = abs(ranks[0] - ranks[1]) if ranks[0] is not None and ranks[1] is not None else 2
    for suffix in ("[..., None]", "[:, None, None]")[:1 if gap < 2 else 2]:  # a per-row vector, a channel vector
        for (this, _), low in zip(sides, lower):  # indexing, not `.unsqueeze`: NumPy arrays have it too
            if isinstance(this, _TENSORS) and low:
                yield wrap(path, this, suffix)
    for this, other in sides:  # a module's table (`self.pos_embed`) sliced to the other's size, at each of
        if isinstance(this, ast.Attribute) and isinstance(other, _TENSORS):  # the last two dims
            o = group(other)
            yield wrap(path, this, f"[..., :{o}.size(-2), :]")
            yield wrap(path, this, f"[..., :{o}.size(-1)]")
    for this, _ in sides:  # a table missing its leading dim, sliced as if it had it: `t[:, :T]`
        root = _subscripted(this)
        if root is not None:
            yield wrap(path, root, ".unsqueeze(0)")


def _subscripted(node: ast.expr) -> ast.expr | None:
    """The value a method chain indexes first (`self.pos[:, :T].clone()` -> `self.pos`)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        node = node.func.value
    return node.value if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Name, ast.Attribute)) \
        else None


def _joined(path: str, n: ast.Call) -> Iterator[Candidate]:
    dim = next((k.value for k in n.keywords if k.arg == "dim"), n.args[1] if len(n.args) > 1 else None)
    at = constant_value(dim) if dim is not None else 0
    assert isinstance(n.args[0], (ast.Tuple, ast.List))
    items = [e for e in n.args[0].elts if isinstance(e, _TENSORS)]
    for suffix in (f".unsqueeze({at})", ".transpose(1, 2)") if at is not None else (".transpose(1, 2)",):
        for e in items:
            yield wrap(path, e, suffix)


def _view(path: str, n: ast.Call) -> Iterator[Candidate]:
    assert isinstance(n.func, ast.Attribute)
    recv = group(n.func.value)
    args = ", ".join(ast.unparse(a) for a in n.args)
    if n.func.attr == "view":
        yield Candidate(f"{recv}.view -> {recv}.reshape", Edit(span_of(path, n), f"{recv}.reshape({args})"), False)
    if len(n.args) >= 2 and not any(constant_value(a) == -1 for a in n.args):
        for i, a in enumerate(n.args[1:], 1):
            sizes = ", ".join("-1" if j == i else ast.unparse(b) for j, b in enumerate(n.args))
            yield Candidate(f"{ast.unparse(a)} -> -1", Edit(span_of(path, n), f"{recv}.{n.func.attr}({sizes})"), False)
    if n.args and not isinstance(n.args[0], ast.Starred):
        yield Candidate(f"{n.func.attr}({args}) -> {n.func.attr}({recv}.size(0), -1)", Edit(
            span_of(path, n), f"{recv}.{n.func.attr}({recv}.size(0), -1)"), False)


def _unpack(path: str, n: ast.Assign | ast.For, rows: bool) -> Iterator[Candidate]:
    """`rows`: the finding says a tensor is unpacked by its rows (a tuple has no `.t()`)."""
    target = n.targets[0] if isinstance(n, ast.Assign) and len(n.targets) == 1 else getattr(n, "target", None)
    if not isinstance(target, ast.Tuple) or any(isinstance(e, ast.Starred) for e in target.elts):
        return
    names = len(target.elts)
    value = n.value if isinstance(n, ast.Assign) else n.iter
    if isinstance(value, ast.Call) and callee(value) == "chunk" and value.args \
            and constant_value(value.args[0]) not in (None, names):
        yield Candidate(f"chunk({ast.unparse(value.args[0])}) -> chunk({names})",
                        Edit(span_of(path, value.args[0]), str(names)), True)
    if rows and isinstance(n, ast.Assign) and isinstance(value, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
        yield wrap(path, value, ".t()")  # a tensor of pairs unpacked by rows: its columns were meant
    if isinstance(n, ast.Assign):
        text = ", ".join(ast.unparse(e) for e in target.elts)
        yield Candidate(f"{text} -> *_, {text}", Edit(span_of(path, target), f"*_, {text}"), False)
