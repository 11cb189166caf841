"""`pytea-ci check` end to end, minus argument parsing and output: find the project root and its
configuration, apply CLI overrides, select the entry points, run them (cached, in parallel), then
apply the per-rule severity overrides, disabled rules and `--new-only`."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import Any

from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.driver import config as config_mod
from pytea_ci.driver import gitdiff
from pytea_ci.driver.config import Config
from pytea_ci.driver.imports_graph import ImportCache, ImportGraph
from pytea_ci.driver.run import Options, Progress, RunFigures, run_with_figures
from pytea_ci.driver.select import Request, select
from pytea_ci.interp.budget import Budget


@dataclass
class CheckRequest:
    paths: list[str] = field(default_factory=list)
    root: str | None = None
    config_file: str | None = None
    staged: bool = False
    diff: str | None = None
    affected_only: bool = False
    new_only: bool = False
    shard: tuple[int, int] | None = None
    no_cache: bool = False
    args: dict[str, Any] = field(default_factory=dict)  # --arg NAME=VALUE, on top of the config
    overrides: dict[str, Any] = field(default_factory=dict)  # CLI flags by Config attribute name
    progress: Progress | None = None


@dataclass
class CheckOutcome:
    result: RunResult
    figures: RunFigures
    config: Config
    root: str
    messages: list[str]


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


def options(cfg: Config, root: str, entries: list[str], req: CheckRequest) -> Options:
    per_entry = {}
    for e in entries:
        rel = os.path.relpath(e, root).replace(os.sep, "/")
        opts = cfg.analysis_options(rel)
        opts["args"] = {**opts["args"], **req.args}
        per_entry[e] = opts
    budget = Budget(paths=cfg.max_paths, steps=cfg.max_steps, unroll=cfg.loop_unroll, seconds=cfg.time_budget)
    return Options(root=root, budget=budget, solver_timeout_ms=cfg.solver_timeout,
                   entry_options={"args": dict(req.args)}, cache_dir=None if req.no_cache else cache_dir(cfg, root),
                   jobs=cfg.jobs, per_entry=per_entry)


def check(req: CheckRequest) -> CheckOutcome:
    root = project_root(req.root, os.getcwd())
    cfg = load_config(root, req.config_file, req.overrides)
    cdir = None if req.no_cache else cache_dir(cfg, root)
    graph = ImportGraph(root, ImportCache(cdir))
    sel = select(Request(root, req.paths, req.staged, req.diff, req.affected_only, req.new_only, req.shard),
                 cfg, graph)
    graph.cache.save()
    result, figures = run_with_figures(sel.entries, options(cfg, root, sel.entries, req), req.progress, graph)
    messages = list(sel.messages)
    changes = sel.changes if req.new_only else None
    if changes is not None and not changes.complete:
        messages.append("--new-only ignored: the changed lines are not known")
        changes = None
    result.entries = [_filter(e, cfg, root, changes) for e in result.entries]
    return CheckOutcome(result, figures, cfg, root, messages)


def _filter(e: EntryResult, cfg: Config, root: str, changes: gitdiff.ChangeSet | None) -> EntryResult:
    """Severity overrides, disabled rules and (with changes) only findings on changed lines."""
    kept = []
    for d in e.diagnostics:
        level = config_mod.severity_of(cfg, d.rule, d.severity)
        if level is None:
            continue
        if changes is not None and not changes.in_hunks(os.path.join(root, d.span.path), d.span.line):
            continue
        kept.append(d if level is d.severity else dataclasses.replace(d, severity=level))
    return dataclasses.replace(e, diagnostics=kept)
