"""What a run produced, per entry point and in total: the input of every reporter."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pytea_ci.diagnostics.diagnostic import Diagnostic
from pytea_ci.diagnostics.modshapes import ModuleShapes


@dataclass
class EntryStats:
    """Figures of one entry point. Locations in the lists are `[path, line, col]` as in `Span`
    (1-based line, 0-based byte column); the lists stay plain data so the result cache stores them."""

    paths: int = 0
    steps: int = 0
    unknowns: int = 0  # tensor operations (call sites) that received a value the analyzer did not understand
    unmodeled: dict[str, int] = field(default_factory=dict)  # unmodeled API name -> count
    ops_reached: int = 0  # tensor operations (call sites) reached on some path
    ops_checked: int = 0  # of them, those checked with known shapes (concrete or symbolic) on some path
    checks_decided: int = 0  # shape checks decided (holds, fails, or a warning)
    checks_skipped: int = 0  # shape checks skipped because a symbol had no usable kind
    # {"location": [path, line, col], "what": str, "ops": n}: what made the values not understood, by ops disabled
    unknown_origins: list[dict[str, Any]] = field(default_factory=list)
    # {"kind": "exception" | "budget" | "launcher" | "import", "location": [...], "reason": str, "module": str | None,
    #  "paths": n}: paths that ended before the program's end (kind exception: the program raised; import: the
    #  rest of a project module whose import raised, not followed while the path went on)
    ended_paths: list[dict[str, Any]] = field(default_factory=list)
    # [file, class] of the project's nn.Module classes built / whose `forward` returned with known inputs
    # (library mode, `auto`: the ones built or defined in the files asked about but never run are checked alone)
    modules_built: list[list[str]] = field(default_factory=list)
    modules_run: list[list[str]] = field(default_factory=list)
    concrete_checks: int = 0
    z3_calls: int = 0
    cache_hits: int = 0
    undecided: int = 0
    seconds: float = 0.0
    z3_seconds: float = 0.0
    # steps of work done for the other entries of the run too (library mode: a file's import prefix, which its
    # targets restore): charged to the run's budget, not to the entry's own (interp/snapshot.py `_run_shared`)
    shared_steps: int = 0
    # the run's kept imports of project packages this entry used (interp/project_imports.py): key digest ->
    # the steps of their cold run, charged to the run's budget once per key whichever entry ran it
    shared_imports: dict[str, int] = field(default_factory=dict)

    @property
    def coverage(self) -> float | None:
        """Checked / reached tensor operations; None when no tensor operation was reached."""
        return self.ops_checked / self.ops_reached if self.ops_reached else None


@dataclass
class EntryResult:
    """One analyzed entry point. `status` is ok | findings | incomplete | parse-error | internal-error."""

    entry: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: EntryStats = field(default_factory=EntryStats)
    status: str = "ok"
    error: str = ""  # internal error text, when status == internal-error
    cached: bool = False
    shapes: ModuleShapes | None = None  # a module checked in library mode: its contract and layers (job summary)
    inputs: dict[str, str] = field(default_factory=dict)  # data files of the project read: path -> content hash


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
