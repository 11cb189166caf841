"""`pytea-ci check` end to end, minus argument parsing and output: find the project root and its
configuration, apply CLI overrides, select the entry points, run them (cached, in parallel), then
apply the per-rule severity overrides, disabled rules, `--new-only` (driver/newonly.py) and
`--baseline` (driver/baseline.py)."""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass, field
from typing import Any

from pytea_ci.diagnostics import Diagnostic
from pytea_ci.diagnostics.budgets import steps_for
from pytea_ci.diagnostics.modshapes import ModuleShapes
from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.diagnostics.suppress import is_suppressed
from pytea_ci.driver import config as config_mod
from pytea_ci.driver import fs, gitdiff, library_run, sanity
from pytea_ci.driver.config import Config
from pytea_ci.driver.imports_graph import ImportCache, ImportGraph
from pytea_ci.driver.resident import Resident
from pytea_ci.driver.run import Options, Progress, RunFigures, RunMeter, run_with_figures
from pytea_ci.driver.select import Request, Selection, select
from pytea_ci.interp.budget import Budget

TYPE_CHECKING = False  # as typing's: `--new-only` and `--baseline` load their modules when asked for
if TYPE_CHECKING:
    from pytea_ci.driver import newonly


@dataclass
class CheckRequest:
    paths: list[str] = field(default_factory=list)
    root: str | None = None
    config_file: str | None = None
    staged: bool = False
    diff: str | None = None
    affected_only: bool = False
    new_only: bool = False
    baseline: str | None = None  # report only findings not recorded in this baseline file
    classify: bool = False  # tell new findings from pre-existing ones without dropping either (the Action)
    changed_shapes: int = 0  # > 0: the shapes of up to this many modules of the changed files (the Action)
    shard: tuple[int, int] | None = None
    no_cache: bool = False
    args: dict[str, Any] = field(default_factory=dict)  # --arg NAME=VALUE, on top of the config
    overrides: dict[str, Any] = field(default_factory=dict)  # CLI flags by Config attribute name
    progress: Progress | None = None
    resident: Resident | None = None  # the language server's in-memory caches (driver/resident.py)


@dataclass
class CheckOutcome:
    result: RunResult
    figures: RunFigures
    config: Config
    root: str
    messages: list[str]  # warnings
    notes: list[str] = field(default_factory=list)  # what was done, e.g. which --new-only rule was used
    verdict: newonly.Verdict | None = None  # which findings are new, when it was asked
    shapes: list[ModuleShapes] = field(default_factory=list)  # of the changed modules, when asked


def project_root(explicit: str | None, start: str) -> str:
    """--root, else the folder of the nearest pyproject.toml with [tool.pytea-ci], else the git
    work tree, else `start`."""
    if explicit:
        return os.path.abspath(explicit)
    found = config_mod.find_pyproject(start)
    if found:
        return os.path.dirname(os.path.abspath(found))
    top = gitdiff.work_tree(start)
    return top if top is not None else os.path.abspath(start)


def load_config(root: str, config_file: str | None, overrides: dict[str, Any]) -> Config:
    cfg = config_mod.load(root, config_file)
    cfg.override(**overrides)
    return cfg


def cache_dir(cfg: Config, root: str) -> str:
    return os.path.join(root, os.path.expanduser(cfg.cache_dir))


def site(cfg: Config, root: str, cache: str | None = None) -> dict[str, Any]:
    """The installed packages the analysis may read (driver/environment.py); {} without an environment.
    A configured interpreter that cannot be used is an error; one found by default is skipped."""
    from pytea_ci.driver import environment

    python, how = environment.find_python(cfg.python, root)
    try:
        return environment.site_options(python, cfg.follow_packages, cfg.skip_packages, cfg.package_budget, cache)
    except config_mod.ConfigError:
        if how == "configured":
            raise
        return {}


def options(cfg: Config, root: str, entries: list[str], req: CheckRequest) -> Options:
    per_entry = {}
    env = site(cfg, root, None if req.no_cache else cache_dir(cfg, root))
    for e in entries:
        rel = os.path.relpath(e, root).replace(os.sep, "/")
        opts = cfg.analysis_options(rel)
        opts["args"] = {**opts["args"], **req.args}
        if env:
            opts["site"] = env
        per_entry[e] = opts
    budget = Budget(paths=cfg.max_paths, steps=cfg.max_steps, unroll=cfg.loop_unroll,
                    entry_steps=steps_for(cfg.time_budget), wall_seconds=cfg.wall_clock_limit)
    meter = RunMeter(steps_for(cfg.run_budget) if cfg.run_budget else None)
    out = Options(root=root, budget=budget, solver_timeout_ms=cfg.solver_timeout,
                  entry_options={"args": dict(req.args), **({"site": env} if env else {})}, cache_dir=None if req.no_cache else cache_dir(cfg, root),
                  jobs=cfg.jobs, per_entry=per_entry, meter=meter)
    if req.resident is not None:
        out.jobs = 1  # in this process: the resident caches and the source overlay live here
        out.decider = req.resident.decider(out)
    return out


def check(req: CheckRequest) -> CheckOutcome:
    t0 = time.monotonic()
    root = project_root(req.root, os.getcwd())
    cfg = load_config(root, req.config_file, req.overrides)
    cdir = None if req.no_cache else cache_dir(cfg, root)
    graph = ImportGraph(root, req.resident.imports if req.resident is not None else ImportCache(cdir))
    sel = select(Request(root, req.paths, req.staged, req.diff, req.affected_only, req.new_only or req.classify,
                         req.shard, cdir), cfg, graph)
    graph.cache.save()
    opts = options(cfg, root, sel.entries, req)
    warnings = [*sanity.misnamed_sections(req.root or os.getcwd()), *sel.messages]
    wanted = {e: set(o["args"]) for e, o in opts.per_entry.items()}
    warnings += sanity.unknown_args(wanted, set(req.args), graph)
    warnings += sanity.unknown_suppressions(sel.entries, graph, root)
    result, figures = run_with_figures(library_run.entries_to_run(cfg.library_mode, sel.entries), opts,
                                       req.progress, graph)
    changed = sel.changes.changed if sel.changes is not None and (req.staged or req.diff) else None
    library_run.extend(result, cfg.library_mode, cfg.library_time_budget, req.paths, changed, cfg.exclude,
                       sel.entries, opts, graph)
    shapes = _changed_modules(result, sel, req, cfg, changed, opts, graph, warnings)
    result.seconds = figures.seconds = time.monotonic() - t0  # the whole run: selection and library mode too
    outcome = CheckOutcome(result, figures, cfg, root, warnings, shapes=shapes)
    outcome.verdict = _verdict(outcome, sel, req, cdir)
    verdict = outcome.verdict if req.new_only else None
    result.entries = [_filter(e, cfg, verdict, root) for e in result.entries]
    if req.baseline:
        _apply_baseline(outcome, req.baseline)
    return outcome


def _changed_modules(result: RunResult, sel: Selection, req: CheckRequest, cfg: Config, changed: set[str] | None,
                     opts: Options, graph: ImportGraph, warnings: list[str]) -> list[ModuleShapes]:
    """With a diff: the modules of the changed files checked alone, their contracts compared with the
    base's (PT014, `library_contracts.py`); returns the shapes of up to `req.changed_shapes` of them."""
    if changed is None or cfg.library_mode == "never" or sel.changes is None:
        return []
    from pytea_ci.driver import library_contracts

    limit = max(req.changed_shapes, library_contracts.MAX_MODULES)
    modules = library_run.changed_results(result, cfg.library_mode, cfg.library_time_budget, req.paths, changed,
                                          cfg.exclude, opts, graph, limit)
    warnings += library_contracts.compare(result, modules, sel.changes, sel.repo, cfg.library_time_budget, opts,
                                          graph)
    return [m.shapes for m in modules[:req.changed_shapes] if m.shapes is not None]


def _apply_baseline(outcome: CheckOutcome, path: str) -> None:
    from pytea_ci.driver import baseline

    applied = baseline.apply(outcome.result, baseline.load(path), outcome.root)
    note = f"{applied.suppressed} finding(s) suppressed by the baseline {path}"
    fixed = applied.recorded - applied.suppressed
    if fixed > 0:
        note += f"; {fixed} of its {applied.recorded} are gone (fixed, or not analyzed in this run)"
    outcome.notes.append(note)


def _verdict(outcome: CheckOutcome, sel: Selection, req: CheckRequest, cdir: str | None) -> newonly.Verdict | None:
    """Which findings are new (`--new-only`, or `classify`); None when the changes are not known."""
    if not (req.new_only or req.classify) or sel.changes is None:
        return None
    from pytea_ci.driver import newonly
    if not sel.changes.complete:
        if req.new_only:
            outcome.messages.append("--new-only ignored: the changed lines are not known")
        return None

    def make_options(base_root: str, entries: list[str]) -> Options:
        return newonly.with_cache(options(outcome.config, base_root, entries, req), cdir)

    verdict = newonly.classify(outcome.result, sel.changes, sel.repo, outcome.root, sel.entries, make_options)
    outcome.notes.append(verdict.message)
    return verdict


def _filter(e: EntryResult, cfg: Config, verdict: newonly.Verdict | None, root: str) -> EntryResult:
    """Severity overrides, disabled rules, `# pytea: ignore` comments and (with a verdict) only the
    new findings."""
    kept = []
    for d in e.diagnostics:
        level = config_mod.severity_of(cfg, d.rule, d.severity)
        if level is None or _suppressed(d, root):
            continue
        if verdict is not None and not verdict.is_new(d):
            continue
        kept.append(d if level is d.severity else dataclasses.replace(d, severity=level))
    return dataclasses.replace(e, diagnostics=kept)


def _suppressed(d: Diagnostic, root: str) -> bool:
    """`# pytea: ignore` or `# pytea: ignore[PT001]` on the reported line (of a notebook's JSON too)."""
    try:
        lines = fs.read(os.path.join(root, d.span.path)).split(b"\n")
    except OSError:
        return False
    if not 1 <= d.span.line <= len(lines) or b"pytea" not in lines[d.span.line - 1]:
        return False
    return is_suppressed(lines[d.span.line - 1].decode("utf-8", errors="replace"), d.rule)
