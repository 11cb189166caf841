"""Library mode: run one module over every rank combination of its inputs and decide what to report.

Each combination (a rank, or the size of a jaxtyping variadic, per `forward` parameter) is explored
like an entry point. A combination is *accepted* when some path runs `forward` to its end: the
first op that needs a rank accepts it. Failures are reported only when no combination is accepted,
and only those that got furthest (most checks passed): the ranks the first op rejected fail early,
and are the contract, not the bug; none when a path of some combination got as far and raised
something else (a TypeError, an explicit raise): what fails for every input is then not known.
Within an accepted combination the may-fail checks already joined the contract (`library.py`), so
what remains are the annotation promises (PT002).
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import os
import time
from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Any

from pytea_ci.diagnostics import Diagnostic, Related, Severity, Span
from pytea_ci.diagnostics.budgets import WALL_CLOCK, rlimit_for, steps_for
from pytea_ci.diagnostics.result import EntryStats
from pytea_ci.diagnostics.rules import INCOMPLETE
from pytea_ci.interp.budget import Budget
from pytea_ci.interp.explore import explore
from pytea_ci.interp.installed import Installed
from pytea_ci.interp.project_imports import ProjectImports
from pytea_ci.library import coincide, plausible, protocol, transpose
from pytea_ci.library.interpreter import LibraryInterpreter, LibraryShared, PathOutcome, resume
from pytea_ci.library.inputs import CallerInput, InputSpec, LibraryTarget
from pytea_ci.library.inputs import choices, keyed
from pytea_ci.interp.observe import NO_EDITOR, Editor
from pytea_ci.interp.search_path import module_name
from pytea_ci.interp.snapshot import Checkpoint
from pytea_ci.solver import Decider

MAX_COMBOS = 40  # beyond this many rank combinations, the module is not decided (PT011)
MAX_OPTIONAL = 2  # optional inputs of `forward` each given in runs of their own
LIBRARY_WALL_SECONDS = 600.0  # the safety net of one module (its step and solver budgets end it far sooner)


@dataclass
class ComboResult:
    ranks: tuple[int, ...]
    completed: list[PathOutcome] = field(default_factory=list)
    failures: list[tuple[Diagnostic, int]] = field(default_factory=list)  # (finding, checks passed before)
    warnings: list[Diagnostic] = field(default_factory=list)
    incomplete: bool = False
    cut: bool = False  # stopped by a budget before every path ran: what its other paths do is not known
    wall_clock: bool = False  # cut by the wall-clock safety net (a machine-dependent cut)
    ended: int = -1  # most checks passed by a path that raised (neither completed nor a finding)
    given: InputSpec | None = None  # an optional input passed as well, its choice the last of `ranks`


@dataclass
class LibraryRun:
    """Everything the verdict and the shapes report need from one module's runs."""

    target: LibraryTarget
    combos: list[ComboResult] = field(default_factory=list)
    out_of_budget: bool = False
    wall_clock: bool = False  # some run was cut by the wall-clock safety net, not by a deterministic budget
    parse_error: Diagnostic | None = None
    seconds: float = 0.0
    stats: EntryStats = field(default_factory=EntryStats)  # coverage over every combination, like an entry point's
    callers: list[tuple[CallerInput, ComboResult]] = field(default_factory=list)  # runs on the callers' inputs
    # per optional input (`LibraryTarget.optional`): the accepted combinations run with it given, and
    # whether they were all run within the budget
    variants: list[tuple[list[ComboResult], bool]] = field(default_factory=list)

    @property
    def accepted(self) -> list[ComboResult]:
        return [c for c in self.combos if c.completed]


_KEEP = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _definitions(body: list[ast.stmt]) -> list[ast.stmt]:
    """The top-level statements that define things (the script part of the file is not run): imports,
    functions, classes, assignments without calls, and the assignments with calls whose names the
    definitions use (`conv3x3 = partial(nn.Conv2d, ...)`, `REGISTRY = make_registry()`), with what
    they use in turn and the method calls on them (`REGISTRY.update(...)`)."""
    used = {n.id for st in body if isinstance(st, _KEEP[2:]) for n in ast.walk(st) if isinstance(n, ast.Name)}
    keep: set[int] = set()
    for i in range(len(body) - 1, -1, -1):  # backwards: an assignment used by a kept one is kept too
        st = body[i]
        if isinstance(st, (ast.Assign, ast.AnnAssign)) and _assigned(st) & used:
            keep.add(i)
            used |= {n.id for n in ast.walk(st) if isinstance(n, ast.Name)}
    out: list[ast.stmt] = []
    for i, st in enumerate(body):
        if isinstance(st, _KEEP) or i in keep:
            out.append(st)
        elif isinstance(st, (ast.Assign, ast.AnnAssign)) and not any(isinstance(n, ast.Call) for n in ast.walk(st)):
            out.append(st)
        elif isinstance(st, ast.Try) and all(isinstance(s, _KEEP + (ast.Assign,)) for s in st.body):
            out.append(st)
        elif _method_call_on(st, used):
            out.append(st)
    return out


def _assigned(st: ast.Assign | ast.AnnAssign) -> set[str]:
    targets = st.targets if isinstance(st, ast.Assign) else [st.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _method_call_on(st: ast.stmt, names: set[str]) -> bool:
    """`NAME.method(...)` as a statement, on a name the definitions use."""
    if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call)):
        return False
    f = st.value.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in names


def driver_tree(tree: ast.Module, target: LibraryTarget) -> ast.Module:
    call = protocol.at_line(protocol.driver_source(target.construct, keyed(target)), target.line)
    return ast.Module(body=_definitions(tree.body) + call, type_ignores=[])


class _PrefixStore(dict):  # type: ignore[type-arg]
    """The import checkpoints (`snapshot.py`) of one file's driver programs, shared by its targets and
    their rank combinations: every driver program of a file starts with the same imports, so the
    checkpoints are keyed by the module's name only (`run_prefix` asks with `(id(body), name)`)."""

    def setdefault(self, key: Any, default: Any = None) -> Any:
        return super().setdefault(key[1], default)


_STORES: dict[str, _PrefixStore] = {}  # the file checked last (targets come file by file)
_SEEDS: dict[str, Checkpoint] = {}  # folder -> the import checkpoint of the last file of it checked


def prefix_store(path: str) -> _PrefixStore:
    if path not in _STORES:
        taken = [(p, cps[0]) for p, store in _STORES.items() for cps in store.values() if cps]
        if taken:  # its checkpoint seeds the next files of its folder
            _SEEDS.clear()
            _SEEDS[os.path.dirname(taken[0][0])] = taken[0][1]
        _STORES.clear()
        _STORES[path] = _PrefixStore()
    return _STORES[path]


def run_module(target: LibraryTarget, root: str, decider: Decider, seconds: float = 5.0,
               display_root: str | None = None, strict: bool = False, editor: Editor = NO_EDITOR,
               installed: Installed | None = None, deadline: float | None = None,
               steps: int | None = None, imports: ProjectImports | None = None) -> LibraryRun:
    """Explore every rank combination of `target` within the steps and solver units that `seconds`
    stand for on the reference machine (`library-time-budget`), in total: deterministic; `steps`, when
    given, instead of those of `seconds` (the module's share of the run budget). `deadline`: the whole
    run's wall-clock safety net (monotonic seconds), which ends the module too."""
    run = LibraryRun(target)
    t0 = time.monotonic()
    base = LibraryShared(display_root or root, editor=editor, installed=installed)
    base.project_imports = imports  # the run's kept imports of the project's packages (every file shares them)
    tree = base.parse(target.path)
    if isinstance(tree, SyntaxError):
        return run
    program = driver_tree(tree, target)
    if target.via:
        script = base.parse(target.via)
        if isinstance(script, SyntaxError):
            return run
        program = script
    combos = list(itertools.islice(itertools.product(*[choices(s) for s in target.inputs]), MAX_COMBOS + 1))
    if len(combos) > MAX_COMBOS:
        run.out_of_budget = True
        combos = combos[:MAX_COMBOS]
    left = [steps_for(seconds) if steps is None else steps, rlimit_for(seconds * 1000)]
    for caller in target.callers:  # concrete, so cheap: first
        if min(left) > 0:
            run.callers.append((caller, _one(target, program, tuple(len(s) for s in caller.shapes), root, decider,
                                             left, display_root, strict, base, run.stats, caller, deadline)))
            run.wall_clock = run.wall_clock or run.callers[-1][1].wall_clock
    for ranks in combos:
        if min(left) <= 0 or time.monotonic() > min(t0 + LIBRARY_WALL_SECONDS, deadline or float("inf")):
            run.out_of_budget = True
            run.wall_clock = run.wall_clock or min(left) > 0
            break
        run.combos.append(_one(target, program, ranks, root, decider, left, display_root, strict, base, run.stats,
                               deadline=deadline))
        run.wall_clock = run.wall_clock or run.combos[-1].wall_clock
    for spec in target.optional[:MAX_OPTIONAL] if not run.out_of_budget else ():
        run.variants.append(_given(run, spec, lambda ranks, given: _one(
            target, program, ranks, root, decider, left, display_root, strict, base, run.stats, deadline=deadline,
            given=given), left, min(t0 + LIBRARY_WALL_SECONDS, deadline or float("inf"))))
    run.seconds = run.stats.seconds = time.monotonic() - t0
    base.coverage.fill(run.stats)
    return run


def _given(run: LibraryRun, spec: InputSpec, one: Callable[[tuple[int, ...], tuple[InputSpec, int]], ComboResult],
           left: list[int], until: float) -> tuple[list[ComboResult], bool]:
    """The accepted combinations run again with the optional input `spec` given, of each of its choices
    (its rank); complete when every one of them ran within the budget."""
    todo = [(c.ranks, r) for c in run.accepted for r in choices(spec)]
    out: list[ComboResult] = []
    for ranks, r in todo[:MAX_COMBOS]:
        if min(left) <= 0 or time.monotonic() > until:
            break
        res = one(ranks, (spec, r))
        out.append(dataclasses.replace(res, ranks=ranks + (r,), given=spec))
        run.wall_clock = run.wall_clock or res.wall_clock
    return out, len(out) == len(todo)


def _one(target: LibraryTarget, program: ast.Module, ranks: tuple[int, ...], root: str, decider: Decider,
         left: list[int], display_root: str | None, strict: bool, base: LibraryShared,
         stats: EntryStats, caller: CallerInput | None = None, deadline: float | None = None,
         given: tuple[InputSpec, int] | None = None) -> ComboResult:
    """One rank combination (or a caller's shapes); `left` ([steps, solver units] of the module's budget)
    is charged; `given`: an optional input passed too."""
    shared = LibraryShared(display_root or root, target, ranks, caller, editor=base.editor, installed=base.installed,
                           given=given)
    shared.asts = base.asts  # parsed files are shared by all combinations
    shared.coverage = base.coverage  # and so is the coverage: an op checked in some combination is checked
    shared.built = base.built  # and so are the states where the module was built
    shared.project_imports = base.project_imports  # and the run's kept imports of the project's packages
    shared.unpaid = base.collect()  # the module's file, parsed before any combination: the first pays
    options: dict[str, Any] = {"args": {}, "symbolic_args": {}}
    shared.checkpoints = store = prefix_store(target.via or target.path)  # type: ignore[assignment]
    if not store and not target.via:
        shared.seed = _SEEDS.get(os.path.dirname(target.path))
    budget = Budget(paths=32, steps=200_000, entry_steps=left[0], solver_rlimit=left[1],
                    wall_seconds=LIBRARY_WALL_SECONDS, run_deadline=deadline)
    t0 = time.monotonic()
    with decider.budgeted(left[1], min(t0 + budget.wall_seconds, deadline or float("inf"))) as spent:
        paths, steps, incomplete = explore(target.via or target.path, root, program, decider, budget, options,
                                            shared, t0, strict, make=LibraryInterpreter,
                                            name="__main__" if target.via else module_name(target.path, root), run=resume)
    left[0] -= steps
    left[1] = spent.left
    incomplete += [(name, None) for name in spent.reached]
    stats.paths += paths
    stats.steps += steps
    stats.shared_steps += shared.shared_steps
    stats.shared_imports.update(shared.shared_imports)
    for what, n in shared.unmodeled.items():
        stats.unmodeled[what] = stats.unmodeled.get(what, 0) + n
    res = ComboResult(ranks, shared.completed, incomplete=bool(incomplete or shared.budgets or shared.guessed
                                                               or shared.undecided),
                      ended=shared.ended, wall_clock=any(name == WALL_CLOCK for name, _ in incomplete),
                      cut=bool(incomplete or shared.budgets))
    for d in shared.findings.values():
        if d.severity is Severity.ERROR:
            res.failures.append((d, shared.depth.get(d.key(), 0)))
        elif d.severity is Severity.WARNING:
            res.warnings.append(d)
    return res


def prefer(combos: list[ComboResult]) -> ComboResult:
    """The combination to show: per input the batched rank (torch layers take an unbatched and a
    batched rank, Conv2d 3 or 4: the largest; a rank-agnostic input such as Linear's, 1 or more: the
    smallest from 2), then the accepted combination closest to that."""
    want = []
    for i in range(len(combos[0].ranks)):
        ranks = sorted({c.ranks[i] for c in combos})
        agnostic = {3, 4, 5} <= set(ranks)
        want.append(next((r for r in ranks if r >= 2), ranks[0]) if agnostic else ranks[-1])
    return min(combos, key=lambda c: (sum(abs(a - b) for a, b in zip(c.ranks, want)), c.ranks))


def verdict(run: LibraryRun, rel: str, describe: Callable[[ComboResult], str]) -> list[Diagnostic]:
    """The findings of one module (`rel`: its file as shown): see the module docstring."""
    target = run.target
    notes: list[Diagnostic] = []
    if run.out_of_budget:
        notes.append(Diagnostic(INCOMPLETE.id, Severity.NOTE, Span(rel, target.line, 0),
                                f"library mode: {target.cls} could not be decided within its budget "
                                f"(built with {target.label})", entry=rel))
    if run.wall_clock:
        notes.append(Diagnostic(INCOMPLETE.id, Severity.NOTE, Span(rel, target.line, 0),
                                f"library mode: {target.cls} was stopped by the {WALL_CLOCK} (`wall-clock-limit`, or its "
                                "share of the run's) before its step and solver budgets: where it stopped depends on the "
                                "machine",
                                entry=rel))
    # a coincidence of constructor sizes (coincide.py) only when no input, optional ones given or not, does without;
    # a path on which the solver could not decide a check where another path met the coincidence tells neither
    # way (a module's solver budget spent by the paths of its construction: CaiT's symbolic depths)
    # — and only when every run was run to its end: a run a budget cut (the module's share of a whole project's
    # run budget is small) may hold the paths that do without (monai's CrossAttentionBlock given its context)
    runs = run.combos + [c for combos, _ in run.variants for c in combos] + [c for _, c in run.callers]
    sites = {s for c in runs for p in c.completed for s in p.coincided}
    whole = not any(c.cut for c in runs) and all(complete for _, complete in run.variants)
    only = whole and all(p.coincided or p.unsure & sites for c in runs for p in c.completed)
    # a constructor size of 1 (plausible.unit_construction) only when no completed path, of any rank, got past the
    # site without it: a rank-2 `[N, F]` input read as `B, N, *_ = x.shape` reshapes only for `F == 1` where every
    # rank-3 `[B, N, F]` passes (torch-geometric's PerformerAttention): that is the rank-2 input's contract
    units = {s for s in sites if whole and all(s in p.coincided or p.unsure & sites for c in runs for p in c.completed)}
    found = {d.key(): d for d in _symbolic(run.target, run.combos, run.out_of_budget, describe, only, units)}
    for combos, complete in run.variants:  # a failure with an optional input given fails every such input
        for d in _symbolic(run.target, combos, not complete, describe, only, units):
            found.setdefault(d.key(), d)
    for d in _from_callers(run):
        found.setdefault(d.key(), d)
    return list(found.values()) + notes


def _symbolic(target: LibraryTarget, combos: list[ComboResult], cut: bool,
              describe: Callable[[ComboResult], str], only: bool, units: set[Any]) -> list[Diagnostic]:
    accepted = [c for c in combos if c.completed]
    if accepted:
        warnings = {d.key(): d for c in accepted for d in c.warnings if (only or coincide.MARK not in d.message)
                    and (plausible.UNIT_MARK not in d.message or _site(d) in units)}
        # a forgotten transpose is one only when every accepted input meets it: an unbatched `[C, H, W]` of a
        # Conv2d block gives GroupNorm H as its channels, which a batched `[N, C, H, W]` never does; and only
        # when every combination ran to its end (one a budget cut before any path completed is no evidence:
        # monai's PatchEmbed, whose batched rank-5 input was cut in a whole project's run)
        every = set.intersection(*({d.key() for d in c.warnings if transpose.MARK in d.message} for c in accepted))
        if cut or any(c.cut for c in combos):
            every = set()
        return [d for k, d in warnings.items() if transpose.MARK not in d.message or k in every]
    if cut or any(c.incomplete for c in combos):
        return []
    failing = [c for c in combos if c.failures]
    if not failing:
        return []
    deepest = max(depth for c in failing for _, depth in c.failures)
    if any(c.ended >= deepest for c in combos):
        return []  # some input got as far and raised something else: the failures are the contract's
    shown = prefer([c for c in failing if any(depth == deepest for _, depth in c.failures)])

    def suffix(d: Diagnostic) -> str:
        every = "every non-degenerate input" if plausible.MARK in d.message else "every input"
        return f" (library mode: {target.cls} built with {target.label}; fails for {every} {describe(shown)})"

    return [dataclasses.replace(d, message=d.message + suffix(d)) for d, depth in shown.failures if depth == deepest]


def _site(d: Diagnostic) -> Span:
    """The span a path records for the check `d` was made at (`LibraryInterpreter.require`: `self.span`)."""
    return d.span


def _from_callers(run: LibraryRun) -> list[Diagnostic]:
    """Callers are evidence: when the module fails on every input its project call sites pass (and no
    such run was cut short or raised something else), each failure, with the call site related."""
    runs = run.callers
    if not runs or any(c.completed or c.incomplete or not c.failures for _, c in runs):
        return []
    names = [s.name for s in run.target.inputs]
    out: list[Diagnostic] = []
    for caller, c in runs:
        deepest = max(depth for _, depth in c.failures)
        if c.ended >= deepest:
            return []
        site = Related(Span(caller.rel, caller.line, caller.col), f"{run.target.cls} called here with "
                       f"{caller.text(names)}")
        out += [dataclasses.replace(d, related=d.related + (site,), message=(
                    f"{d.message} (library mode: {run.target.cls} built with {run.target.label} fails on the input "
                    f"its caller passes, {caller.text(names)} at {caller.rel}:{caller.line})"))
                for d, depth in c.failures if depth == deepest]
    return out
