"""The totals every format reports: findings by level and by rule, entry points analyzed and cached, time."""

from __future__ import annotations

from dataclasses import dataclass

from pytea_ci import __version__
from pytea_ci.diagnostics import RULES, Diagnostic, Severity
from pytea_ci.diagnostics.result import RunResult

TOOL_NAME = "pytea-ci"
LEVELS: tuple[Severity, ...] = (Severity.ERROR, Severity.WARNING, Severity.NOTE)  # gravest first
FAILED_STATUSES = frozenset({"internal-error", "incomplete"})  # entry statuses the tool must own up to


@dataclass(frozen=True)
class Summary:
    by_level: dict[str, int]  # "error" | "warning" | "note" -> count, every level present
    by_rule: dict[str, int]  # rule id -> count, in catalogue order, only rules that fired
    entries: int
    analyzed: int  # entry points analyzed in this run (the others came from the result cache)
    cached: int
    incomplete: int
    internal_errors: int
    seconds: float

    @property
    def findings(self) -> int:
        return sum(self.by_level.values())


def tool_version(result: RunResult) -> str:
    return result.tool_version or __version__


def summarize(result: RunResult, diagnostics: list[Diagnostic] | None = None) -> Summary:
    """Count `diagnostics` (by default the run's de-duplicated diagnostics) and the run's entry points."""
    diags = result.diagnostics if diagnostics is None else diagnostics
    by_level = {level.value: 0 for level in LEVELS}
    fired: dict[str, int] = {}
    for d in diags:
        by_level[d.severity.value] += 1
        fired[d.rule] = fired.get(d.rule, 0) + 1
    order = {r.id: i for i, r in enumerate(RULES)}
    by_rule = dict(sorted(fired.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))
    cached = sum(e.cached for e in result.entries)
    return Summary(
        by_level=by_level,
        by_rule=by_rule,
        entries=len(result.entries),
        analyzed=len(result.entries) - cached,
        cached=cached,
        incomplete=sum(e.status == "incomplete" for e in result.entries),
        internal_errors=sum(e.status == "internal-error" for e in result.entries),
        seconds=round(result.seconds, 3),
    )


def gravest_first(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics ordered by decreasing severity, then by position (stable)."""
    return sorted(diagnostics, key=lambda d: (-d.severity.rank, d.sort_key()))
