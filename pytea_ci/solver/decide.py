"""Verdicts for checks and branch conditions (DESIGN §3).

Concrete predicates are decided without z3. Symbolic ones keep only the path-condition conjuncts
that share symbols with the question (independent constraints cannot change the answer), then
ask z3 through a cache keyed by the canonical query; questions that only bound single symbols are
answered without z3 where no model is needed (presolve.py).
"""

from __future__ import annotations

import contextlib
import enum
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from pytea_ci.diagnostics.budgets import SOLVER, WALL_CLOCK, rlimit_for
from pytea_ci.shapes.dim import ITERATION, UNKNOWN, Lin, Op, Sym, symbol_names, symbols
from pytea_ci.shapes.pred import Cond, Pred, and_, not_, understood
from pytea_ci.solver.canon import query_key
from pytea_ci.solver.presolve import presolve
from pytea_ci.solver.witness import witness_queries


class Verdict(enum.Enum):
    HOLDS = "holds"
    FAILS = "fails"  # fails on every run reaching it: an error
    MAY_FAIL = "may-fail"  # fails for some allowed inputs: a warning
    UNDECIDED = "undecided"  # solver budget exhausted
    UNKNOWN = "unknown"  # depends on something the analyzer did not understand


Cached = tuple[str, dict[str, int], int]  # status, model (renamed), z3 resource units it cost
# What a query is charged: all of its `rlimit` when z3 gives up, else a fixed part plus a part per node
# of its terms (building a query through z3's Python API and reading the model back dominate on large
# terms: a 400-node condition takes ~40 ms). Charges are computed from the query, never read from z3's
# resource counter, which moves by a few units from run to run and would make budgets drift apart.
QUERY_UNITS = 25_000
UNITS_PER_NODE = 400


class QueryCache(Protocol):
    def get(self, key: str) -> "Cached | None": ...

    def put(self, key: str, value: "Cached") -> None: ...


class MemoryCache:
    def __init__(self) -> None:
        self.data: dict[str, Cached] = {}

    def get(self, key: str) -> "Cached | None":
        return self.data.get(key)

    def put(self, key: str, value: "Cached") -> None:
        self.data[key] = value


@dataclass
class Spending:
    """The solver budget of one entry point or library target: z3 resource units left (charged
    for cache hits too, with what the answer cost when it was computed, so a warm run decides
    exactly what a cold one does) and the wall-clock deadline of the safety net."""

    left: int
    deadline: float | None = None
    reached: list[str] = field(default_factory=list)  # budget names reached, in order, once each

    def hit(self, name: str) -> None:
        if name not in self.reached:
            self.reached.append(name)


@dataclass
class Stats:
    concrete: int = 0
    z3_calls: int = 0
    cache_hits: int = 0
    undecided: int = 0
    unknown: int = 0
    z3_seconds: float = 0.0


@dataclass
class Outcome:
    verdict: Verdict
    counterexample: dict[str, int] = field(default_factory=dict)
    # FAILS for some values of iteration symbols only (one item of every epoch): the iterations before
    # it ran, so what follows is still reached with the check holding
    some_iterations: bool = False


def query_size(conds: list[Cond]) -> int:
    """Nodes of the conditions (predicates, operations, symbols, constants), shared subterms once."""
    seen: set[int] = set()
    todo: list[object] = list(conds)
    n = 0
    while todo:
        x = todo.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        n += 1
        if isinstance(x, Pred):
            todo.extend(x.args)
        elif isinstance(x, Op):
            todo.extend(x.args)
        elif isinstance(x, Lin):
            todo.extend(atom for atom, _ in x.terms)
    return n


def _relevant(cond: Cond, pc: list[Cond]) -> list[Cond]:
    """Path-condition conjuncts connected to `cond` through shared symbols."""
    wanted = set(symbol_names(cond))
    pending = [(p, symbol_names(p)) for p in pc if not isinstance(p, bool) and understood(p)]  # nothing learnt
    # from a conjunct not understood (dropping it never makes an answer more definite)
    chosen: list[Cond] = []
    changed = True
    while changed:  # passes in order until none connects more (`list.remove` compared conjuncts deeply: a
        changed = False  # long path condition made each question quadratic)
        rest = []
        for item in pending:
            if item[1] & wanted:
                chosen.append(item[0])
                wanted |= item[1]
                changed = True
            else:
                rest.append(item)
        pending = rest
    return chosen


def _nonzero_divisors(constraints: list[Cond]) -> list[Cond]:
    """`a // b` and `a % b` in a question mean b != 0: a zero divisor raised ZeroDivisionError in the
    program before the check was reached (z3 would otherwise pick any value for a division by 0)."""
    from pytea_ci.shapes.dim import Lin, Op
    from pytea_ci.shapes.pred import Pred, ne

    out: list[Cond] = []
    stack: list[object] = list(constraints)
    seen: set[int] = set()  # shared sub-terms walked once
    while stack:
        x = stack.pop()
        if isinstance(x, (Op, Lin)):
            if id(x) in seen:
                continue
            seen.add(id(x))
        if isinstance(x, Op) and x.op in ("floordiv", "mod") and not isinstance(x.args[1], int):
            c = ne(x.args[1], 0)
            if c not in out and c is not True:
                out.append(c)
        if isinstance(x, (Op, Pred)):
            stack.extend(x.args)
        elif isinstance(x, Lin):
            stack.extend(a for a, _ in x.terms)
    return out


def _split_unknown(cond: Cond) -> "tuple[Cond, Cond] | None":
    """(the conjuncts free of symbols not understood, the others) of a conjunction that has both."""
    if not isinstance(cond, Pred) or cond.op != "and":
        return None
    known: list[Cond] = []
    unknown: list[Cond] = []
    for c in cond.args:
        if isinstance(c, Pred):
            (unknown if any(s.kind == UNKNOWN for s in symbols(c)) else known).append(c)
    if not known or not unknown:
        return None
    return and_(*known), and_(*unknown)


class Decider:
    """Answers 'can this fail / can this hold' questions; counts how each was answered."""

    def __init__(self, timeout_ms: int = 2000, cache: QueryCache | None = None, salt: str = "") -> None:
        self.timeout_ms = timeout_ms  # `solver-timeout`: mapped to z3 resource units, never used as time
        self.rlimit = rlimit_for(timeout_ms)
        self.wall_ms = max(300_000, 10 * timeout_ms)  # the per-query safety net: far above what rlimit allows, even on a loaded machine
        self.cache: QueryCache = cache if cache is not None else MemoryCache()
        self.salt = salt
        self.stats = Stats()
        self.spending: Spending | None = None

    @contextlib.contextmanager
    def budgeted(self, rlimit: int, deadline: float | None = None) -> Iterator[Spending]:
        """Charge the questions asked inside to one budget of `rlimit` resource units."""
        outer, self.spending = self.spending, Spending(rlimit, deadline)
        try:
            yield self.spending
        finally:
            self.spending = outer

    def sat(self, constraints: list[Cond], need_model: bool = True) -> tuple[str, dict[str, int]]:
        """z3's status for the conjunction and, when sat, its model; `need_model=False` lets a question
        simple enough for `presolve` be answered without z3 (charged as z3's answer would be)."""
        if any(c is False for c in constraints):
            return "unsat", {}
        constraints = [c for c in constraints if c is not True and understood(c)]
        constraints += _nonzero_divisors(constraints)
        if not constraints:
            return "sat", {}
        key, names = query_key(list(constraints), self.salt + f"|r{self.rlimit}")
        hit = self.cache.get(key)
        back = {v: k for k, v in names.items()}
        sp = self.spending
        if hit is not None and (sp is None or hit[2] <= sp.left):
            self.stats.cache_hits += 1
            status, model, cost = hit
            if sp is not None:
                sp.left -= cost
            return status, {back.get(k, k): v for k, v in model.items()}
        rlimit, timeout_ms = self.rlimit, self.wall_ms
        if sp is not None:
            rlimit = min(rlimit, sp.left)
            if sp.deadline is not None:
                timeout_ms = min(timeout_ms, int((sp.deadline - time.monotonic()) * 1000))
            if rlimit <= 0 or timeout_ms <= 0:
                sp.hit(SOLVER if rlimit <= 0 else WALL_CLOCK)
                return "unknown", {}
        cost = QUERY_UNITS + UNITS_PER_NODE * query_size(constraints)
        quick = presolve(constraints) if cost <= rlimit else None  # within its budget z3 would decide it too
        if quick == "unsat" or (quick == "sat" and not need_model):
            self.stats.concrete += 1
            if sp is not None:
                sp.left -= cost  # what z3's answer costs
            if quick == "unsat":  # z3's answer exactly; a sat one lacks z3's model and is not cached
                self.cache.put(key, (quick, {}, cost))
            return quick, {}
        from pytea_ci.solver.z3backend import check_sat

        t0 = time.perf_counter()
        self.stats.z3_calls += 1
        answer = check_sat(list(constraints), rlimit, timeout_ms)
        self.stats.z3_seconds += time.perf_counter() - t0
        if answer.status == "unknown":
            cost = rlimit
        if sp is not None:
            sp.left -= cost
            if answer.wall_clock:
                sp.hit(WALL_CLOCK)
        if answer.status != "unknown":
            self.cache.put(key, (answer.status, {names.get(k, k): v for k, v in answer.model.items()}, cost))
        return answer.status, answer.model

    def check(self, cond: Cond, pc: list[Cond]) -> Outcome:
        if isinstance(cond, bool):
            self.stats.concrete += 1
            return Outcome(Verdict.HOLDS if cond else Verdict.FAILS)
        if not understood(cond):  # a size check over a value a model did not understand
            self.stats.unknown += 1
            return Outcome(Verdict.UNKNOWN)
        syms = symbols(cond)
        if any(s.kind == UNKNOWN for s in syms):
            parts = _split_unknown(cond)
            if parts is not None:
                return self._check_split(*parts, pc)
            return self._check_unknown(cond, _relevant(cond, pc))
        ctx = _relevant(cond, pc)
        fail_status, model = self.sat(ctx + [not_(cond)])
        if fail_status == "unsat":
            return Outcome(Verdict.HOLDS)
        hold_status, _ = self.sat(ctx + [cond], need_model=False)
        if fail_status == "unknown" or hold_status == "unknown":
            self.stats.undecided += 1
            return Outcome(Verdict.UNDECIDED)
        if hold_status == "unsat":
            return Outcome(Verdict.FAILS, model)
        involved = syms | {s for c in ctx for s in symbols(c)}
        if all(s.kind == ITERATION for s in involved if isinstance(s, Sym)):
            return Outcome(Verdict.FAILS, model, some_iterations=True)
        if any(s.kind == ITERATION for s in involved) and self._fails_at_some_iteration(cond, ctx):
            return Outcome(Verdict.FAILS, model, some_iterations=True)
        return Outcome(Verdict.MAY_FAIL, model)

    def _fails_at_some_iteration(self, cond: Cond, ctx: list[Cond]) -> bool:
        """For every input, some position every run visits fails `cond` (solver/witness.py)."""
        return any(self.sat(q, need_model=False)[0] == "unsat" for q in witness_queries(cond, ctx))

    def _check_unknown(self, cond: Cond, ctx: list[Cond]) -> Outcome:
        """A symbol not understood: the check is still decided when it fails for every value of it
        (`28 * s // s == 32`) or holds for every value; one that fails only for some values says nothing."""
        hold_status, _ = self.sat(ctx + [cond], need_model=False)
        if hold_status == "unsat":
            _, model = self.sat(ctx + [not_(cond)])
            return Outcome(Verdict.FAILS, model)
        fail_status, _ = self.sat(ctx + [not_(cond)], need_model=False)
        if fail_status == "unsat":
            return Outcome(Verdict.HOLDS)
        self.stats.unknown += 1
        return Outcome(Verdict.UNKNOWN)

    def _check_split(self, known: Cond, unknown: Cond, pc: list[Cond]) -> Outcome:
        """A conjunction (one conjunct per dim, usually) of which only some conjuncts need a symbol not
        understood: the others are decided as any check (`[B?, T-1]` vs `[B?, T-2]` fails on dim 1
        whatever B is); the verdict is UNKNOWN only when they hold and the rest cannot be decided."""
        first = self.check(known, pc)
        if first.verdict in (Verdict.FAILS, Verdict.UNDECIDED):
            return first
        rest = self._check_unknown(unknown, _relevant(unknown, pc))
        if rest.verdict is Verdict.FAILS:
            return rest
        if first.verdict is Verdict.MAY_FAIL:
            return first
        return rest

    def branch(self, cond: Cond, pc: list[Cond]) -> tuple[bool, bool]:
        """(can be true, can be false) under the path condition; undecided counts as possible."""
        if isinstance(cond, bool):
            self.stats.concrete += 1
            return cond, not cond
        if not understood(cond):
            return True, True
        ctx = _relevant(cond, pc)
        t, _ = self.sat(ctx + [cond], need_model=False)
        f, _ = self.sat(ctx + [not_(cond)], need_model=False)
        return t != "unsat", f != "unsat"
