"""textDocument/hover: on a finding, its message and counterexample; on an nn.Module class name, its
contract and output shape (as `pytea-ci shapes`); on a tensor-valued name, its shape on the paths that
reach it (several when paths differ) and where its symbols come from. From the newest analyses only:
a hover never starts a run."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from lsprotocol import types as T

from pytea_ci.lsp.analysis import Binding
from pytea_ci.lsp.convert import utf16_col
from pytea_ci.diagnostics.modshapes import ModuleShapes
from pytea_ci.report.shapes import render_text
from pytea_ci.diagnostics import grammar

if TYPE_CHECKING:
    from pytea_ci.lsp.server import PyteaServer

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def word_at(line: str, character: int) -> tuple[str, int, int] | None:
    """The identifier under the cursor (string indices: UTF-16 units for text in the BMP)."""
    for m in _WORD.finditer(line):
        if m.start() <= character <= m.end():
            return m.group(), m.start(), m.end()
    return None


def _innermost(tree: ast.Module | None, line: int, kinds: tuple[type, ...]) -> ast.AST | None:
    best: ast.AST | None = None
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, kinds):
            end = node.end_lineno or node.lineno  # type: ignore[attr-defined]
            if node.lineno <= line <= end and (best is None or node.lineno >= best.lineno):  # type: ignore[attr-defined]
                best = node
    return best


def _parse(source: str) -> ast.Module | None:
    try:
        return grammar.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # mid-edit: no scopes
        return None


def scope_lines(tree: ast.Module | None, line: int) -> tuple[int, int] | None:
    """Lines (first, last) of the innermost function around `line`; None at module level or when the
    buffer does not parse."""
    fn = _innermost(tree, line, (ast.FunctionDef, ast.AsyncFunctionDef))
    return (fn.lineno, fn.end_lineno or fn.lineno) if fn is not None else None  # type: ignore[attr-defined]


def forward_input(tree: ast.Module | None, line: int, name: str, contracts: dict[str, ModuleShapes]) -> str | None:
    """On a parameter of `forward` in a class with a contract: the contract's input, which holds on every
    input the module accepts (the recorded bindings also show the ranks library mode tried and rejected)."""
    cls = _innermost(tree, line, (ast.ClassDef,))
    fn = _innermost(tree, line, (ast.FunctionDef, ast.AsyncFunctionDef))
    if not isinstance(cls, ast.ClassDef) or not isinstance(fn, ast.FunctionDef) or fn.name != "forward" \
            or fn.lineno != line or cls.name not in contracts:
        return None
    m = contracts[cls.name]
    for i in m.inputs:
        if i.name == name and i.shape is not None:
            example = f"    example [{', '.join(map(str, i.example))}]" if i.example is not None else ""
            where = "".join(f"\n  {c}" for c in m.contract)
            return f"```text\n{name}: [{', '.join(i.shape)}]{example}\n" + \
                (f"where{where}\n" if where else "") + f"(the input contract of {m.module})\n```"
    return None


def binding_for(items: list[Binding], name: str, line: int, col16: int, lines: list[str],
                scope: tuple[int, int] | None) -> Binding | None:
    """The binding the name at (line, col) refers to: the one right there, else the latest one of the
    same name earlier in the same function (or anywhere in it, for a use before a loop rebinds it)."""
    same = [b for b in items if b.name == name]
    for b in same:
        text = lines[b.line - 1] if b.line <= len(lines) else ""
        if b.line == line and utf16_col(text, b.col) <= col16 <= utf16_col(text, b.end_col):
            return b
    lo, hi = scope if scope is not None else (1, 1 << 30)
    inside = [b for b in same if lo <= b.line <= hi]
    before = [b for b in inside if b.line < line]
    pick = before or inside
    return pick[-1] if pick else None


def describe(b: Binding) -> str:
    head = f"{b.name}: {b.shapes[0]}" if len(b.shapes) == 1 else \
        f"{b.name}: one of {len(b.shapes)} shapes, by path\n" + "\n".join(f"  {s}" for s in b.shapes)
    where = "".join(f"\n  {o}" for o in b.origins)
    return "```text\n" + head + ("\nwhere" + where if where else "") + "\n```"


def _findings(ls: PyteaServer, path: str, line: int, character: int) -> list[str]:
    out = []
    for d in ls.diagnostics_for(path):
        r = d.range
        if r.start.line <= line <= r.end.line and (r.start.line < line or r.start.character <= character) and \
                (r.end.line > line or character <= r.end.character):
            out.append(f"**{d.code}** {d.message}")
    return out


def hover_text(ls: PyteaServer, path: str, line: int, character: int) -> str | None:
    lines = ls.lines(path)
    parts = _findings(ls, path, line, character)
    text = lines[line] if line < len(lines) else ""
    found = word_at(text, character)
    if found is not None:
        name = found[0]
        runs = ls.session.analyses_covering(path)
        contract = next((a.contracts[name] for a in runs if name in a.contracts), None)
        tree = _parse("\n".join(lines))
        param = forward_input(tree, line + 1, name, {k: v for a in runs for k, v in a.contracts.items()})
        if contract is not None:
            parts.append("```text\n" + render_text([contract]).rstrip() + "\n```")
        elif param is not None:
            parts.append(param)
        else:
            items = [b for a in runs for b in a.bindings.get(path, [])]
            b = binding_for(items, name, line + 1, character, lines, scope_lines(tree, line + 1))
            if b is not None:
                parts.append(describe(b))
    return "\n\n---\n\n".join(parts) if parts else None


def register(server: PyteaServer) -> None:
    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(ls: PyteaServer, params: T.HoverParams) -> T.Hover | None:
        from pytea_ci.lsp.session import path_of

        path = path_of(params.text_document.uri)
        if path is None:
            return None
        text = hover_text(ls, path, params.position.line, params.position.character)
        if text is None:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))
