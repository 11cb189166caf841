"""Findings as LSP diagnostics, and positions between the analyzer (1-based lines, UTF-8 byte columns)
and LSP (0-based lines, UTF-16 code units)."""

from __future__ import annotations

import os
from collections.abc import Callable

from lsprotocol import types as T

from pytea_ci.diagnostics import Diagnostic, Severity, Span, rule_by_id
from pytea_ci.report.sarif import RULES_DOC_URI

Lines = Callable[[str], list[str]]  # absolute path -> its lines (buffer text when open)

SEVERITY = {Severity.ERROR: T.DiagnosticSeverity.Error, Severity.WARNING: T.DiagnosticSeverity.Warning,
            Severity.NOTE: T.DiagnosticSeverity.Information}


def uri_of(path: str) -> str:
    from pathlib import Path

    return Path(path).as_uri()


def utf16_col(line: str, byte_col: int) -> int:
    prefix = line.encode("utf-8")[:max(0, byte_col)].decode("utf-8", errors="ignore")
    return len(prefix.encode("utf-16-le")) // 2


def byte_col(line: str, utf16: int) -> int:
    units = line.encode("utf-16-le")[:max(0, utf16) * 2].decode("utf-16-le", errors="ignore")
    return len(units.encode("utf-8"))


def to_range(span: Span, lines: list[str]) -> T.Range:
    """The span's range; without an end, to the end of its line (where a finding has only a start)."""
    def at(line: int, col: int) -> T.Position:
        text = lines[line - 1] if 1 <= line <= len(lines) else ""
        return T.Position(max(0, line - 1), utf16_col(text, col))

    start = at(span.line, span.col)
    if span.end_line is not None and span.end_col is not None:
        end = at(span.end_line, span.end_col)
    else:
        text = lines[span.line - 1] if 1 <= span.line <= len(lines) else ""
        end = T.Position(start.line, max(start.character, len(text.encode("utf-16-le")) // 2))
    return T.Range(start, end)


def rule_href(rule: str) -> str | None:
    r = rule_by_id(rule)
    return f"{RULES_DOC_URI}#{r.anchor}" if r is not None else None


def to_lsp(d: Diagnostic, root: str, lines: Lines) -> T.Diagnostic:
    path = os.path.normpath(os.path.join(root, d.span.path))
    href = rule_href(d.rule)
    related = [T.DiagnosticRelatedInformation(
        T.Location(uri_of(os.path.normpath(os.path.join(root, r.span.path))),
                   to_range(r.span, lines(os.path.normpath(os.path.join(root, r.span.path))))), r.message)
        for r in d.related]
    message = d.message
    if d.counterexample:
        message += "\ncounterexample: " + ", ".join(f"{k} = {v}" for k, v in sorted(d.counterexample.items()))
    message += "".join(f"\n{n}" for n in d.notes)
    return T.Diagnostic(range=to_range(d.span, lines(path)), message=message, severity=SEVERITY[d.severity],
                        code=d.rule, code_description=T.CodeDescription(href) if href else None, source="pytea-ci",
                        related_information=related or None,
                        data={"rule": d.rule, "line": d.span.line})
