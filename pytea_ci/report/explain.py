"""`pytea-ci explain` (`check --explain`): for each entry point, what was checked and where the analysis
lost track — the list a user reads to know what to fix or configure, and we read to know what to model.

Per entry point: the coverage line; the origins of values not understood, ranked by the tensor
operations they disabled; the paths that ended early (an exception of the program, a budget, a launcher
not followed) with their location; the budget notes; the unmodeled APIs with how often they were met.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.diagnostics.rules import INCOMPLETE
from pytea_ci.report.source import Sources, Unit
from pytea_ci.report.summary import checked_text
from pytea_ci.report.text import clean as _clean


def _where(sources: Sources, location: list[Any]) -> str:
    path, line, col = location
    return f"{sources.display(path)}:{line}:{sources.column(path, max(1, line), max(0, col), Unit.CHAR)}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def explain_entry(e: EntryResult, sources: Sources) -> list[str]:
    s = e.stats
    head = (f"{sources.display(e.entry)}: {checked_text(s.ops_checked, s.ops_reached)}; {_plural(s.paths, 'path')}; "
            f"shape checks: {s.checks_decided} decided, {s.checks_skipped} skipped (a size of unknown kind)"
            + (" [from cache]" if e.cached else ""))
    out = [_clean(head)]
    if s.unknown_origins:
        out.append("  values not understood, by tensor operations they disabled:")
        out += [f"    {_plural(o['ops'], 'op')}: {_where(sources, o['location'])} {_clean(o['what'])}"
                for o in s.unknown_origins]
    if s.ended_paths:
        out.append("  paths that ended early, and code not followed:")
        out += [f"    {_where(sources, p['location'])} {p['kind']}: {_clean(p['reason'])}"
                + (f" (while importing {p['module']})" if p.get("module") else "")
                + f" [{_plural(p['paths'], 'path')}]" for p in s.ended_paths]
    budgets = [d for d in e.diagnostics if d.rule == INCOMPLETE.id]
    if budgets:
        out.append("  budgets:")
        out += [f"    {_where(sources, [d.span.path, d.span.line, d.span.col])} {_clean(d.message)}" for d in budgets]
    if s.unmodeled:
        out.append("  unmodeled APIs (times met):")
        out += [f"    {n:>4}  {_clean(name)}" for name, n in sorted(s.unmodeled.items(), key=lambda kv: (-kv[1], kv[0]))]
    if len(out) == 1 and s.ops_reached:
        out.append("  every tensor operation reached was checked")
    return out


def render(result: RunResult, root: str) -> str:
    sources = Sources(root)
    lines: list[str] = []
    for e in result.entries:
        lines += [*explain_entry(e, sources), ""]
    return "\n".join(lines)
