"""What a run produced, per entry point and in total: the input of every reporter."""

from __future__ import annotations

from dataclasses import dataclass, field

from pytea_ci.diagnostics.diagnostic import Diagnostic


@dataclass
class EntryStats:
    paths: int = 0
    steps: int = 0
    unknowns: int = 0  # tensor operations (call sites) that received a value the analyzer did not understand
    unmodeled: dict[str, int] = field(default_factory=dict)  # unmodeled API name -> count
    concrete_checks: int = 0
    z3_calls: int = 0
    cache_hits: int = 0
    undecided: int = 0
    seconds: float = 0.0
    z3_seconds: float = 0.0


@dataclass
class EntryResult:
    """One analyzed entry point. `status` is ok | findings | incomplete | parse-error | internal-error."""

    entry: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: EntryStats = field(default_factory=EntryStats)
    status: str = "ok"
    error: str = ""  # internal error text, when status == internal-error
    cached: bool = False


@dataclass
class RunResult:
    entries: list[EntryResult] = field(default_factory=list)
    seconds: float = 0.0
    tool_version: str = ""

    @property
    def diagnostics(self) -> list[Diagnostic]:
        seen: set[tuple] = set()
        out: list[Diagnostic] = []
        for e in self.entries:
            for d in e.diagnostics:
                if d.key() not in seen:
                    seen.add(d.key())
                    out.append(d)
        return sorted(out, key=lambda d: d.sort_key())
