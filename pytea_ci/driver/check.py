"""`pytea-ci check` end to end, minus argument parsing and output: find the project root and its
configuration, apply CLI overrides (driver/project.py), select the entry points, run them (cached, in parallel), then
apply the per-rule severity overrides, disabled rules, `--new-only` (driver/newonly.py) and
`--baseline` (driver/baseline.py)."""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass, field

from pytea_ci.diagnostics import Diagnostic, sources
from pytea_ci.diagnostics.budgets import steps_for
from pytea_ci.diagnostics.modshapes import ModuleShapes
from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.diagnostics.suppress import is_suppressed
from pytea_ci.driver import config as config_mod
from pytea_ci.driver import fs, heap, sanity
from pytea_ci.driver.config import Config
from pytea_ci.driver.imports_graph import ImportCache, ImportGraph
from pytea_ci.driver.project import CheckRequest, cache_dir, load_config, options, project_root
from pytea_ci.driver.run import Options, RunFigures, run_with_figures
from pytea_ci.driver.select import Request, Selection, no_entry_message, select, unselected_message
from pytea_ci.library import contracts as library_contracts
from pytea_ci.library import run as library_run

TYPE_CHECKING = False  # as typing's: `--new-only` and `--baseline` load their modules when asked for
if TYPE_CHECKING:
    from pytea_ci.driver import newonly


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


def check(req: CheckRequest) -> CheckOutcome:
    with sources.parsed_kept():  # every entry point imports the project's files: each is parsed once per run
        return _check(req)


def _check(req: CheckRequest) -> CheckOutcome:
    t0 = time.monotonic()
    req = dataclasses.replace(req, started=t0) if req.started is None else req
    root = project_root(req.root, os.getcwd())
    cfg = load_config(root, req.config_file, req.overrides)
    cdir = None if req.no_cache else cache_dir(cfg, root)
    graph = ImportGraph(root, req.resident.imports if req.resident is not None else ImportCache(cdir))
    sel = select(Request(root, req.paths, req.staged, req.diff, req.affected_only, req.new_only or req.classify,
                         req.shard, cdir), cfg, graph)
    graph.cache.save()
    opts = options(cfg, root, sel.entries, req)
    misnamed = sanity.misnamed_sections(req.root or os.getcwd())
    warnings = [*misnamed, *sel.messages]
    wanted = {e: set(o["args"]) for e, o in opts.per_entry.items()}
    declared = sanity.Declared(graph)
    warnings += sanity.unknown_args(wanted, set(req.args), declared)
    rejected = sanity.typed_args({e: o["args"] for e, o in opts.per_entry.items()}, set(req.args), declared)
    if rejected:
        raise config_mod.ConfigError("; ".join(rejected))
    warnings += sanity.unknown_suppressions(sel.entries, graph, root)
    changed = sel.changes.changed if sel.changes is not None and (req.staged or req.diff) else None
    entries = library_run.entries_to_run(cfg.library_mode, sel.entries)
    alone = library_run.expected(cfg.library_mode, req.paths, changed, cfg.exclude, root, graph, cfg.library_tests)
    opts.meter.expect(len(entries) * opts.budget.entry_steps + alone * steps_for(cfg.library_time_budget))
    one_shot = req.resident is None  # a language server's process lives on: its garbage must stay collectable
    if one_shot:
        heap.tune()
        heap.settle()  # the trees and tables of selection live until the end: out of the collector's way
    result, figures = run_with_figures(entries, opts, req.progress, graph)
    if one_shot and (alone or changed is not None):  # library mode runs next: what the entry points kept lives on
        heap.settle()
    library_run.extend(result, cfg.library_mode, cfg.library_time_budget, req.paths, changed, cfg.exclude,
                       sel.entries, opts, graph, cfg.library_tests)
    shapes = _changed_modules(result, sel, req, cfg, changed, opts, graph, warnings)
    modules = sum(e.shapes is not None for e in result.entries)  # said after library mode: part of the story
    if sel.no_entry:
        where = ", ".join(sel.no_entry_in) if sel.no_entry_in else os.path.abspath(root)
        warnings.insert(len(misnamed), no_entry_message(where, modules))
    if sel.unselected:
        warnings.insert(len(misnamed), unselected_message(modules))
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
    base's (PT014, `library/contracts.py`); returns the shapes of up to `req.changed_shapes` of them."""
    if changed is None or cfg.library_mode == "never" or sel.changes is None:
        return []
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
