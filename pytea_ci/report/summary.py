"""The totals every format reports: findings by level and by rule, entry points analyzed and cached,
tensor operations checked (coverage), what made values not understood, time."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pytea_ci import __version__
from pytea_ci.diagnostics import RULES, Diagnostic, Severity
from pytea_ci.diagnostics.result import EntryResult, EntryStats, RunResult
from pytea_ci.diagnostics.rules import INCOMPLETE

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
    ops_reached: int = 0
    ops_checked: int = 0

    @property
    def findings(self) -> int:
        return sum(self.by_level.values())

    @property
    def coverage(self) -> float | None:
        return self.ops_checked / self.ops_reached if self.ops_reached else None


def percent(ratio: float | None) -> str:
    """`92%`, rounded down (99.6% is not 100%); `n/a` when no tensor operation was reached."""
    return "n/a" if ratio is None else f"{math.floor(ratio * 100 + 1e-9)}%"


def checked_text(checked: int, reached: int) -> str:
    """`checked 212 of 230 tensor operations (92%)`."""
    return f"checked {checked} of {reached} tensor operation{'s' if reached != 1 else ''} " \
           f"({percent(checked / reached if reached else None)})"


def hit_budget(e: EntryResult) -> bool:
    """Stopped by a budget: status incomplete, or findings reported before a budget was reached."""
    return e.status == "incomplete" or (e.status == "findings" and any(d.rule == INCOMPLETE.id for d in e.diagnostics))


@dataclass(frozen=True)
class OriginTotal:
    """One origin of values not understood, over a run: what made it, where, and the operations it disabled."""

    what: str
    path: str
    line: int
    ops: int


def top_origins(entries: list[EntryResult], limit: int = 5) -> list[OriginTotal]:
    """The origins that disabled the most tensor operations, over all entry points (each op once per entry)."""
    totals: dict[tuple[str, str, int], int] = {}
    for e in entries:
        for o in e.stats.unknown_origins:
            key = (o["what"], o["location"][0], o["location"][1])
            totals[key] = totals.get(key, 0) + o["ops"]
    ranked = sorted(totals.items(), key=lambda kv: -kv[1])  # stable: ties keep the entries' order
    return [OriginTotal(what, path, line, ops) for (what, path, line), ops in ranked[:limit]]


def below(entries: list[EntryResult], minimum: float) -> list[EntryResult]:
    """Entry points whose coverage is below `minimum` (a ratio); those that reached no operation are not."""
    return [e for e in entries if e.stats.coverage is not None and e.stats.coverage < minimum]


def coverage_data(stats: EntryStats) -> dict[str, Any]:
    """The coverage figures of one entry point as plain data (JSON, SARIF properties)."""
    return {"reached": stats.ops_reached, "checked": stats.ops_checked,
            "skipped": stats.ops_reached - stats.ops_checked,
            "ratio": None if stats.coverage is None else round(stats.coverage, 4),
            "checks_decided": stats.checks_decided, "checks_skipped": stats.checks_skipped}


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
        incomplete=sum(hit_budget(e) for e in result.entries),
        internal_errors=sum(e.status == "internal-error" for e in result.entries),
        seconds=round(result.seconds, 3),
        ops_reached=sum(e.stats.ops_reached for e in result.entries),
        ops_checked=sum(e.stats.ops_checked for e in result.entries),
    )


def gravest_first(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics ordered by decreasing severity, then by position (stable)."""
    return sorted(diagnostics, key=lambda d: (-d.severity.rank, d.sort_key()))


def construction(e: EntryResult) -> dict[str, str]:
    """How a module checked alone was built (`{"construction": "Net(4) at model.py:14"}`): one module
    built two ways is two entries with the same name, told apart by this; {} for an entry point."""
    return {"construction": e.shapes.construction} if e.shapes is not None else {}
