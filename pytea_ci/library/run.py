"""Library mode in a `check` run: which files' modules to check, which of them the entry points
already cover (`auto`), and one result per module, without the findings an entry point reported.

Modes (`library-mode` / `--library-mode`): `auto` checks the modules of the files asked about (the
paths given, the changed files of a diff, the whole project without either) whose `forward` no
entry point reached with known inputs, and, with paths, the modules those entry points built
but never ran; `always` checks every module of the analyzed files and of the files they import;
`only` does the same and skips the entry points; `never` turns library mode off.
"""

from __future__ import annotations

import ast
import dataclasses
import os
from typing import TYPE_CHECKING

from pytea_ci.diagnostics import Diagnostic, Severity, Span, sources
from pytea_ci.diagnostics.budgets import SELECTION_BYTES_PER_STEP, steps_for
from pytea_ci.diagnostics.rules import INCOMPLETE, PARSE_ERROR
from pytea_ci.diagnostics.result import EntryResult, EntryStats, RunResult
from pytea_ci.driver import discover as disc
from pytea_ci.driver import fs
from pytea_ci.driver.cache import ResultCache, cacheable, entry_key
from pytea_ci.driver.imports_graph import ImportCache, ImportGraph
from pytea_ci.driver.project import CheckRequest, load_config, options, project_root
from pytea_ci.driver.run import Options, RunMeter, installed_packages, make_decider, project_imports
from pytea_ci.library import targets as lib

if TYPE_CHECKING:
    from collections.abc import Callable

    from pytea_ci.diagnostics.modshapes import ModuleShapes
    from pytea_ci.interp.installed import Installed
    from pytea_ci.interp.project_imports import ProjectImports
    from pytea_ci.solver import Decider
    from pytea_ci.library.inputs import LibraryTarget


def files_for(paths: list[str], changed: set[str] | None, root: str, exclude: list[str],
              graph: ImportGraph, imported: bool = True, tests: bool = False) -> list[str]:
    """The analyzed files: the paths given (files, and the Python files of folders; with `imported`,
    also the project files they import), or every project file — test files and their fixtures only
    with `tests`, as they are no entry points either; with a diff, only the changed ones among them."""
    if not paths:
        scope = [f for f in disc.python_files(root, root, exclude) if tests or not disc.is_test_file(f, root)]
    else:
        scope = []
        for p in paths:
            if fs.isdir(p):
                scope += disc.python_files(os.path.abspath(p), root, exclude)
            elif fs.isfile(p) and disc.excluded(os.path.abspath(p), root, exclude):
                continue  # given, but excluded: the selection says so, and nothing checks it
            elif fs.isfile(p) and imported:
                scope += list(graph.closure(os.path.abspath(p)).files)
            elif fs.isfile(p) and p.endswith(".py"):
                scope.append(os.path.abspath(p))
        scope = list(dict.fromkeys(scope))
    if changed is None:
        return scope
    within = {os.path.abspath(f) for f in scope}
    return sorted(p for p in changed if p.endswith(".py") and fs.isfile(p) and os.path.abspath(p) in within)


Key = tuple[str, str]  # (absolute path of the file, class name)


def _keys(results: list[EntryResult], root: str, field: str) -> set[Key]:
    return {(os.path.normpath(os.path.join(root, path)), cls) for r in results
            for path, cls in getattr(r.stats, field)}


def select_targets(mode: str, files: list[str], root: str, exclude: list[str], results: list[EntryResult],
                   graph: ImportGraph, built: bool = False,
                   meter: RunMeter | None = None) -> tuple[list[LibraryTarget], list[Key]]:
    """The modules of `files` to check alone; in `auto`, minus those whose `forward` an entry point reached
    with known inputs (checking them alone would repeat its work), plus (`built`) the modules the entry
    points built but never ran. Also the modules not even built because the run's `meter` was spent (reading their call sites is work)."""
    def project() -> list[str]:  # where call sites are looked for: listed only when a module is kept
        return disc.python_files(root, root, exclude)

    ran = _keys(results, root, "modules_run") if mode == "auto" else set()
    extra = _keys(results, root, "modules_built") - ran if mode == "auto" and built else set()
    extra = {(p, c) for p, c in extra if p.startswith(root + os.sep) and not disc.excluded(p, root, exclude)}
    scope = list(dict.fromkeys(files + sorted({path for path, _ in extra})))
    context = list(dict.fromkeys(f for p in scope for f in graph.closure(p).files))  # where the bases are
    wanted = {os.path.abspath(f) for f in files}

    late: list[Key] = []

    def keep(path: str, cls: str) -> bool:
        if (path, cls) in ran or not (path in wanted or (path, cls) in extra):
            return False
        if meter is not None and meter.exhausted:
            late.append((path, cls))
            return False
        return True

    read = _Read(graph)
    found = lib.targets(scope, project, root, parse=read.tree, context=context, keep=keep).targets
    if meter is not None:  # reading the project is work of the run: charged to its budget, in steps
        meter.charge(read.steps())
    return found, late


class _Read:
    """The files target selection reads (their trees from the run's import graph), and what that cost in
    steps: in proportion to their sizes, whether or not they were parsed already (deterministic)."""

    def __init__(self, graph: ImportGraph) -> None:
        self.graph = graph
        self.sizes: dict[str, int] = {}

    def tree(self, path: str) -> ast.Module | None:
        if path not in self.sizes:
            try:
                self.sizes[path] = os.path.getsize(path)
            except OSError:
                self.sizes[path] = 0
        return self.graph.cache.tree(path)

    def steps(self) -> int:
        return sum(self.sizes.values()) // SELECTION_BYTES_PER_STEP


def run_targets(targets: list[LibraryTarget], opts: Options,
                seconds: float) -> list[tuple[ModuleShapes, EntryStats]]:
    analyze = _analyzer(opts, seconds)
    return [analyze(t, None, opts.meter.deadline) for t in targets]


def _analyzer(opts: Options,
              seconds: float) -> Callable[[LibraryTarget, int | None, float | None], tuple[ModuleShapes, EntryStats]]:
    """Checks one target at a time, within `seconds` (reference seconds: its steps and solver units) or
    the steps given (its share of the run budget), and before a deadline (monotonic seconds: the run's
    safety net, or the target's share of the time before it); the interpreter, solver and installed
    packages load at the first."""
    made: list[tuple[Decider, Installed, ProjectImports]] = []

    def analyze(t: LibraryTarget, steps: int | None, deadline: float | None) -> tuple[ModuleShapes, EntryStats]:
        from pytea_ci.interp.observe import NO_EDITOR
        from pytea_ci.library.results import analyze_guarded  # the interpreter: loaded only when a module runs

        if not made:  # no site: the project's own registries only; the project's packages imported once
            made.append((make_decider(opts), installed_packages({}, opts.cache_dir), project_imports()))
        decider, installed, imports = made[0]
        return analyze_guarded(t, opts.root, decider, seconds, opts.strict, opts.editor or NO_EDITOR, installed,
                               deadline, steps, imports)

    return analyze


def check_targets(targets: list[LibraryTarget], opts: Options, seconds: float, graph: ImportGraph) -> list[EntryResult]:
    """One result per target, from the result cache when its file's closure and construction are unchanged
    (a wall-clock cut-off depends on the machine: never cached). One after the other, in order, each gets
    its share of what is left of the run budget (`RunMeter.share`: `seconds` each while that covers them
    all, else the same part of what is left for each, so what one leaves unused goes to the ones after it)
    and is charged the steps it ran (a cached one: those it ran when computed); the targets past the run's
    wall-clock safety net (or a budget overrun) are reported as not analyzed."""
    with sources.parsed_kept():  # the modules import the same files: parsing them again per module was most of the time
        return _check_targets(targets, opts, seconds, graph)


def _check_targets(targets: list[LibraryTarget], opts: Options, seconds: float,
                   graph: ImportGraph) -> list[EntryResult]:
    cache = ResultCache(opts.cache_dir, os.path.realpath(opts.root)) if opts.cache_dir else None
    analyze = _analyzer(opts, seconds)
    out: list[EntryResult] = []
    asked = steps_for(seconds)
    opts.meter.expect(asked * len(targets))
    for i, t in enumerate(targets):
        share = opts.meter.share(asked)
        if opts.meter.exhausted or share.steps <= 0:
            return out + [opts.meter.not_analyzed(_name(u, opts.root)) for u in targets[i:]]
        key = ""
        if cache is not None:
            key = entry_key(_name(t, opts.root), opts.root, graph.closure(t.via or t.path),
                            _key_options(t, opts, seconds, share.steps))
        res = cache.get(key) if cache is not None else None
        if res is None:
            if opts.progress is not None:  # most of a whole-project run's time may be here
                opts.progress(i + 1, len(targets), f"module {_name(t, opts.root)}")
            res = _as_result(*analyze(t, share.steps, opts.meter.until(share.seconds)))
            if cache is not None and cacheable(res):
                cache.put(key, res)
        opts.meter.charge_entry(res.stats)  # with its file's imports when it ran them, and the project's once
        out.append(res)
    return out


def _key_options(t: LibraryTarget, opts: Options, seconds: float, steps: int) -> dict[str, object]:
    return {"library": [t.cls, t.construct, t.via, [dataclasses.astuple(i) for i in t.inputs],
                        [dataclasses.astuple(c) for c in t.callers], list(t.unit_sizes)], "seconds": seconds, "steps": steps,
            "solver_timeout_ms": opts.solver_timeout_ms}


def _as_result(s: ModuleShapes, stats: EntryStats) -> EntryResult:
    return EntryResult(s.module, list(s.diagnostics), stats, status=_status(s.diagnostics), shapes=s)


def _status(diags: list[Diagnostic]) -> str:
    """A module's status; like an entry point's, "incomplete" when a budget stopped it (clean means checked)."""
    return ("findings" if any(d.severity is not Severity.NOTE for d in diags) else
            "incomplete" if any(d.rule == INCOMPLETE.id for d in diags) else "ok")


def without_reported(results: list[EntryResult], reported: list[EntryResult]) -> list[EntryResult]:
    """The library-mode results minus the findings an entry point (or an earlier module) reported."""
    seen = {d.key() for e in reported for d in e.diagnostics}
    out = []
    for r in results:
        diags = [d for d in r.diagnostics if d.key() not in seen]
        seen.update(d.key() for d in diags)
        status = _status(diags) if r.status in ("ok", "findings", "incomplete") else r.status
        out.append(dataclasses.replace(r, diagnostics=diags, status=status))
    return out


def entries_to_run(mode: str, entries: list[str]) -> list[str]:
    return [] if mode == "only" else entries


def extend(result: RunResult, mode: str, seconds: float, paths: list[str], changed: set[str] | None,
           exclude: list[str], entries: list[str], opts: Options, graph: ImportGraph, tests: bool = False) -> None:
    """Add the library-mode results of the analyzed files to `result` (nothing when `never`). In `auto`
    with paths, the analyzed files are the paths themselves (and the modules their entry points built
    but never ran); in `always`/`only`, also the files they import."""
    if mode == "never":
        return
    root = os.path.abspath(opts.root)
    files = files_for(paths, changed, root, exclude, graph, imported=mode != "auto", tests=tests)
    targets, late = select_targets(mode, files, root, exclude, result.entries, graph, changed is None, opts.meter)
    result.entries += without_reported(check_targets(targets, opts, seconds, graph), result.entries)
    result.entries += [opts.meter.not_analyzed(f"{os.path.relpath(path, root)}::{cls}") for path, cls in late]


def expected(mode: str, paths: list[str], changed: set[str] | None, exclude: list[str], root: str,
             graph: ImportGraph, tests: bool = False) -> int:
    """How many modules library mode may check, known before the entry points run (which decide, in
    `auto`, which of them remain): the nn.Module classes of its files. The entry points' share of the run
    budget keeps theirs for them (`RunMeter.share`); what they turn out not to need goes to the others."""
    if mode == "never":
        return 0
    files = files_for(paths, changed, os.path.abspath(root), exclude, graph, imported=mode != "auto", tests=tests)
    return len(lib.module_classes(lib.classes_of(files, graph.cache.tree)))


def changed_results(result: RunResult, mode: str, seconds: float, paths: list[str], changed: set[str] | None,
                    exclude: list[str], opts: Options, graph: ImportGraph, limit: int) -> list[EntryResult]:
    """One library-mode result per module defined in the changed files (at most `limit`), for the job
    summary and the contract comparison: library mode's own results where it ran, and the modules the
    entry points ran checked alone as well (their findings are the entry points' to report: use only
    their shapes and figures)."""
    if mode == "never" or changed is None:
        return []
    root = os.path.abspath(opts.root)
    files = files_for(paths, changed, root, exclude, graph)
    targets = lib.targets(files, disc.python_files(root, root, exclude), root, parse=graph.cache.tree).targets[:limit]
    have = {(e.shapes.module, e.shapes.construction): e for e in result.entries if e.shapes is not None}
    todo = [t for t in targets if (_name(t, root), t.label) not in have]
    for r in check_targets(todo, opts, seconds, graph):
        if r.shapes is not None:
            have.setdefault((r.shapes.module, r.shapes.construction), r)
    return [have[k] for k in ((_name(t, root), t.label) for t in targets) if k in have]


def _name(t: LibraryTarget, root: str) -> str:
    return f"{os.path.relpath(t.path, root)}::{t.cls}"


class TargetError(Exception):
    """A `shapes` target that does not exist (reported in one line, exit code 2)."""


def parse_errors(target: str, root: str | None = None, config_file: str | None = None) -> list[Diagnostic]:
    """PT012 for each file of a `shapes` target that does not parse (the file given, or a folder's
    Python files), placed as `check` places it: a module that does not parse has no shapes to show."""
    path = target.partition("::")[0]
    if fs.isdir(path):
        top = project_root(root, path)
        files = disc.python_files(os.path.abspath(path), top, load_config(top, config_file, {}).exclude)
    else:
        files = [os.path.abspath(path)] if fs.isfile(path) else []
    out = []
    for f in files:
        try:
            ast.parse(fs.read(f), filename=f)
        except SyntaxError as e:
            span = Span(os.path.relpath(f), e.lineno or 1, max(0, (e.offset or 1) - 1))
            out.append(Diagnostic(PARSE_ERROR.id, Severity.ERROR, span, PARSE_ERROR.message("", e.msg or "invalid syntax"),
                                  entry=span.path))
        except (OSError, ValueError):
            continue
    return out


def shapes(target: str, root: str | None = None, config_file: str | None = None) -> list[ModuleShapes]:
    """`pytea-ci shapes TARGET`: a file (its modules and those of the project files it imports),
    `file.py::ClassName`, or a folder."""
    path, _, cls = target.partition("::")
    if not (fs.isfile(path) or fs.isdir(path)):
        raise TargetError(f"{path}: no such file or directory")
    top = project_root(root, os.path.dirname(os.path.abspath(path)) if fs.isfile(path) else path)
    cfg = load_config(top, config_file, {})
    graph = ImportGraph(top, ImportCache(None))
    files = files_for([path], None, top, cfg.exclude, graph)
    if cls:
        files = [os.path.abspath(path)]
    # the classes a module may build on are in the files it imports: the cost follows the file asked about
    # (the whole project is read only where its text names the class, for call sites)
    context = list(dict.fromkeys(f for path_ in files for f in graph.closure(path_).files))
    found = lib.targets(files, disc.python_files(top, top, cfg.exclude), top, {cls} if cls else None,
                        parse=graph.cache.tree, context=context)
    if cls and not found.targets:
        raise TargetError(f"{target}: no nn.Module class {cls} with a forward in {path}")
    opts = options(cfg, top, [], CheckRequest(no_cache=True))
    return [s for s, _ in run_targets(found.targets, opts, cfg.library_time_budget)]
