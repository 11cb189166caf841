"""Path exploration: replay the entry point with different branch decisions.

Each run follows one path from the start; an undecided branch records its other side, which a
later run takes by replaying the same prefix of decisions (a branch side no path took yet first,
else depth first: `_Worklist`). Findings from all paths are merged.
"""

from __future__ import annotations

import ast
import dataclasses
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from pytea_ci.diagnostics import Diagnostic, Severity, Span
from pytea_ci.diagnostics.budgets import CANCELLED, STEPS_PER_ENTRY, WALL_CLOCK
from pytea_ci.diagnostics.rules import INCOMPLETE, PARSE_ERROR, budget_reached, module_missing
from pytea_ci.diagnostics.result import EntryResult, EntryStats
from pytea_ci.interp.coverage import nothing_checked
from pytea_ci.interp.installed import Installed
from pytea_ci.interp.observe import NO_EDITOR, Editor
from pytea_ci.interp.interpreter import Budget, Decision, Interpreter, Shared
from pytea_ci.interp.machine import Ran
from pytea_ci.interp.project_imports import ProjectImports
from pytea_ci.interp.runtime import (MODULE_NOT_FOUND, BreakSignal, BudgetExceeded, ContinueSignal, ModuleVal, PathEnd,
                                     ReturnSignal, Scope, UserException, raised_text)
from pytea_ci.interp.snapshot import chose_after_prefix, run_prefix
from pytea_ci.solver import Decider
from pytea_ci.solver.decide import Stats


_STACK_BYTES = 512 * 1024 * 1024
_RECURSION_LIMIT = 30_000


def analyze_entry(entry: str, root: str, decider: Decider, budget: Budget | None = None,
                  options: dict[str, Any] | None = None, display_root: str | None = None,
                  strict: bool = False, installed: Installed | None = None, editor: Editor = NO_EDITOR,
                  imports: ProjectImports | None = None,
                  project_files: Callable[[], list[str]] | None = None) -> EntryResult:
    """Analyze one entry point run as `__main__`; never raises for problems in the analyzed code.
    `installed`: the installed packages it may read (`pytea_ci/packages`, wired in by the driver);
    `editor`: an editor's buffers, shape recorder and cancel test (`observe.py`); `imports`: the run's kept
    imports of the project's packages (`project_imports.py`), None to run them every time; `project_files`:
    the project's Python files as the run sees them (its `exclude`), None for every one under the root.

    The interpreter recurses along the analyzed program's nesting, so it runs in a thread with a
    large stack: deeply nested code reaches the recursion budget, not a crash.
    """
    out: list[Any] = []

    def work() -> None:
        try:
            out.append(_analyze(entry, root, decider, budget or Budget(), options or {}, display_root, strict, installed,
                               editor, imports, project_files))
        except BaseException as e:  # re-raised in the caller's thread
            out.append(e)

    old_limit = sys.getrecursionlimit()
    old_stack = threading.stack_size()
    try:
        threading.stack_size(_STACK_BYTES)
        sys.setrecursionlimit(max(old_limit, _RECURSION_LIMIT))
        t = threading.Thread(target=work, name="pytea-ci-analysis")
        t.start()
        t.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]


def _analyze(entry: str, root: str, decider: Decider, budget: Budget, options: dict[str, Any],
             display_root: str | None, strict: bool, installed: Installed | None = None,
             editor: Editor = NO_EDITOR, imports: ProjectImports | None = None,
             project_files: Callable[[], list[str]] | None = None) -> EntryResult:
    shared = Shared(display_root or root, installed, editor)
    shared.project_imports = imports
    shared.project_files = project_files
    shared.max_file_bytes = budget.max_file_bytes
    t0 = time.monotonic()
    before = dataclasses.replace(decider.stats)
    rel_entry = os.path.relpath(os.path.abspath(entry), os.path.abspath(shared.display_root))
    result = EntryResult(rel_entry)
    tree = shared.parse(entry)
    if isinstance(tree, SyntaxError):
        span = Span(rel_entry, tree.lineno or 1, max(0, (tree.offset or 1) - 1))
        result.diagnostics.append(Diagnostic(PARSE_ERROR.id, Severity.ERROR, span, PARSE_ERROR.message("", tree.msg),
                                               entry=rel_entry))
        result.status = "parse-error"
        return result
    end = min(t0 + budget.wall_seconds, budget.run_deadline or float("inf"))
    with decider.budgeted(budget.solver_rlimit, end) as spent:
        paths, steps, incomplete = explore(entry, root, tree, decider, budget, options, shared, t0, strict)
    incomplete += [(name, None) for name in spent.reached]
    shared.machine.resolve(shared.findings)
    result.diagnostics.extend(shared.findings.values())
    reached = _budget_notes(result, incomplete + list(shared.budgets.items()), rel_entry)
    result.diagnostics.extend(Diagnostic(INCOMPLETE.id, Severity.NOTE, span, module_missing(stmt), entry=rel_entry)
                              for stmt, span in shared.missing_imports.items())
    result.stats = _stats(before, decider, shared, paths, steps, time.monotonic() - t0)
    result.inputs = dict(shared.inputs)
    note = nothing_checked(result.stats, rel_entry, shared.coverage.library_used)
    if note is not None:
        result.diagnostics.append(note)
    result.diagnostics.sort(key=lambda d: d.sort_key())
    if any(d.rule == PARSE_ERROR.id for d in result.diagnostics):
        result.status = "parse-error"
    elif any(d.severity is not Severity.NOTE for d in result.diagnostics):
        result.status = "findings"
    elif reached:
        result.status = "incomplete"
    return result


def explore(entry: str, root: str, tree: ast.Module, decider: Decider, budget: Budget, options: dict[str, Any],
            shared: Shared, t0: float, strict: bool, make: type[Interpreter] = Interpreter,
            name: str = "__main__", run: Callable[[Interpreter, ast.Module, str], None] | None = None,
            ) -> tuple[int, int, list[tuple[str, Span | None]]]:
    """Run every path (by replaying decisions) until done or a budget stops it, in the order `_Worklist`
    gives.

    `make`, `name` and `run`: a caller may run its own interpreter class over a module imported as
    `name`, each path through its own `run` (which may resume from a state it saved)."""
    work = _Worklist()
    forced: list[bool] = []
    came_from: tuple[_Run, int] | None = None  # the alternative the next path takes
    incomplete: list[tuple[str, Span | None]] = []
    paths = steps = 0
    paths_of: dict[str | None, int] = {}  # per CLI command: each has a path budget of its own
    shared.entry_steps = budget.entry_steps  # the entry's commands share it (Interpreter.enter_command)
    deadline = t0 + budget.wall_seconds  # the wall-clock safety net covers every command of the entry
    if budget.run_deadline is not None:  # the whole run's safety net ends every command too
        deadline = min(deadline, budget.run_deadline)
    while True:
        if decider.spending is not None and decider.spending.deadline is not None:
            decider.spending.deadline = max(decider.spending.deadline, deadline)
        interp = make(entry, root, decider, budget, forced, options, shared, deadline, strict)
        shared.paths_pending = work.owed(came_from)  # each will replay what this one replays
        paths += 1
        (run or run_path)(interp, tree, name)
        shared.machine.path_done(Ran(interp.path_id, interp.decisions(), interp.stopped_at_finding,
                                     frozenset(interp.sites_passed), interp.completed, interp.budget_note is not None))
        steps += interp.steps
        shared.charge(interp.command, interp.steps)
        label = interp.command[0] if interp.command is not None else None
        start = interp.command[1] if interp.command is not None else 0
        paths_of[label] = paths_of.get(label, 0) + 1
        work.add(_Run(interp.trail, came_from), len(forced), label, start)
        spent = interp.budget_note is not None and interp.budget_note[0] == STEPS_PER_ENTRY
        if interp.budget_note is not None:
            incomplete.append(_named(interp.budget_note, label))
            if interp.budget_note[0] in (WALL_CLOCK, CANCELLED) or (spent and interp.command is None):
                break
        if paths_of[label] >= budget.paths and work.any_in(label):
            incomplete.append(_named(("paths per entry point", None), label))
            if interp.command is None:
                break
            spent = True
        if spent and interp.command is not None:  # this command is done: on to the next one
            work.drop(interp.command[0])
        nxt = work.pop()
        if nxt is None:
            break
        if interp.command is not None and nxt.at < start and not work.may_lead_to(interp.command[0]):
            shared.commands_done.add(interp.command[0])  # the next path leaves it, and nothing leads back
        forced, came_from = nxt.forced(), (nxt.run, nxt.at)
    return paths, steps, incomplete


@dataclasses.dataclass(eq=False)
class _Run:
    """A finished path's decisions, and the alternative of an earlier path it took (None: the first path)."""
    trail: list[Decision]
    parent: tuple["_Run", int] | None


@dataclasses.dataclass(eq=False)
class _Alternative:
    """A decision of a finished path still to be taken the other way: a later path replays the path's
    choices before it, then takes the other side."""
    run: _Run
    at: int
    command: str | None  # the CLI command the path ran when it made the decision (None: before any)
    order: int  # when it was found: the greatest is the deepest of the latest path (depth-first order)

    def forced(self) -> list[bool]:
        return [d.choice for d in self.run.trail[:self.at]] + [not self.run.trail[self.at].choice]

    def side(self) -> tuple[tuple[str, int, int], bool] | None:
        d = self.run.trail[self.at]
        return None if d.site is None else (d.site, not d.choice)


class _Worklist:
    """The alternatives still to take, and which one goes next: a side of a branch no path has taken yet
    before any other (the latest found first), else depth first (the latest found). Depth first alone
    spends the path budget on the combinations of a long run's late branches (a training loop's logging,
    checkpointing and early-stopping tests) while an early branch's other side (the vocabulary built from
    the data when no saved one exists, the other model a config picks) is never taken; every path is
    still taken when the budget allows, so only the order changes. Once a path ran a CLI command (`fire`,
    `click`: each command has a path budget and a part of the entry's steps of its own), depth first."""

    def __init__(self) -> None:
        self.pending: list[_Alternative] = []
        self.taken: set[tuple[tuple[str, int, int], bool]] = set()  # branch sides some path took
        self.found = 0
        self.commands = False  # whether a path ran a CLI command

    def add(self, run: _Run, replayed: int, command: str | None, start: int) -> None:
        """The finished path `run`: the sides it took, and its decisions after the `replayed` ones."""
        self.taken.update((d.site, d.choice) for d in run.trail if d.site is not None)
        self.commands = self.commands or command is not None
        for i in range(replayed, len(run.trail)):
            if run.trail[i].alt_pending:
                self.found += 1
                self.pending.append(_Alternative(run, i, command if command is not None and i >= start else None,
                                                 self.found))

    def pop(self) -> _Alternative | None:
        if not self.pending:
            return None
        if self.commands:  # CLI commands: each has its own budgets, whose parts assume their paths in
            fresh = []  # depth-first order (Interpreter.enter_command)
        else:
            fresh = [a for a in self.pending if (side := a.side()) is not None and side not in self.taken]
        nxt = max(fresh or self.pending, key=lambda a: a.order)
        self.pending.remove(nxt)
        return nxt

    def any_in(self, command: str | None) -> bool:
        """Alternatives left inside `command` (None: any at all)."""
        return any(command is None or a.command == command for a in self.pending)

    def drop(self, command: str) -> None:
        self.pending = [a for a in self.pending if a.command != command]

    def may_lead_to(self, command: str) -> bool:
        """Alternatives left inside `command` or made before any command (which may lead back to it)."""
        return any(a.command is None or a.command == command for a in self.pending)

    def owed(self, came_from: tuple[_Run, int] | None) -> int:
        """The alternatives left among the decisions the next path replays: each replays them again."""
        n, cut = 0, came_from
        while cut is not None:
            run, at = cut
            n += sum(1 for a in self.pending if a.run is run and a.at < at)
            cut = run.parent
        return n


def _named(note: tuple[str, Span | None], command: str | None) -> tuple[str, Span | None]:
    """A budget note of one CLI command names it (`steps per entry point (subcommand 'train')`)."""
    return note if command is None else (f"{note[0]} ({command})", note[1])


def _budget_notes(result: EntryResult, hits: list[tuple[str, Span | None]], rel_entry: str) -> dict[str, Span | None]:
    """One PT011 note per budget reached, where it was first reached."""
    reached: dict[str, Span | None] = {}
    for name, span in hits:
        reached.setdefault(name, span)
    for name, span in reached.items():
        result.diagnostics.append(Diagnostic(INCOMPLETE.id, Severity.NOTE, span or Span(rel_entry, 1, 0),
                                             budget_reached(name, rel_entry), entry=rel_entry))
    return reached


def _stats(before: Stats, decider: Decider, shared: Shared, paths: int, steps: int, seconds: float) -> EntryStats:
    s = decider.stats
    stats = EntryStats(paths=paths, steps=steps, unmodeled=dict(shared.unmodeled),
                       concrete_checks=s.concrete - before.concrete, z3_calls=s.z3_calls - before.z3_calls,
                       cache_hits=s.cache_hits - before.cache_hits, undecided=s.undecided - before.undecided,
                       seconds=seconds, z3_seconds=s.z3_seconds - before.z3_seconds,
                       shared_imports=dict(shared.shared_imports))
    shared.coverage.fill(stats)
    return stats


def run_path(interp: Interpreter, tree: ast.Module, name: str = "__main__") -> None:
    interp.budget_note = None
    g: dict[str, Any] = {"__name__": name, "__file__": interp.config.entry, "__package__": interp.entry_package()}
    cov = interp.shared.coverage
    made = -1  # the path's choices when its import prefix ended
    try:
        if not interp.registered_after_prefix:
            interp.modules.setdefault(name, ModuleVal(name, interp.config.entry, g))  # `sys.modules[__name__]`
        else:  # its imports do not find it, but its own `sys.modules[__name__]` does (d2l: `d2l = sys.modules[...]`)
            interp.program = ModuleVal(name, interp.config.entry, g)
        g, done = run_prefix(interp, tree.body, g, name)
        made = len(interp.trail)
        mod = interp.modules.setdefault(name, ModuleVal(name, interp.config.entry, g))
        body = tree.body[done:]
        if mod.globals is not g and mod.path == interp.config.entry and not mod.stopped:
            # its imports imported the program's own file under its name (a package's `__init__` importing its
            # modules): CPython runs a module's body once, so the rest runs in that module, without the body
            g, body = mod.globals, interp.not_the_module_body(body)
        interp.exec_block(body, Scope(g, g))
        interp.completed = True
    except UserException as e:
        cov.end("exception", e.span or interp.span, raised_text(e))
        where = e.span or interp.span
        if e.kind == MODULE_NOT_FOUND and isinstance(e.stmt, (ast.Import, ast.ImportFrom)) \
                and interp.project_span(where) == where:  # in a package: a path its availability check forked
            interp.shared.missing_imports.setdefault(ast.unparse(e.stmt), where)
    except (PathEnd, ReturnSignal, BreakSignal, ContinueSignal):
        pass
    except BudgetExceeded as b:
        where = interp.project_span(b.span or interp.span)  # installed packages are read-only
        interp.budget_note = (b.budget, where)
        cov.end("budget", where, f"the {b.budget} budget was reached", b.module)
    except RecursionError:
        where = interp.project_span(interp.span)
        interp.budget_note = ("recursion depth", where)
        cov.end("budget", where, "the recursion depth budget was reached")
    finally:
        if 0 <= made < len(interp.trail):
            chose_after_prefix(interp, tree.body, name)

