"""Run the analyzer over entry points: cached results first, the rest in parallel processes.

One entry point's failure never stops the others. Results come back in the order the entry points
were given, whatever `jobs` is, so the output of `--jobs N` is identical to `--jobs 1`.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytea_ci import __version__
from pytea_ci.diagnostics.budgets import RUN, WALL_CLOCK, steps_for
from pytea_ci.diagnostics.result import EntryResult, EntryStats, RunResult
from pytea_ci.diagnostics.rules import INCOMPLETE
from pytea_ci.driver import notebook
from pytea_ci.interp.budget import Budget

if TYPE_CHECKING:  # the interpreter, models and solver load only when an entry point is analyzed
    from pytea_ci.driver.imports_graph import ImportGraph
    from pytea_ci.interp.observe import Editor
    from pytea_ci.packages.disk import DiskCache
    from pytea_ci.interp.installed import Installed
    from pytea_ci.interp.project_imports import ProjectImports
    from pytea_ci.solver import Decider

Progress = Callable[[int, int, str], None]  # (done, total, entry being finished)
RUN_WALL_FACTOR = 2.0  # the run's wall-clock safety net: this many real seconds per reference second of `run-budget`
RUN_WALL_MIN = 60.0  # and never less than this (a small budget is about steps, not a fast machine)
# an entry may run until this part of the real time left before the run's safety net, or its share if larger:
# on a busy machine its share alone could not finish an import the entries after it reuse (a package's
# first module imports the package, and a cut import is not kept), and one entry stuck in uncounted work
# (asteroid's SuDORMRF: 498 s for 15,780 steps) still leaves time to those after it
WALL_SHARE_FLOOR = 0.25


@dataclass(frozen=True)
class Share:
    """An entry's part of the run budget: `steps`, and `seconds` before the run's wall-clock safety net
    ends it (None: no safety net)."""

    steps: int
    seconds: float | None = None


@dataclass
class RunMeter:
    """The budget of the whole invocation (`run-budget`), in interpreter steps, shared by its entries
    (`share`): each gets what it asks for while what is left covers every entry still to come, else the
    same part of what is left, in proportion. The entry points get one share, fixed before any runs, and
    are charged in their deterministic order (with the steps they ran; cached ones with those they ran
    when computed); the library targets, one after the other, each its share of what the ones before left.
    So the run stays within its steps, and what each entry is given never depends on the machine or on
    `jobs`; an entry that starts with nothing left (an overrun) is reported as not analyzed (PT011).

    `deadline` (monotonic seconds) is the run's wall-clock safety net, for a machine much slower than
    the reference one: past it nothing more starts and what runs is stopped (each analysis gets it as
    its `run_deadline`), so a run always ends; where it stops then depends on the machine, and says so."""

    limit: int | None = None
    used: int = 0
    deadline: float | None = None
    pending: int = 0  # the steps the entries still to come ask for (`expect`): what `share` divides among them
    paid: set[str] = field(default_factory=set)  # kept project imports whose cold run was charged (`charge_entry`)

    @property
    def exhausted(self) -> bool:
        return (self.limit is not None and self.used >= self.limit) or self.late

    @property
    def late(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def charge(self, steps: int) -> None:
        self.used += steps

    def charge_entry(self, stats: EntryStats) -> None:
        """An entry's steps, the shared work it did for its file's other targets, and the cold run of each
        kept project import it used the first time one is met in the run's order (interp/project_imports.py):
        whichever entry ran it, in whichever process, the run is charged it once."""
        self.charge(stats.steps + stats.shared_steps)
        for key, steps in sorted(stats.shared_imports.items()):
            if key not in self.paid:
                self.paid.add(key)
                self.charge(steps)

    def expect(self, steps: int) -> None:
        """The entries still to come ask for `steps` in all (each its per-entry budget)."""
        self.pending = steps

    def share(self, asked: int, count: int = 1) -> Share:
        """The budget of each of the next `count` entries, which ask for `asked` steps each. Steps: all of
        it while what is left covers every entry still to come, else the same part of what is left for
        each, in proportion to what it asks for; a function of steps only, never of the machine nor of
        `jobs`. They leave `pending`; what an entry does not use stays for the ones after it. Seconds: the
        same part of the real time left before the safety net, so that on a machine too slow (or too
        busy) for the steps every entry still gets its turn, cut where it stopped, instead of the first
        ones taking all the time and the others none (at least `WALL_SHARE_FLOOR` of that time)."""
        wanted = asked * count
        pending, self.pending = max(self.pending, wanted, 1), max(0, self.pending - wanted)
        seconds = None if self.deadline is None else (max(0.0, self.deadline - time.monotonic())
                                                      * max(asked / pending, WALL_SHARE_FLOOR))
        if self.limit is None:
            return Share(asked, seconds)
        left = max(0, self.limit - self.used)
        return Share(asked if left >= pending else left * asked // pending, seconds)

    def admit(self, count: int, each: int) -> int:
        """How many of `count` jobs costing `each` steps may start (each is charged as it is admitted)."""
        n = 0
        while n < count and not self.exhausted:
            self.charge(each)
            n += 1
        return n

    def bounded(self, budget: Budget, seconds: float | None = None) -> Budget:
        """`budget` with the run's safety net as its `run_deadline` (the earlier one wins), and at most
        `seconds` (an entry's share of the time before it) as its own safety net."""
        if seconds is not None and seconds < budget.wall_seconds:
            budget = dataclasses.replace(budget, wall_seconds=seconds)
        if self.deadline is None or (budget.run_deadline is not None and budget.run_deadline <= self.deadline):
            return budget
        return dataclasses.replace(budget, run_deadline=self.deadline)

    def until(self, seconds: float | None) -> float | None:
        """The deadline (monotonic seconds) of an entry starting now with `seconds` (its share), or the run's."""
        if seconds is None or self.deadline is None:
            return self.deadline
        return min(self.deadline, time.monotonic() + seconds)

    @classmethod
    def for_budget(cls, seconds: float, started: float | None = None) -> RunMeter:
        """The meter of `run-budget` = `seconds` (0: no limit), its safety net counted from `started`
        (monotonic seconds; default now): the reading of the project before the analyses counts too."""
        if not seconds:
            return cls()
        start = time.monotonic() if started is None else started
        return cls(steps_for(seconds), deadline=start + max(RUN_WALL_MIN, RUN_WALL_FACTOR * seconds))

    def not_analyzed(self, rel: str) -> EntryResult:
        from pytea_ci.diagnostics import Diagnostic, Severity, Span

        if self.limit is not None and self.used >= self.limit:
            why = f"the {RUN} budget ({self.limit} steps, `run-budget`) was reached by what was analyzed before it"
        else:
            why = (f"the run's {WALL_CLOCK} ({RUN_WALL_FACTOR:g} × `run-budget` in real seconds, at least "
                   f"{RUN_WALL_MIN:g}) was reached before it")
        d = Diagnostic(INCOMPLETE.id, Severity.NOTE, Span(rel, 1, 0), f"not analyzed: {why}", entry=rel)
        return EntryResult(rel, [d], status="incomplete")


@dataclass
class Options:
    root: str = "."
    exclude: list[str] = field(default_factory=list)  # globs of project files the run skips (`exclude`)
    budget: Budget = field(default_factory=Budget)
    solver_timeout_ms: int = 2000
    entry_options: dict[str, Any] = field(default_factory=dict)  # argparse overrides etc.
    strict: bool = False  # re-raise internal errors (used by the test suite)
    cache_dir: str | None = None  # None: no on-disk cache (results and solver answers)
    jobs: int = 1
    per_entry: dict[str, dict[str, Any]] = field(default_factory=dict)  # abs entry -> its options
    meter: RunMeter = field(default_factory=RunMeter)  # the invocation's budget (the parent process's copy counts)
    entry_seconds: float | None = None  # each entry point's share of the real time before the run's safety net
    decider: Decider | None = None  # kept across runs by a long-lived process (driver/resident.py)
    editor: Editor | None = None  # an editor's buffers, shape recorder and cancel test (the language server)
    progress: Progress | None = None  # shown for the modules checked alone too (entry points get it passed)


@dataclass
class RunFigures:
    """What the run cost: entry points analyzed vs from cache, solver questions and cache hits."""

    analyzed: int = 0
    cached: int = 0
    z3_calls: int = 0
    solver_cache_hits: int = 0
    seconds: float = 0.0

    @property
    def solver_queries(self) -> int:
        return self.z3_calls + self.solver_cache_hits

    @property
    def solver_hit_rate(self) -> float:
        return self.solver_cache_hits / self.solver_queries if self.solver_queries else 0.0

    @property
    def result_hit_rate(self) -> float:
        total = self.analyzed + self.cached
        return self.cached / total if total else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"analyzed": self.analyzed, "cached": self.cached, "z3_calls": self.z3_calls,
                "solver_cache_hits": self.solver_cache_hits, "solver_queries": self.solver_queries,
                "solver_hit_rate": round(self.solver_hit_rate, 4), "result_hit_rate": round(self.result_hit_rate, 4),
                "seconds": round(self.seconds, 3)}


def make_decider(opts: Options) -> Decider:
    if opts.decider is not None:
        return opts.decider
    from pytea_ci.solver import Decider
    from pytea_ci.solver.decide import MemoryCache, QueryCache
    from pytea_ci.solver.diskcache import DiskQueryCache

    cache: QueryCache = (DiskQueryCache(os.path.join(opts.cache_dir, "solver")) if opts.cache_dir
                         else MemoryCache())
    return Decider(timeout_ms=opts.solver_timeout_ms, cache=cache, salt=f"pytea-ci {__version__}")


def entry_options(entry: str, opts: Options) -> dict[str, Any]:
    return opts.per_entry.get(os.path.abspath(entry), opts.entry_options)


def run(entries: list[str], opts: Options, progress: Progress | None = None) -> RunResult:
    return run_with_figures(entries, opts, progress)[0]


def run_with_figures(entries: list[str], opts: Options, progress: Progress | None = None,
                     graph: ImportGraph | None = None) -> tuple[RunResult, RunFigures]:
    """`graph`: the import graph the entry points were selected with (its closures are reused)."""
    from pytea_ci.driver import (
        results,  # the cache-aware half lives apart to keep this module small
    )

    t0 = time.monotonic()
    out, figures = results.run_cached(entries, opts, progress, graph)
    result = RunResult(entries=out, tool_version=__version__)
    result.seconds = figures.seconds = time.monotonic() - t0
    return result, figures


def analyze_entry(*args: Any, **kwargs: Any) -> EntryResult:
    """`pytea_ci.interp.explore.analyze_entry`, imported on first use (a warm run never needs it)."""
    from pytea_ci.interp.explore import analyze_entry as analyze

    return analyze(*args, **kwargs)


@functools.lru_cache(maxsize=1)
def use_package_cache(cache_dir: str | None) -> "DiskCache | None":
    """Where what installed packages' imports left is kept on disk (packages/disk.py): one object per
    cache folder for the process, so the entries it read serve every entry point it analyzes."""
    if cache_dir is None:
        return None
    from pytea_ci.driver.identity import analyzer_hash
    from pytea_ci.packages.disk import DiskCache

    return DiskCache(cache_dir, f"{__version__} {analyzer_hash()}")


def installed_packages(options: dict[str, Any], cache_dir: str | None) -> "Installed":
    """The installed packages an entry point may read (its `site` option), handed to the interpreter."""
    from pytea_ci.packages.installed import Packages

    return Packages.from_options(options, use_package_cache(cache_dir))


def project_files(root: str, exclude: tuple[str, ...]) -> list[str]:
    """The project's Python files as the run sees them (hidden folders, virtual environments and `exclude`
    skipped), for the interpreter's searches of the project (interp/project_writes.py)."""
    from pytea_ci.driver.discover import python_files

    return python_files(root, root, list(exclude))


def project_imports() -> "ProjectImports":
    """A run's store of the project packages' imports (one per process of the run: never kept between runs)."""
    from pytea_ci.interp.project_imports import ProjectImports

    return ProjectImports()


def run_one(entry: str, opts: Options, decider: Decider, imports: "ProjectImports | None" = None) -> EntryResult:
    from pytea_ci.diagnostics import Diagnostic, Severity, Span
    from pytea_ci.interp.observe import NO_EDITOR

    rel = os.path.relpath(os.path.abspath(entry), os.path.abspath(opts.root))
    options = entry_options(entry, opts)
    try:
        result = analyze_entry(entry, opts.root, decider, opts.meter.bounded(opts.budget, opts.entry_seconds), options, opts.root, opts.strict,
                               installed=installed_packages(options, opts.cache_dir), editor=opts.editor or NO_EDITOR,
                               imports=imports, project_files=functools.partial(project_files, opts.root, tuple(opts.exclude)))
        return notebook.to_file(result, opts.root)  # notebook findings placed on the .ipynb file
    except Exception as e:  # an analyzer bug: report it for this entry point, keep going
        if opts.strict:
            raise
        import traceback

        where = traceback.extract_tb(e.__traceback__)[-1]
        text = f"internal error: {type(e).__name__}: {e} (at {os.path.basename(where.filename)}:{where.lineno})"
        d = Diagnostic(INCOMPLETE.id, Severity.NOTE, Span(rel, 1, 0), f"analysis failed: {text}", entry=rel)
        return EntryResult(rel, [d], status="internal-error", error=text)
