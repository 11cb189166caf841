"""Human text output in the style of ruff and mypy: `path:line:col: PT001 [slug] message`, then
the shapes involved, where their dims came from, the call path, and a summary line."""

from __future__ import annotations

import os
from typing import IO

from pytea_ci.diagnostics import Diagnostic, rule_by_id
from pytea_ci.diagnostics.result import RunResult

_COLORS = {"error": "\033[31m", "warning": "\033[33m", "note": "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def use_color(stream: IO[str]) -> bool:
    return bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")


def _source_line(root: str, d: Diagnostic) -> str | None:
    try:
        with open(os.path.join(root, d.span.path), encoding="utf-8", errors="replace") as f:
            for i, line in enumerate(f, 1):
                if i == d.span.line:
                    return line.rstrip("\n")
    except OSError:
        return None
    return None


def _clean(text: str) -> str:
    """No control characters (ANSI escapes, newlines) from file names or messages reach the terminal."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def format_diagnostic(d: Diagnostic, root: str, color: bool = False) -> str:
    rule = rule_by_id(d.rule)
    slug = rule.slug if rule else ""
    c = _COLORS.get(d.severity.value, "") if color else ""
    b, r, dm = (_BOLD, _RESET, _DIM) if color else ("", "", "")
    lines = [f"{b}{_clean(str(d.span))}{r}: {c}{d.rule}{r} [{slug}] {_clean(d.message)}"]
    src = _source_line(root, d)
    if src is not None:
        lines.append(f"   | {src}")
        start = d.span.col
        end = d.span.end_col if d.span.end_line == d.span.line and d.span.end_col else len(src)
        lines.append("   | " + " " * start + c + "^" * max(1, end - start) + r)
    for note in d.notes:
        lines.append(f"   = {_clean(note)}")
    for rel in d.related:
        lines.append(f"   = {dm}{_clean(rel.message)} ({_clean(str(rel.span))}){r}")
    if d.counterexample:
        lines.append("   = counterexample: " + ", ".join(f"{k} = {v}" for k, v in sorted(d.counterexample.items())))
    if len(d.trace) > 1:
        lines.append("   = path: " + " -> ".join(f"{_clean(f.message)} ({_clean(str(f.span))})" for f in d.trace[:-1]))
    return "\n".join(lines)


def render(result: RunResult, root: str, color: bool = False) -> str:
    out = [format_diagnostic(d, root, color) for d in result.diagnostics]
    counts = {"error": 0, "warning": 0, "note": 0}
    for d in result.diagnostics:
        counts[d.severity.value] += 1
    paths = sum(e.stats.paths for e in result.entries)
    unknowns = sum(e.stats.unknowns for e in result.entries)
    cached = sum(1 for e in result.entries if e.cached)
    failed = sum(1 for e in result.entries if e.status == "internal-error")
    summary = (f"Analyzed {len(result.entries)} entry point{'s' if len(result.entries) != 1 else ''}"
               + (f" ({cached} from cache)" if cached else "")
               + f": {counts['error']} error(s), {counts['warning']} warning(s), {counts['note']} note(s); "
               f"{paths} path(s), {unknowns} unknown value(s); {result.seconds:.2f}s"
               + (f"; {failed} internal error(s)" if failed else ""))
    out.append(summary)
    return "\n".join(out) + "\n"
