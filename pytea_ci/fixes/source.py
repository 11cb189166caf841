"""The source side of repairs: reading the files a finding names, finding the expression that starts where
a provenance span points, turning an AST node into the span an `Edit` replaces, and the `Candidate` edits
the candidate modules build from them."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field

from pytea_ci.diagnostics import Edit, Span

_PRIMARY = (ast.Name, ast.Attribute, ast.Call, ast.Subscript)


@dataclass(frozen=True)
class Candidate:
    """One edit that may repair a finding; `prove.py` decides."""

    title: str
    edit: Edit
    literal: bool  # only a literal changes: safe when its proof followed every path


def group(node: ast.expr) -> str:
    """The text of an expression, parenthesized unless it is a primary (`(a + b)`, `x.view(-1)`)."""
    text = ast.unparse(node)
    return text if isinstance(node, _PRIMARY) else f"({text})"


def wrap(path: str, node: ast.expr, suffix: str) -> Candidate:
    """`node` followed by `suffix` (`x` -> `x.flatten(1)`), an edit that is more than a literal."""
    return Candidate(f"{ast.unparse(node)} -> {group(node)}{suffix}", Edit(span_of(path, node), group(node) + suffix),
                     False)


@dataclass
class Sources:
    """Files read once per run, by absolute path: their text (an editor's buffer when given in `texts`) and
    their parse (None when it fails)."""

    root: str
    texts: dict[str, str] = field(default_factory=dict)
    trees: dict[str, ast.Module | None] = field(default_factory=dict)

    def path(self, rel: str) -> str:
        return rel if os.path.isabs(rel) else os.path.join(self.root, rel)

    def text(self, rel: str) -> str | None:
        p = os.path.abspath(self.path(rel))
        if p not in self.texts:
            try:
                with open(p, encoding="utf-8") as f:
                    self.texts[p] = f.read()
            except (OSError, UnicodeDecodeError):
                return None
        return self.texts[p]

    def tree(self, rel: str) -> ast.Module | None:
        p = os.path.abspath(self.path(rel))
        if p not in self.trees:
            text = self.text(rel)
            try:
                self.trees[p] = ast.parse(text) if text is not None and p.endswith(".py") else None
            except SyntaxError:
                self.trees[p] = None
        return self.trees[p]


def parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def starting_at(tree: ast.AST, line: int, col: int) -> list[ast.expr]:
    """The expressions that start at (line, col), outermost first."""
    found = [n for n in ast.walk(tree) if isinstance(n, ast.expr) and n.lineno == line and n.col_offset == col]
    return sorted(found, key=lambda n: (n.end_lineno or 0, n.end_col_offset or 0), reverse=True)


def span_of(path: str, node: ast.AST) -> Span:
    return Span(path, node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]


def constant_value(node: ast.expr) -> int | None:
    """The int an expression of int literals and arithmetic computes (`32 * 12 * 12`), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = constant_value(node.operand)
        return None if v is None else -v
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        a, b = constant_value(node.left), constant_value(node.right)
        if a is None or b is None or (isinstance(node.op, ast.FloorDiv) and b == 0):
            return None
        ops = {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}
        return ops.get(type(node.op), a // b if b else 0)
    return None


def callee(node: ast.Call) -> str:
    """The last name of what a call calls: `F.cross_entropy` -> cross_entropy, `self.fc1` -> fc1,
    `nn.CrossEntropyLoss()(out, y)` -> CrossEntropyLoss."""
    f = node.func
    if isinstance(f, ast.Call):
        return callee(f)
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def call_at(tree: ast.AST, span: Span) -> ast.Call | None:
    """The call a finding is reported on: the one with exactly its span, else the outermost call starting
    where it starts, else the innermost call holding its start."""
    holding = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _holds(n, span.line, span.col)]
    for n in holding:
        if (n.lineno, n.col_offset, n.end_lineno, n.end_col_offset) == (span.line, span.col, span.end_line,
                                                                         span.end_col):
            return n
    starting = [n for n in holding if (n.lineno, n.col_offset) == (span.line, span.col)]
    if starting:
        return max(starting, key=lambda n: (n.end_lineno or 0, n.end_col_offset or 0))
    return min(holding, key=lambda n: (-n.lineno, -n.col_offset), default=None)


def _holds(n: ast.AST, line: int, col: int) -> bool:
    start = (n.lineno, n.col_offset)  # type: ignore[attr-defined]
    end = (n.end_lineno or 0, n.end_col_offset or 0)  # type: ignore[attr-defined]
    return start <= (line, col) < end


def replace(text: str, span: Span, new: str) -> str:
    """`text` with `span` (1-based lines, 0-based UTF-8 byte columns as `ast` gives them, end exclusive)
    replaced by `new`."""
    lines = text.encode("utf-8").splitlines(keepends=True)
    start = sum(len(x) for x in lines[:span.line - 1]) + span.col
    end_line = span.end_line if span.end_line is not None else span.line
    end_col = span.end_col if span.end_col is not None else span.col
    end = sum(len(x) for x in lines[:end_line - 1]) + end_col
    data = text.encode("utf-8")
    return (data[:start] + new.encode("utf-8") + data[end:]).decode("utf-8")
