"""Human text output in the style of ruff and mypy: `path:line:col: PT001 [slug] error: message` (the
level in words, so an error and a warning differ without colours: CI logs, pipes), then
the source line with a caret span under the failing expression, the shapes involved, where their dims
came from, the call path, and a summary line.

Columns are 1-based characters (Unicode code points, as editors and ruff count them), converted from
the analyzer's UTF-8 byte offsets by `Sources`. The caret line is padded by display width: a tab
counts as the 4 spaces it is shown as, wide characters (CJK, most emoji) as two cells, combining marks
as none, so the carets sit under the expression on a terminal. No control character from a file name,
a message or a source line reaches the terminal: each is shown escaped (`\\x1b`, `\\n`).
"""

from __future__ import annotations

import os
import unicodedata
from typing import IO

from pytea_ci.diagnostics import Diagnostic, Span, rule_by_id
from pytea_ci.diagnostics.result import RunResult
from pytea_ci.report.source import Sources, Unit
from pytea_ci.report.summary import checked_text, summarize

_COLORS = {"error": "\033[31m", "warning": "\033[33m", "note": "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"
_TAB = "    "


def use_color(stream: IO[str]) -> bool:
    return bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")


def clean(text: str) -> str:
    """No control characters (ANSI escapes, newlines) from file names or messages reach the terminal."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


_clean = clean


def _clean_source(text: str) -> str:
    """A source line for display: tabs as spaces, other control characters escaped."""
    return _clean(text.replace("\t", _TAB))


def _width(text: str) -> int:
    """Terminal cells taken by (already cleaned) text."""
    cells = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        cells += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return cells


def _binary(line: str) -> bool:
    """A line of a file that is not text (a binary file named .py): no snippet, its bytes mean nothing."""
    return "\x00" in line or "\ufffd" in line


def _where(sources: Sources, span: Span) -> str:
    """`path:line:col` with a 1-based character column."""
    col = sources.column(span.path, max(1, span.line), max(0, span.col), Unit.CHAR)
    return f"{sources.display(span.path)}:{span.line}:{col}"


def _caret(sources: Sources, d: Diagnostic, src: str) -> tuple[int, int]:
    """Display-cell offset and width of the caret span under `src` (the span's first line)."""
    r = sources.region(d.span, Unit.CHAR)
    start = r.col - 1
    end = r.end_col - 1 if r.end_line == r.line and r.end_col is not None else len(src)
    end = min(max(end, start + 1), max(len(src), start + 1))
    pad = _width(_clean_source(src[:start]))
    return pad, max(1, _width(_clean_source(src[start:end])))


def format_diagnostic(d: Diagnostic, root: str, color: bool = False, sources: Sources | None = None) -> str:
    sources = sources or Sources(root)
    rule = rule_by_id(d.rule)
    slug = rule.slug if rule else ""
    c = _COLORS.get(d.severity.value, "") if color else ""
    b, r, dm = (_BOLD, _RESET, _DIM) if color else ("", "", "")
    level = d.severity.value
    lines = [f"{b}{_clean(_where(sources, d.span))}{r}: {c}{d.rule}{r} [{slug}] {c}{level}:{r} {_clean(d.message)}"]
    all_lines = sources.lines(d.span.path)
    src = all_lines[d.span.line - 1] if all_lines is not None and 1 <= d.span.line <= len(all_lines) else None
    if src is not None and not _binary(src):
        pad, width = _caret(sources, d, src)
        lines.append(f"   | {_clean_source(src)}")
        lines.append("   | " + " " * pad + c + "^" * width + r)
    for note in d.notes:
        lines.append(f"   = {_clean(note)}")
    for rel in d.related:
        lines.append(f"   = {dm}{_clean(rel.message)} ({_clean(_where(sources, rel.span))}){r}")
    if d.counterexample:
        lines.append("   = counterexample: " + ", ".join(f"{_clean(str(k))} = {v}"
                                                         for k, v in sorted(d.counterexample.items())))
    if d.fix is not None:  # proven by re-analysis (pytea_ci/fixes/); `check --fix` applies the safe ones
        lines.append(f"   = fix: {_clean(d.fix.title)}" + ("" if d.fix.safe else " (unsafe: --unsafe-fixes)"))
    if len(d.trace) > 1:
        lines.append("   = path: " + " -> ".join(f"{_clean(f.message)} ({_clean(_where(sources, f.span))})"
                                                 for f in d.trace[:-1]))
    return "\n".join(lines)


def render(result: RunResult, root: str, color: bool = False) -> str:
    sources = Sources(root)
    out = [format_diagnostic(d, root, color, sources) for d in result.diagnostics]
    counts = {"error": 0, "warning": 0, "note": 0}
    for d in result.diagnostics:
        counts[d.severity.value] += 1
    paths = sum(e.stats.paths for e in result.entries)
    totals = summarize(result)
    cached = sum(1 for e in result.entries if e.cached)
    failed = [e for e in result.entries if e.status == "internal-error"]
    modules = sum(e.shapes is not None for e in result.entries)  # checked alone, in library mode
    programs = len(result.entries) - modules
    summary = (f"Analyzed {programs} entry point{'s' if programs != 1 else ''}"
               + (f" and {modules} module{'s' if modules != 1 else ''} alone" if modules else "")
               + (f" ({cached} from cache)" if cached else "")
               + f": {counts['error']} error(s), {counts['warning']} warning(s), {counts['note']} note(s); "
               f"{checked_text(totals.ops_checked, totals.ops_reached)}; {paths} path(s); {result.seconds:.2f}s"
               + (f"; {len(failed)} internal error(s)" if failed else ""))
    out.append(summary)
    return "\n".join(out) + "\n"
