"""The interpreter proper: per-path state, names, assignment, branching, checks and findings.

One `Interpreter` runs one path of one entry point; `explore.py` replays it with different
branch decisions to cover the other paths. It implements the `Ctx` protocol the models see.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import os
import time
from dataclasses import dataclass
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Iterator

from pytea_ci.diagnostics import Diagnostic, Frame, Related, Severity, Span
from pytea_ci.diagnostics.rules import (ASSERT_FAILS, PARSE_ERROR, POSSIBLE_SHAPE_MISMATCH, SHAPE_MISMATCH, UNDECIDED,
                                        Rule)
from pytea_ci.diagnostics import sources
from pytea_ci.diagnostics.notebook import is_notebook
from pytea_ci.diagnostics.notebook import parse as parse_notebook
from pytea_ci.diagnostics.budgets import CANCELLED, STEPS_PER_ENTRY, STEPS_PER_PATH, WALL_CLOCK, parse_steps
from pytea_ci.interp.budget import Budget  # (defined apart; still importable from here)
from pytea_ci.interp.config import PackagePath, PathConfig
from pytea_ci.interp.coverage import Coverage, first_origin, opaque_origin
from pytea_ci.interp.escape import handed
from pytea_ci.interp.exprs import SUPER_MARK, ExprMixin
from pytea_ci.interp.imports import ImportMixin
from pytea_ci.interp.index_maps import IndexMapMixin
from pytea_ci.interp.loops import LoopMixin
from pytea_ci.interp.patterns import PatternMixin
from pytea_ci.interp.machine import MachineFindings, PathMachine, guess_text, side_going_on
from pytea_ci.interp.observe import NO_EDITOR, Editor
from pytea_ci.interp.installed import Installed
from pytea_ci.interp.assign import AssignMixin
from pytea_ci.interp.calls import CallMixin
from pytea_ci.interp.objects import ObjectMixin
from pytea_ci.interp.sequences import SequenceMixin
from pytea_ci.interp.unordered import UnorderedMixin
from pytea_ci.fsio import BINARY_LIMIT
from pytea_ci.interp.project_files import data_kind, data_listing, read_bytes, read_text
from pytea_ci.interp.ops import on_machine
from pytea_ci.interp.plausible_sizes import implausible_only
from pytea_ci.interp.runtime import SHAPE_ERROR, BudgetExceeded, ModuleVal, PathEnd, Scope, SideEnd, UserException
from pytea_ci.interp.stmts import StmtMixin
from pytea_ci.interp.unbound import never_bound
from pytea_ci.models import registry
from pytea_ci.models.values import DELETED_GLOBALS, ClassVal, Instance, Namespace, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import WORK as _DIM_WORK
from pytea_ci.shapes.dim import INPUT, UNKNOWN, Dim, Sym, origin_of, symbols
from pytea_ci.shapes.explain import fails_when, for_every
from pytea_ci.shapes.pred import Cond, Pred, opaque
from pytea_ci.shapes.tensor import Origin
from pytea_ci.solver import Decider, Verdict

if TYPE_CHECKING:
    from pytea_ci.interp.project_imports import ProjectImports


WORK_PER_STEP = 8  # atoms of symbolic arithmetic worth one interpreter step


def dim_work() -> int:
    return _DIM_WORK[0]


@dataclass
class Decision:
    choice: bool
    alt_pending: bool
    site: tuple[str, int, int] | None = None  # the branch's place (None: a choice replayed from a record)


class Interpreter(LoopMixin, PatternMixin, StmtMixin, ExprMixin, ObjectMixin, CallMixin, SequenceMixin, ImportMixin,
                  AssignMixin, UnorderedMixin, IndexMapMixin):
    # Seams for a subclass that runs a program of its own over a module (declared here, so that the
    # interpreter never asks whether it is one): names it defines for that program, looked up before
    # the program's globals (each maps the interpreter to the value); and whether the import prefix is
    # captured by the first path too, because other runs over the same module follow (`snapshot.py`).
    provided_names: ClassVar[Mapping[str, Callable[[Any], Any]]] = {}
    checkpoint_first: ClassVar[bool] = False
    # whether the module run is registered under its name only after its import prefix: its imports then
    # load what they load from any other module (as when CPython runs it with `-m`), so the import of a
    # project package is the same from every module of it and kept once per run (project_imports.py)
    registered_after_prefix: ClassVar[bool] = False

    def not_the_module_body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """The statements of the program that are not its file's own (a driver's), for when the file already
        ran as the module of its name while its imports ran: none in a program that is the file."""
        return []

    def __init__(self, entry: str, root: str, decider: Decider, budget: Budget, forced: list[bool],
                 options: dict[str, Any], shared: "Shared", deadline: float, strict: bool = False) -> None:
        self.config = PathConfig(entry, os.path.realpath(root), decider, budget, forced, options, deadline, strict)
        self.trail: list[Decision] = []
        self.shared = shared
        self.pc: list[Cond] = []
        self.per_run: list[Cond] = []  # conjuncts of pc from per-run forks (Ctx.fork)
        self.blind_cases: list[Cond] = []  # those of them whose other side the model does not follow
        self.modules: dict[str, Any] = {}
        self.program: ModuleVal | None = None  # the module run, in `sys.modules` while its import prefix runs
        self.frames: list[tuple[Span, Any, Any]] = []  # (call site, function, (args, kwargs))
        self.spans: list[Span] = [Span(self.rel(entry), 1, 0)]
        self.cur_path: str = entry
        # steps start with the files parsed for this entry before any path (the entry's own); `charged`: the
        # steps of work outside statements (parses, state copies: `charge_work`), not per-path state
        self.steps = self.charged = shared.collect()
        self.work_seen = dim_work()  # (not per-path state: snapshots never copy it)
        self.sym_count = 0
        self.naming = None
        self.discarded = None
        self.sym_names: set[str] = set()
        self.inexact: set[int] = set()
        self.unordered: set[int] = set()  # containers whose items are known and whose order is not (unordered.py)
        self.escaped: set[int] = set()  # dicts and instances handed to code not followed: any key or attribute may be there (escape.py)
        self.callbacks: list[Any] = []  # functions handed to code not followed, which may call them later
        self.known_len: dict[int, Dim] = {}  # inexact lists whose length is known (their items are representatives)
        # values not understood whose length was taken (`len()`, a comprehension over them): the same symbol until
        # something may change them (sequences.py `unknown_length`); the value is kept, so its id is never reused
        self.unknown_len: dict[int, tuple[Unknown, Dim]] = {}
        self.cursors: dict[int, int] = {}  # iterators `next()` took items from: how many (-1: not known)
        self.rep_positions: dict[int, tuple[int, ...]] = {}  # positions of those items in the list, when known
        # inexact lists read at a constant position: the item there, one value until the list changes (CPython's
        # `pair[0]` twice is one object: what is learnt of one read holds for the other)
        self.rep_items: dict[int, dict[int, Any]] = {}
        self.exact_prefix: dict[int, int] = {}  # inexact tuples whose first items are known: how many (`(q, *xs)`)
        # tables numbered by their own length, and lists grown beside them (index_maps.py)
        self.index_maps: dict[int, int] = {}  # dicts whose values are exactly start..start+len-1: start
        self.len_links: dict[int, tuple[dict[Any, Any], int]] = {}  # list -> (its dict, length offset)
        self.absent_keys: list[tuple[Any, Any, bool]] = []  # (key, dict, stores lengths) absent on the side running
        # the frame depth of the statement running when it is `d.setdefault(k, len(d))`, else -1 (index_maps.py)
        self.length_default = -1
        self.appended_beside: dict[int, list[list[Any]]] = {}  # dict -> lists appended to on its absent side
        self.last_membership: tuple[Any, Any] | None = None  # operands of the last `in` evaluated
        self.keepalive: list[Any] = []
        self.loop_mutations: list[set[int]] = []
        # per loop running: the containers its body changed in ways whose result does not depend on the order of
        # the iterations (new dict keys stored, set items added, list items appended: True) or may (False)
        self.order_free: list[dict[int, bool]] = []
        self.yields: list[list[Any]] = []
        # per generator running: [its frame depth, ran representatives, yields every run makes, rep_depth at its start]
        self.gen_reps: list[list[Any]] = []
        self.rep_depth = 0  # loops whose body is running representatives of their iterations
        self.cm_hooks: list[tuple[int, Any]] = []  # contextmanager generators running a `with` (contexts.py)
        self.star_namespaces: dict[int, list[Namespace]] = {}
        self.budget_note: tuple[str, Span | None] | None = None
        self.facts: dict[str, Any] = {}  # per-path state of models (Ctx.facts)
        self.command: tuple[str, int] | None = None  # the command this path runs, and its place in the trail
        self.path_id = shared.machine.new_path()
        self.machine = PathMachine()  # sides taken at branches on facts about the machine
        self.branch_inside: frozenset[str] = frozenset()  # machine choices the last decided side runs inside
        self.stopped_at_finding = False
        self.sites_passed: set[Span] = set()  # where checks ran on this path (interp/machine.py)
        self.completed = False  # the program ran to its end on this path
        self.inherit: Origin | None = None  # origin of the unknown operand of the model being called
        self.model_name = ""  # the model being called ("" in the program's own code)
        # inside `with pytest.raises(...)`, or a `try` with a handler that catches what a failing tensor
        # op raises: a failure is the program's business (it raises SHAPE_ERROR), not a finding
        self.expecting = 0
        # sides of branches on values not understood run on a path that may not take them (stmts.ex_If):
        # how each is named in a warning
        self.unsure_sides: list[str | None] = []
        self.catching_import = 0  # enclosing `try` bodies whose handlers catch a module's absence
        self.importing = 0  # > 0 while a project module's import-time code runs (imports.py)
        self.pkg = PackagePath()  # installed packages this path is inside

    @property
    def root(self) -> str:  # (Ctx)
        return self.config.root

    @property
    def decider(self) -> Decider:  # (Ctx)
        return self.config.decider

    # ----- positions ----------------------------------------------------------------------------
    def rel(self, path: str) -> str:
        """`path` as findings show it: relative to the display root when under it (memoized: every
        span of every node asks, and a program has few files)."""
        known = self.shared.rel_paths.get(path)
        if known is None:
            ap = os.path.abspath(path)
            base = os.path.abspath(self.shared.display_root)
            known = self.shared.rel_paths[path] = os.path.relpath(ap, base) if ap.startswith(base + os.sep) else path
        return known

    def span_of(self, node: ast.AST | None) -> Span:
        if node is None or not hasattr(node, "lineno"):
            return self.span
        return Span(self.rel(self.cur_path), node.lineno, node.col_offset,  # type: ignore[attr-defined]
                    getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None))

    @property
    def span(self) -> Span:
        return self.spans[-1]

    def at(self, node: ast.AST) -> "_At":
        """`with self.at(node):` findings made inside are placed at `node` (a plain context manager: a
        package's import enters one per call and unpacking, a generator-based one cost a tenth of them)."""
        return _At(self.spans, self.span_of(node))

    def inside_project(self, path: str) -> bool:
        real = os.path.realpath(path)
        roots = [os.path.realpath(r) for r in self.config.search_roots]  # the entry's home and the root
        return any(real == r or real.startswith(r + os.sep) for r in roots)

    def parse_file(self, path: str) -> ast.Module | None:
        tree = self.shared.parse(path)
        self.charge_work(self.shared.collect())  # the first path to read a file pays its parse
        if isinstance(tree, SyntaxError):
            self.shared.add(Diagnostic(PARSE_ERROR.id, Severity.ERROR, Span(self.rel(path), tree.lineno or 1,
                                                                           max(0, (tree.offset or 1) - 1)),
                                       PARSE_ERROR.message("", tree.msg), entry=self.rel(self.config.entry)))
            return None
        return tree

    # ----- budgets and coverage -------------------------------------------------------------------
    def charge_work(self, steps: int) -> None:
        """Work outside the program's statements (a parse, a copy of the state), charged as steps: to the
        step budgets, not to what counts statement work alone (a subclass's limit on an import's statements)."""
        self.steps += steps
        self.charged += steps

    def tick(self, node: ast.AST) -> None:
        work = dim_work()  # symbolic arithmetic since the last step, charged as steps too
        extra = (work - self.work_seen) // WORK_PER_STEP
        self.work_seen += extra * WORK_PER_STEP
        self.steps += 1 + extra
        if self.steps > self.config.budget.steps:
            raise BudgetExceeded(STEPS_PER_PATH, self.span_of(node))
        if self.shared.pot(self.command) + self.steps > self.config.budget.entry_steps:
            raise BudgetExceeded(STEPS_PER_ENTRY, self.span_of(node))
        if self.pkg.stack and self.shared.installed is not None:
            self.shared.installed.tick(self)
        if self.steps % 128 == 0:  # the safety net and the editor's cancel: never below the step budgets
            if time.monotonic() > self.config.deadline:
                raise BudgetExceeded(WALL_CLOCK, self.span_of(node))
            if self.shared.editor.cancelled():
                raise BudgetExceeded(CANCELLED, self.span_of(node))

    def enter_command(self, label: str, left: int = 1) -> None:
        """This path runs the command `label` (`subcommand 'train'`) from here on, the first of the `left`
        commands still to run at this choice (the choice is explored in order). Each command of a CLI has
        its own path budget and its own part of the entry's steps (explore.py), so one command's long data
        preparation does not leave its `train` command unanalyzed, while the entry's commands together
        stay within the entry's steps — its share of the run: the first path of a command fixes its part,
        what the commands before it left (of the entry, or of the enclosing command), divided equally
        among it and the ones after it. A command given its part that may still run paths (a decision made
        before the command choice is still to be taken the other way: the commands' paths interleave) holds
        all of its part, spent or not; one whose paths are all done (`commands_done`, explore.py) only what
        it spent."""
        sh, parent = self.shared, self.command[0] if self.command is not None else None
        key = label if parent is None else f"{parent}, {label}"
        if key not in sh.command_allowance:
            siblings = [k for k, p in sh.command_parent.items() if p == parent]
            spent = {k: sh.command_steps.get(k, 0) for k in siblings}
            held = sum(spent[k] if k in sh.commands_done else max(spent[k], sh.command_allowance[k]) for k in siblings)
            total = sh.entry_steps if parent is None else sh.command_allowance[parent]
            pool = total - (sh.pot(self.command) - sum(spent.values())) - held
            sh.command_parent[key] = parent
            sh.command_allowance[key] = max(0, pool) // max(1, left)
        self.command = (key, len(self.trail))
        self.config = dataclasses.replace(self.config, budget=dataclasses.replace(
            self.config.budget, entry_steps=sh.command_allowance[key]))

    def project_text(self, name: str, base: str | None = None) -> str | None:
        return read_text(self, name, base)

    def project_data(self, name: str, base: str | None = None) -> bytes | None:
        return read_bytes(self, name, base, BINARY_LIMIT)

    def written_elsewhere(self, key: tuple[str, ...]) -> list[tuple[str, Any]]:
        from pytea_ci.interp.project_writes import written_elsewhere

        return written_elsewhere(self, key)

    def data_kind(self, path: str) -> str | None:
        return data_kind(self, path)

    def data_listing(self, path: str) -> list[str] | None:
        return data_listing(self, path)

    def registered(self, package: str, decorator: str, key: str) -> Any:
        return self.shared.installed.registered(self, package, decorator, key) if self.shared.installed is not None else None

    def module_absent(self, top: str) -> bool:
        return self.shared.installed is not None and self.shared.installed.absent(self, top)

    def relocate(self, span: Span, message: str) -> tuple[Span, str]:
        """Where a finding made at `span` is reported: the project's call when `span` is in an installed
        package (read-only), with the message naming the package line."""
        return self.shared.installed.relocate(self, span, message) if self.shared.installed is not None else (span, message)

    def project_span(self, span: Span) -> Span:
        """Where to place a note made at `span`: the project's call into a package when `span` is in one."""
        return self.relocate(span, "")[0]

    def budget_hit(self, name: str, node: ast.AST) -> None:
        raise BudgetExceeded(name, self.span_of(node))

    def soft_budget(self, name: str) -> None:
        """A budget reached where the analysis can go on with an Unknown: noted once, as PT011."""
        self.shared.budgets.setdefault(name, self.project_span(self.span))

    def unsupported(self, node: ast.AST) -> Any:
        if self.config.strict:
            raise NotImplementedError(f"unsupported syntax {type(node).__name__}")
        what = f"unsupported construct: {type(node).__name__}"
        self.shared.unmodeled[what] = self.shared.unmodeled.get(what, 0) + 1
        origin = Origin(self.span_of(node), what)
        if isinstance(node, ast.stmt):  # code skipped: every call in it is reached, not checked
            for call in ast.walk(node):
                if isinstance(call, ast.Call):
                    self.shared.coverage.op(self.span_of(call), origin)
        return Unknown(what, None, origin)

    def unknown(self, reason: str = "", api: bool = False, pytype: str | None = None) -> Unknown:
        """An Unknown born here; inside a model called with values not understood, it keeps the first
        of their origins (an op on unknowns does not mint a new origin). `api`: an unmodeled API."""
        if api:
            self.shared.unmodeled[reason] = self.shared.unmodeled.get(reason, 0) + 1
        if self.inherit is not None:
            return Unknown(reason, pytype, self.inherit)
        model = self.model_name
        what = f"{model}: {reason}" if model and not reason.startswith(model) and model not in reason else reason
        return Unknown(reason, pytype, Origin(self.span, what))

    def derived(self, reason: str, *sources: Any) -> Unknown:
        """An Unknown computed from `sources`: it keeps the first origin among them."""
        o = first_origin(sources, self.span)
        out = Unknown(reason, None, o) if o is not None else self.unknown(reason)
        if any(isinstance(s, Unknown) and s.holds for s in sources):
            out.holds = handed(*sources)  # computed from values that refer to objects: so does it
        return out

    def fresh(self, hint: str, kind: str = UNKNOWN, lo: int | None = 0, hi: int | None = None,
              note: str = "") -> Sym:
        self.sym_count += 1
        name = f"{hint}_{self.sym_count}"
        if (hint == "drawn" or kind == INPUT and hint == "n") and self.naming is not None and self.naming[1] == self.span:
            # a value the program reads or draws (a fixed draw too), named after the variable it is assigned to
            name = self.naming[0] if self.naming[0] not in self.sym_names else f"{self.naming[0]}_{self.sym_count}"
        self.sym_names.add(name)
        return Sym(name, kind, lo, hi, self.span, note)

    def option(self, key: str) -> Any:
        return self.config.options.get(key)

    def user_error(self, kind: str, message: str, cls: Any = None) -> None:
        raise UserException(kind, Instance(cls) if isinstance(cls, ClassVal) else None)

    # ----- names --------------------------------------------------------------------------------
    def lookup(self, name: str, scope: Scope, node: ast.AST) -> Any:
        if name in scope.global_names:
            return self._global(name, scope, node)
        s: Scope | None = scope
        while s is not None:
            if name in s.locals:
                return s.locals[name]
            s = s.parent
        return self._global(name, scope, node)

    def _global(self, name: str, scope: Scope, node: ast.AST | None = None) -> Any:
        provide = self.provided_names.get(name)
        if provide is not None:
            return provide(self)
        if name in scope.globals:
            return scope.globals[name]
        if self.shared.installed is not None:
            late = self.shared.installed.late_global(self, scope.globals, name)
            if late is not None or name in scope.globals:
                return late
        if name == "super":
            return SUPER_MARK
        for ns in self.star_namespaces.get(id(scope.globals), []):
            found = self.getattr(ns, name)
            if not isinstance(found, Unknown):
                return found
        b = registry.get(f"builtins.{name}")
        if b is not None:
            return b
        if name == "__name__":
            return scope.globals.get("__name__")
        tree = self.shared.asts.get(str(scope.globals.get("__file__")))  # of the entry point only: another
        if scope.globals.get("__name__") == "__main__" and isinstance(tree, ast.Module) and (
                never_bound(tree, name) or ("__main__", name) in self.facts.get(DELETED_GLOBALS, ())):
            raise UserException("NameError", args=(f"name '{name}' is not defined",))  # (a module's globals may
            # be set from outside, `config.X = 1`: only the entry point's, of a name nothing binds)
        what = f"name {name} (not defined on this path, or set by code not understood)"
        return Unknown(f"name {name}", None, Origin(self.span_of(node), what))

    def bind_name(self, name: str, value: Any, scope: Scope) -> None:
        if name in scope.global_names:
            scope.globals[name] = value
            return
        if name in scope.nonlocal_names:
            s = scope.parent
            while s is not None:
                if name in s.locals:
                    s.locals[name] = value
                    return
                s = s.parent
        scope.locals[name] = value

    # ----- branching ----------------------------------------------------------------------------
    def decide(self, cond: Any, node: ast.AST | None = None) -> bool:
        """Which side of a branch this path takes (forking when both are possible). A branch on a fact
        about the machine is noted (`interp.machine`): a fork is a machine choice, a guard is not."""
        t = self.truth_of(cond)
        self.branch_inside = frozenset()
        if isinstance(t, bool):
            return t
        if isinstance(t, Pred):
            if opaque(t):
                # not understood: fork without learning, but never onto a side the path rules out
                # (a length at least n from a summarised loop is not 1)
                can_t, can_f = self.config.decider.branch(t, self.pc)
                return can_t if can_t != can_f else self.guess(cond, node)
            can_t, can_f = self.config.decider.branch(t, self.pc)
            if not can_t and not can_f:
                raise PathEnd()  # infeasible path
            choice = can_t
            at = len(self.trail)
            if can_t and can_f:
                choice = self.choose(t, node)
                self.pc.append(t if choice else P.not_(t))
                if self.seed_ordered(t) and len(self.trail) > at:  # a side the hash seed picks: a guess
                    named = guess_text(t, node, self.span_of(node) if node is not None and hasattr(node, "lineno") else self.span)
                    if named is not None:
                        self.branch_inside = self.machine.guess(at, named[0], choice, named[1], node)
                    return choice
            if on_machine(t):
                self.branch_inside = self.machine.branch(t, choice, node, len(self.trail) - 1 if can_t and can_f else None)
            return choice
        return self.guess(cond, node)

    def guess(self, cond: Any, node: ast.AST | None) -> bool:
        """A branch on a value not understood: both sides are followed, and the side this path takes is
        a guess (`interp.machine`) no definite finding rests on."""
        at = len(self.trail)
        choice = self.choose(None, node)
        if len(self.trail) == at:
            # not forked (import-time code takes one side): of a guard (`if <not understood>: raise`),
            # the side that goes on. A module imported by a program that works imports without
            # raising, so the raising side is the one CPython does not take (torchdrug's registry:
            # `if key in table: raise KeyError`, on a table holding keys not understood, ended the
            # import of every registered model)
            going_on = side_going_on(node)
            return choice if going_on is None else going_on
        where = self.span_of(node) if node is not None and hasattr(node, "lineno") else self.span  # the test's own file
        named = guess_text(cond, node, where) if len(self.trail) > at else None
        if named is not None:
            self.branch_inside = self.machine.guess(at, named[0], choice, named[1], node)
        return choice

    def decisions(self) -> tuple[bool, ...]:
        return tuple(d.choice for d in self.trail)

    @contextlib.contextmanager
    def machine_side(self) -> Iterator[None]:
        """Run the side just decided inside the machine choices that decided it (see `interp.machine`)."""
        inside, self.branch_inside = self.branch_inside, frozenset()
        if inside:
            self.machine.inside.append(inside)
        try:
            yield
        finally:
            if inside:
                self.machine.inside.pop()

    def is_opaque(self, cond: Any) -> bool:
        """A condition that depends on something not understood (no constraint to learn from it)."""
        t = self.truth_of(cond)
        return isinstance(t, Unknown) or (isinstance(t, Pred) and opaque(t))

    def fork(self, cond: Cond, per_run: bool = False, blind: bool = False, guess: bool = False) -> bool:
        before, at = len(self.pc), len(self.trail)
        choice = self.decide(cond)
        if per_run and len(self.pc) > before:
            self.per_run.append(self.pc[-1])
            if blind and choice:
                self.blind_cases.append(self.pc[-1])
        if guess and len(self.trail) > at:  # a finding the other side avoids is no error (interp/machine.py)
            self.machine.guess(at, f"`{cond!r}` is {{side}} at {self.span.path}:{self.span.line}", choice, False, None)
        return choice

    def choose(self, cond: Cond | None, node: ast.AST | None = None) -> bool:
        """Take the forced decision when replaying, else try True first and remember False.

        While a project module is imported, a branch on a value not understood (`cond` None: an
        installed package's version, a file's presence, a cache) is not forked: its first side is
        taken, as the first path would, so import-time code does not multiply the paths before the
        program proper runs (facts about the machine still fork; of a guard, `guess` takes the side
        that goes on). `node`: the branch, whose place the decision records (explore.py takes a side no
        path took before other alternatives)."""
        if cond is None and self.importing:
            return True
        i = len(self.trail)
        at = self.span_of(node)
        site = (at.path, at.line, at.col)
        if i < len(self.config.forced):
            choice = self.config.forced[i]
            self.trail.append(Decision(choice, False, site))
        else:
            choice = True
            self.trail.append(Decision(True, True, site))
        return choice

    # ----- checks and findings ------------------------------------------------------------------
    def require(self, cond: Cond, op: str, message: str, rule: Rule = SHAPE_MISMATCH,
                operands: tuple[str, ...] = (), dims: tuple[tuple[str, object], ...] = ()) -> None:
        outcome = self.config.decider.check(cond, self.pc)
        v = outcome.verdict
        self.sites_passed.add(self.span)
        self.shared.coverage.check(v is not Verdict.UNKNOWN, self.span, opaque_origin(cond, self.span))
        if v in (Verdict.HOLDS, Verdict.UNKNOWN):
            return
        if v is Verdict.UNDECIDED:
            self.emit(UNDECIDED, Severity.NOTE, UNDECIDED.message(op, message), operands, dims)
            return
        if v is Verdict.FAILS and self.expecting:
            raise UserException(SHAPE_ERROR)
        if v is Verdict.FAILS and self.unsure_sides and not self.expecting:
            side = self.unsure_sides[-1]  # None: an operand CPython may not evaluate, silently left (exprs.py)
            if side is not None:
                when = f"when {side}" if side else "on a side of a branch not decided"
                self.emit(POSSIBLE_SHAPE_MISMATCH, Severity.WARNING, POSSIBLE_SHAPE_MISMATCH.message(op, message, when),
                          operands, dims)
            raise SideEnd()
        if v is Verdict.FAILS and self.per_run and (self._holds_in_other_cases(cond) or self._blind_case(cond, dims)):
            v = Verdict.MAY_FAIL  # fails in this case of the inputs only (e.g. when a short last batch exists)
        if v is Verdict.FAILS:
            every = for_every(cond, self.pc)
            self.emit(rule, Severity.ERROR, rule.message(op, message, every), operands, dims, outcome.counterexample)
            if outcome.some_iterations and isinstance(cond, Pred):
                self.pc.append(cond)  # the iterations before the failing one run on: their checks come first
                return
            raise PathEnd()
        if self.expecting:  # the inputs that fail raise into a handler: follow the ones that pass
            if isinstance(cond, Pred):
                self.pc.append(cond)
            return
        if isinstance(cond, Pred) and (on_machine(cond) or implausible_only(self.config.decider, cond, self.pc)):
            self.pc.append(cond)  # fails on some machines only, or for implausible sizes only: not a finding
            return
        ce = outcome.counterexample
        when = fails_when(cond, ce)
        self.emit(POSSIBLE_SHAPE_MISMATCH, Severity.WARNING, POSSIBLE_SHAPE_MISMATCH.message(op, message, when),
                  operands, dims, ce)
        if isinstance(cond, Pred):
            self.pc.append(cond)

    def _blind_case(self, cond: Cond, dims: tuple[tuple[str, object], ...]) -> bool:
        """Whether `cond`, or the sizes it compares (`dims`: false whatever they are, as the pieces of
        that case `s + 1` and `s`), is about a case of the inputs whose other side the model did not
        follow (a `chunk` that may give fewer pieces): as far as is known it fails in this case only."""
        mine = set(symbols(cond)) if isinstance(cond, Pred) else set()
        mine.update(*(symbols(d) for _, d in dims))
        return any(symbols(p) & mine for p in self.blind_cases)

    def holds(self, cond: Cond) -> bool:
        """Whether `cond` holds on this path for every input (what the path assumes implies it)."""
        return cond is True or isinstance(cond, Pred) and self.config.decider.check(cond, self.pc).verdict is Verdict.HOLDS

    def _holds_in_other_cases(self, cond: Cond) -> bool:
        """Whether `cond` can hold on this path without its per-run fork conditions."""
        rest = [p for p in self.pc if not any(p is q for q in self.per_run)]
        return self.config.decider.check(cond, rest).verdict is not Verdict.FAILS

    def emit(self, rule: Rule, sev: Severity, message: str, operands: tuple[str, ...] = (),
             dims: tuple[tuple[str, object], ...] = (), counterexample: dict[str, int] | None = None) -> None:
        related: list[Related] = []
        for label, d in dims:
            for part in [d, *sorted(symbols(d), key=repr)]:  # a set: its order changes with the hash seed
                span, note = origin_of(part)
                if span is not None:
                    related.append(Related(span, f"{label} = {part!r}: {note or 'defined here'}", label,
                                           int(part) if isinstance(part, int) else None))
                    break
        trace = [Frame(call, f"{getattr(fn, 'name', 'function')}()") for call, fn, _ in self.frames]
        if "subcommand" in self.facts:  # the command line this path stands for (models/argparse_.py)
            name, where, kind = self.facts["subcommand"]
            trace.insert(0, Frame(where, f"{kind} {name!r}" if name is not None else f"no {kind}"))
        trace.append(Frame(self.span, message.split(":")[0]))
        where, message = self.relocate(self.span, message)  # installed packages are read-only
        d = Diagnostic(rule.id, sev, where, message, tuple(operands), tuple(related), tuple(trace),
                       dict(counterexample or {}), self.rel(self.config.entry),
                       sizes=tuple((label, int(v)) for label, v in dims if isinstance(v, int)))
        if sev is not Severity.NOTE:
            self.stopped_at_finding = True
        if self.machine.choices and sev is not Severity.NOTE:
            self.shared.machine.add(d, self.path_id, self.decisions(), self.machine, self.span)  # decided when all paths have run
        else:
            self.shared.add(d)

    def report_assert(self, node: ast.Assert) -> None:
        self.emit(ASSERT_FAILS, Severity.ERROR, ASSERT_FAILS.message("assert"))
        raise PathEnd()


class Shared:
    """What all paths of one entry point share: parsed files, findings, coverage counters."""

    def __init__(self, display_root: str, installed: Installed | None = None, editor: Editor = NO_EDITOR) -> None:
        self.display_root = display_root
        self.installed = installed  # installed packages read from source, handed in by the driver
        self.editor = editor  # an editor's state for this run (observe.py), handed in by the driver
        self.asts: dict[str, ast.Module | SyntaxError] = {}
        self.findings: dict[tuple, Diagnostic] = {}
        self.coverage = Coverage()  # tensor ops reached and checked, origins of unknowns, early path ends
        self.unmodeled: dict[str, int] = {}
        self.machine = MachineFindings()  # findings on paths that forked on facts about the machine
        self.budgets: dict[str, Span] = {}  # soft budgets reached, with where
        self.missing_imports: dict[str, Span] = {}  # imports that ended paths: no such module in the environment
        self.max_file_bytes = 2_000_000
        self.checkpoints: dict[tuple[int, str], list[Any]] = {}  # import prefixes already run (snapshot.py)
        self.chose_after_prefix: set[tuple[int, str]] = set()  # prefixes a path made a choice after (snapshot.py)
        self.steps_done = 0  # steps of the paths already finished (the entry point's step budget)
        self.shared_steps = 0  # steps of work this entry did for the others of its run too (snapshot.py `_run_shared`)
        self.project_imports: ProjectImports | None = None  # the run's kept project imports (driver-made)
        self.project_files: Callable[[], list[str]] | None = None  # the project's .py files, `exclude` applied (driver-made)
        self.shared_imports: dict[str, int] = {}  # kept project imports used: key digest -> their cold steps
        self.rel_paths: dict[str, str] = {}  # file path -> as findings show it (Interpreter.rel)
        self.inputs: dict[str, str] = {}  # data files of the project read (project_files.py): path -> hash
        self.command_steps: dict[str, int] = {}  # the same, per CLI command with the commands inside it
        self.command_allowance: dict[str, int] = {}  # each CLI command's part of the entry's steps (`enter_command`)
        self.command_parent: dict[str, str | None] = {}  # the command a nested one runs inside (click groups)
        self.commands_done: set[str] = set()  # commands no path will run again (explore.py)
        self.entry_steps = 0  # the entry point's step budget, all its commands together (explore.py)
        self.paths_pending = 0  # other paths the replayed choices of the running one still owe (explore.py)
        self.costly_loops: set[tuple[str, int, int, int]] = set()  # loops an earlier path followed at a cost (loops.py)
        self.unpaid = 0  # steps of the files parsed (`parse`) not yet charged to a path (`collect`)
        # files other scripts of the project write (project_writes.py): the reader a writer's analysis runs for,
        # each writer's saves, and the records found per file read
        self.writer_of: str | None = None
        self.writers_run: dict[str, dict[tuple[str, ...], list[tuple[str, Any]]]] = {}
        self.facts_of_writers: dict[str, list[tuple[str, Any]]] = {}

    def collect(self) -> int:
        """The steps of the files parsed since the last call (charged to the path that asks): a function
        of the files' sizes, never of whether a process-wide cache had them (`sources.parse`)."""
        out, self.unpaid = self.unpaid, 0
        return out

    def pot(self, command: "tuple[str, int] | None") -> int:
        """Steps already spent by finished paths of `command` and the commands inside it (None: by every
        finished path: a path that runs no command is bounded by the entry's steps)."""
        return self.steps_done if command is None else self.command_steps.get(command[0], 0)

    def charge(self, command: "tuple[str, int] | None", steps: int) -> None:
        self.steps_done += steps
        key = command[0] if command is not None else None
        while key is not None:
            self.command_steps[key] = self.command_steps.get(key, 0) + steps
            key = self.command_parent.get(key)

    def parse(self, path: str) -> "ast.Module | SyntaxError":
        if path not in self.asts:
            try:
                overlay = self.editor.text(path)  # an editor's unsaved buffer stands in for the file
                if overlay is None and os.path.getsize(path) > self.max_file_bytes:
                    self.budgets.setdefault(f"file size ({self.max_file_bytes} bytes; {path} skipped)",
                                            Span(os.path.basename(path), 1, 0))
                    self.asts[path] = ast.Module(body=[], type_ignores=[])
                    return self.asts[path]
                if overlay is not None:
                    source = overlay
                else:
                    with open(path, "rb") as f:
                        source = f.read()
                if is_notebook(path):  # its code cells as one module (diagnostics/notebook.py)
                    source = parse_notebook(source).python.encode("utf-8")
                self.unpaid += parse_steps(len(source))
                self.asts[path] = sources.parse(source, path)  # kept between runs in a server
            except SyntaxError as e:
                self.asts[path] = e
            except (OSError, ValueError) as e:
                self.asts[path] = SyntaxError(f"cannot read file: {e}")
            except (RecursionError, MemoryError):
                self.asts[path] = SyntaxError("too deeply nested to parse")
        return self.asts[path]

    def add(self, d: Diagnostic) -> None:
        self.findings.setdefault(d.key(), d)


class _At:
    """The context manager of `Interpreter.at`: the span pushed on entry, popped on exit."""

    __slots__ = ("spans", "span")

    def __init__(self, spans: list[Span], span: Span) -> None:
        self.spans, self.span = spans, span

    def __enter__(self) -> None:
        self.spans.append(self.span)

    def __exit__(self, *exc: object) -> None:
        self.spans.pop()
