"""Library mode: run one module over every rank combination of its inputs and decide what to report.

Each combination (a rank, or the size of a jaxtyping variadic, per `forward` parameter) is explored
like an entry point. A combination is *accepted* when some path runs `forward` to its end: the
first op that needs a rank accepts it. Failures are reported only when no combination is accepted,
and only those that got furthest (most checks passed): the ranks the first op rejected fail early,
and are the contract, not the bug. Within an accepted combination the may-fail checks already
joined the contract (`library.py`), so what remains are the annotation promises (PT002).
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

from pytea_ci.diagnostics import Diagnostic, Severity, Span
from pytea_ci.interp.budget import Budget
from pytea_ci.interp.explore import _explore
from pytea_ci.interp.library import LibraryInterpreter, LibraryShared, PathOutcome
from pytea_ci.interp.library_inputs import LibraryTarget
from pytea_ci.interp.library_inputs import choices
from pytea_ci.solver import Decider

MAX_COMBOS = 40  # beyond this many rank combinations, the module is not decided (PT011)


@dataclass
class ComboResult:
    ranks: tuple[int, ...]
    completed: list[PathOutcome] = field(default_factory=list)
    failures: list[tuple[Diagnostic, int]] = field(default_factory=list)  # (finding, checks passed before)
    warnings: list[Diagnostic] = field(default_factory=list)
    incomplete: bool = False


@dataclass
class LibraryRun:
    """Everything the verdict and the shapes report need from one module's runs."""

    target: LibraryTarget
    combos: list[ComboResult] = field(default_factory=list)
    out_of_budget: bool = False
    parse_error: Diagnostic | None = None
    seconds: float = 0.0

    @property
    def accepted(self) -> list[ComboResult]:
        return [c for c in self.combos if c.completed]


_KEEP = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _definitions(body: list[ast.stmt]) -> list[ast.stmt]:
    """The top-level statements that define things (the script part of the file is not run)."""
    out: list[ast.stmt] = []
    for st in body:
        if isinstance(st, _KEEP):
            out.append(st)
        elif isinstance(st, (ast.Assign, ast.AnnAssign)) and not any(isinstance(n, ast.Call) for n in ast.walk(st)):
            out.append(st)
        elif isinstance(st, ast.Try) and all(isinstance(s, _KEEP + (ast.Assign,)) for s in st.body):
            out.append(st)
    return out


def driver_tree(tree: ast.Module, target: LibraryTarget) -> ast.Module:
    call = ast.parse(f"__pytea_run__({target.construct})").body
    for node in call:
        for sub in ast.walk(node):
            if hasattr(sub, "lineno"):
                sub.lineno = sub.end_lineno = target.line  # type: ignore[attr-defined]
                sub.col_offset = sub.end_col_offset = 0  # type: ignore[attr-defined]
    return ast.Module(body=_definitions(tree.body) + call, type_ignores=[])


def run_module(target: LibraryTarget, root: str, decider: Decider, seconds: float = 5.0,
               display_root: str | None = None, strict: bool = False) -> LibraryRun:
    """Explore every rank combination of `target` within `seconds` in total."""
    import pytea_ci.models.all  # noqa: F401  (registers every model)

    run = LibraryRun(target)
    t0 = time.monotonic()
    base = LibraryShared(display_root or root)
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
    for ranks in combos:
        left = seconds - (time.monotonic() - t0)
        if left <= 0:
            run.out_of_budget = True
            break
        run.combos.append(_one(target, program, ranks, root, decider, left, display_root, strict, base))
    run.seconds = time.monotonic() - t0
    return run


def _one(target: LibraryTarget, program: ast.Module, ranks: tuple[int, ...], root: str, decider: Decider,
         seconds: float, display_root: str | None, strict: bool, base: LibraryShared) -> ComboResult:
    shared = LibraryShared(display_root or root)
    shared.asts = base.asts  # parsed files are shared by all combinations
    options: dict[str, Any] = {"library": target, "ranks": ranks, "args": {}, "symbolic_args": {}}
    budget = Budget(paths=32, steps=200_000, seconds=seconds, solver_seconds=seconds)
    t0 = time.monotonic()
    decider.deadline = t0 + seconds
    try:
        _, _, incomplete = _explore(target.via or target.path, root, program, decider, budget, options, shared,
                                    t0, strict, make=LibraryInterpreter,
                                    name="__main__" if target.via else _module_name(target.path))
    finally:
        decider.deadline = None
    res = ComboResult(ranks, shared.completed, incomplete=bool(incomplete or shared.budgets))
    for d in shared.findings.values():
        if d.severity is Severity.ERROR:
            res.failures.append((d, shared.depth.get(d.key(), 0)))
        elif d.severity is Severity.WARNING:
            res.warnings.append(d)
    return res


def _module_name(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


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


def verdict(run: LibraryRun, rel: str, describe: Callable[[tuple[int, ...]], str]) -> list[Diagnostic]:
    """The findings of one module (`rel`: its file as shown): see the module docstring."""
    target = run.target
    notes: list[Diagnostic] = []
    if run.out_of_budget:
        notes.append(Diagnostic("PT011", Severity.NOTE, Span(rel, target.line, 0),
                                f"library mode: {target.cls} could not be decided within its budget "
                                f"(built with {target.label})", entry=rel))
    accepted = run.accepted
    if accepted:
        warnings = {d.key(): d for c in accepted for d in c.warnings}
        return list(warnings.values()) + notes
    if run.out_of_budget or any(c.incomplete for c in run.combos):
        return notes
    failing = [c for c in run.combos if c.failures]
    if not failing:
        return notes
    deepest = max(depth for c in failing for _, depth in c.failures)
    shown = prefer([c for c in failing if any(depth == deepest for _, depth in c.failures)])
    suffix = (f" (library mode: {target.cls} built with {target.label}; fails for every input "
              f"{describe(shown.ranks)})")
    found = [dataclasses.replace(d, message=d.message + suffix) for d, depth in shown.failures if depth == deepest]
    return found + notes
