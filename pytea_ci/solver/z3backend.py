"""Translation of dims and predicates to z3 and the raw satisfiability query.

z3 is imported lazily, on the first symbolic query, so concrete-only runs never pay for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pytea_ci.shapes.dim import Lin, Op, Sym
from pytea_ci.shapes.pred import Pred

_z3: Any = None


def z3mod() -> Any:
    global _z3
    if _z3 is None:
        import z3

        _z3 = z3
    return _z3


class Translator:
    """Maps our terms onto z3 terms, one z3 constant per symbol name, in a z3 context of its own: z3
    answers a query near its resource limit differently depending on what earlier queries left in a
    shared context (and on the time its tactics take), so each query starts from a fresh one."""

    def __init__(self) -> None:
        self.z3 = z3mod()
        self.ctx = self.z3.Context()
        self.vars: dict[str, Any] = {}
        self.syms: dict[str, Sym] = {}
        self._terms: dict[int, tuple[object, Any]] = {}  # id -> (term, z3 term): shared sub-terms once

    def var(self, s: Sym) -> Any:
        if s.name not in self.vars:
            self.vars[s.name] = self.z3.Int(s.name, self.ctx)
            self.syms[s.name] = s
        return self.vars[s.name]

    def bounds(self) -> list[Any]:
        out = []
        for name, s in self.syms.items():
            v = self.vars[name]
            if s.lo is not None:
                out.append(v >= s.lo)
            if s.hi is not None:
                out.append(v <= s.hi)
            if s.values:
                out.append(self.z3.Or(*[v == c for c in s.values]))
        return out

    def dim(self, d: object) -> Any:
        if isinstance(d, (Lin, Op)):
            done = self._terms.get(id(d))
            if done is None:
                done = self._terms[id(d)] = (d, self._dim(d))
            return done[1]
        return self._dim(d)

    def _dim(self, d: object) -> Any:
        z3 = self.z3
        if isinstance(d, bool):
            return z3.IntVal(int(d), self.ctx)
        if isinstance(d, int):
            return z3.IntVal(d, self.ctx)
        if isinstance(d, Sym):
            return self.var(d)
        if isinstance(d, Lin):
            acc = z3.IntVal(d.const, self.ctx)
            for atom, c in d.terms:
                acc = acc + c * self.dim(atom)
            return acc
        if isinstance(d, Op):
            args = [self.dim(a) for a in d.args]
            if d.op == "mul":
                acc = args[0]
                for a in args[1:]:
                    acc = acc * a
                return acc
            if d.op == "floordiv":
                return args[0] / args[1]
            if d.op == "mod":
                return args[0] % args[1]
            if d.op == "min":
                return z3.If(args[0] <= args[1], args[0], args[1])
            if d.op == "max":
                return z3.If(args[0] >= args[1], args[0], args[1])
        raise TypeError(f"cannot translate {d!r}")

    def pred(self, p: object) -> Any:
        z3 = self.z3
        if isinstance(p, bool):
            return z3.BoolVal(p, self.ctx)
        assert isinstance(p, Pred)
        if p.op in ("and", "or", "not"):
            parts = [self.pred(a) for a in p.args]
            return {"and": z3.And, "or": z3.Or}[p.op](*parts) if p.op != "not" else z3.Not(parts[0])
        a, b = (self.dim(x) for x in p.args)
        return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b}[p.op]


@dataclass
class Answer:
    """One query's answer: its status, a model when sat, and whether it stopped on the wall-clock
    safety net (the only machine-dependent way to stop)."""

    status: str  # 'sat' | 'unsat' | 'unknown'
    model: dict[str, int]
    wall_clock: bool = False


def check_sat(constraints: list[object], rlimit: int, timeout_ms: int) -> Answer:
    """Satisfiability of the conjunction (symbol bounds included) within `rlimit` resource units
    (deterministic) and `timeout_ms` (the safety net, far above what `rlimit` allows)."""
    t = Translator()
    z3 = t.z3
    s = z3.Solver(ctx=t.ctx)
    s.set("rlimit", max(1, rlimit))
    s.set("timeout", max(1, timeout_ms))
    for c in constraints:
        s.add(t.pred(c))
    s.add(*t.bounds())
    r = s.check()
    if r == z3.sat:
        m = s.model()
        model = {}
        for name, v in t.vars.items():
            val = m.eval(v, model_completion=True)
            if z3.is_int_value(val):
                model[name] = val.as_long()
        return Answer("sat", model)
    if r == z3.unsat:
        return Answer("unsat", {})
    return Answer("unknown", {}, s.reason_unknown() == "timeout")

