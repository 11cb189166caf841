"""The project a run is about, as every command finds it: its root (`project_root`), its configuration
with the command line's overrides (`load_config`), the installed packages the analysis may read
(`site`) and the run options built from them (`options`). `check.py`, library mode's `shapes` command
and the language server start here, so none of them imports another's module to get them."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from pytea_ci.diagnostics.budgets import steps_for
from pytea_ci.driver import config as config_mod
from pytea_ci.driver import fs, gitdiff
from pytea_ci.driver.config import Config
from pytea_ci.driver.resident import Resident
from pytea_ci.driver.run import Options, Progress, RunMeter
from pytea_ci.interp.budget import Budget
from pytea_ci.interp.observe import Editor


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
    argv: list[str] | None = None  # --argv: the analyzed program's command line (sys.argv[1:])
    overrides: dict[str, Any] = field(default_factory=dict)  # CLI flags by Config attribute name
    progress: Progress | None = None
    resident: Resident | None = None  # the language server's in-memory caches (driver/resident.py)
    editor: Editor | None = None  # the language server's buffers, shape recorder and cancel test (interp/observe.py)
    started: float | None = None  # when the run began (monotonic): the run's safety net counts from it


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
    """The installed packages the analysis may read (packages/environment.py); {} without an environment.
    A configured interpreter that cannot be used is an error; one found by default is skipped."""
    from pytea_ci.packages import environment

    try:
        python, how = environment.find_python(cfg.python, root)
    except environment.Unusable as e:
        raise config_mod.ConfigError(str(e)) from None
    try:
        return environment.site_options(python, cfg.follow_packages, cfg.skip_packages, cfg.package_budget, cache,
                                        fs.read, named=how == "configured")
    except environment.Unusable as e:
        if how == "configured":
            raise config_mod.ConfigError(str(e)) from None
        return {}


def options(cfg: Config, root: str, entries: list[str], req: CheckRequest) -> Options:
    per_entry = {}
    env = site(cfg, root, None if req.no_cache else cache_dir(cfg, root))
    for e in entries:
        rel = os.path.relpath(e, root).replace(os.sep, "/")
        opts = cfg.analysis_options(rel)
        opts["args"] = {**opts["args"], **req.args}
        if req.argv is not None:
            opts["argv"] = list(req.argv)
        if env:
            opts["site"] = env
        per_entry[e] = opts
    budget = Budget(paths=cfg.max_paths, steps=cfg.max_steps, unroll=cfg.loop_unroll,
                    entry_steps=steps_for(cfg.time_budget), wall_seconds=cfg.wall_clock_limit)
    meter = RunMeter.for_budget(cfg.run_budget, req.started)
    out = Options(root=root, exclude=list(cfg.exclude), budget=budget, solver_timeout_ms=cfg.solver_timeout,
                  entry_options={"args": dict(req.args), **({"site": env} if env else {}),
                                 **({"argv": list(req.argv)} if req.argv is not None else {})}, cache_dir=None if req.no_cache else cache_dir(cfg, root),
                  jobs=cfg.jobs, per_entry=per_entry, meter=meter)
    out.editor = req.editor
    out.progress = req.progress
    if req.resident is not None:
        out.jobs = 1  # in this process: the resident caches and the source overlay live here
        out.decider = req.resident.decider(out)
    return out
