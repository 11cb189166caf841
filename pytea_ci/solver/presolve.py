"""Questions too simple to start z3 for: conjunctions of comparisons that each bound one symbol
(`cuda_available != 0`, `n >= 2`, `k == 3`), decided exactly from the symbols' ranges.

Most programs branch on facts about the machine (`"cuda" if torch.cuda.is_available() else "cpu"`):
each such branch asks two questions of this form, and answering them here keeps a small program's
check free of z3's import and of a fresh z3 context per question. Anything else (two symbols in one
comparison, products, divisions, disjunctions) is left to z3 (`None`). The answer is a status only:
the caller still asks z3 when it needs a model (a counterexample shown to the user), so messages
stay z3's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pytea_ci.shapes.dim import Lin, Sym
from pytea_ci.shapes.pred import Cond, Pred


@dataclass
class _Domain:
    """The integers a symbol may still take: lo..hi (None: unbounded), minus `excluded`, or only
    `values` when the symbol lists them."""

    sym: Sym
    lo: int | None
    hi: int | None
    excluded: set[int] = field(default_factory=set)

    def bound(self, op: str, value: int) -> None:
        """Intersect with `s op value`, op in eq ne le ge (`any`: no bound)."""
        if op == "ne":
            self.excluded.add(value)
            return
        if op in ("eq", "le"):
            self.hi = value if self.hi is None else min(self.hi, value)
        if op in ("eq", "ge"):
            self.lo = value if self.lo is None else max(self.lo, value)

    def empty(self) -> bool:
        if self.sym.values:
            return not any(self._admits(v) for v in self.sym.values)
        if self.lo is None or self.hi is None:
            return False  # unbounded on a side: infinitely many integers, finitely many excluded
        inside = {v for v in self.excluded if self.lo <= v <= self.hi}
        return self.hi - self.lo + 1 <= len(inside)

    def _admits(self, v: int) -> bool:
        return ((self.lo is None or v >= self.lo) and (self.hi is None or v <= self.hi)
                and v not in self.excluded)


def _one_symbol(a: object, b: object) -> tuple[Sym, int, int] | None:
    """`a - b` as `c * s + k` for one symbol s, else None."""
    const = 0
    terms: dict[object, int] = {}
    for side, sign in ((a, 1), (b, -1)):
        if isinstance(side, bool):
            return None
        if isinstance(side, int):
            const += sign * int(side)
        elif isinstance(side, Sym):
            terms[side] = terms.get(side, 0) + sign
        elif isinstance(side, Lin):
            const += sign * side.const
            for atom, c in side.terms:
                terms[atom] = terms.get(atom, 0) + sign * c
        else:
            return None
    nonzero = [(t, c) for t, c in terms.items() if c]
    if len(nonzero) != 1:
        return None
    only, coeff = nonzero[0]
    return (only, coeff, const) if isinstance(only, Sym) else None


def _atoms(p: Pred, negated: bool, out: list[tuple[Sym, str, int]]) -> bool:
    """Append `(s, op, value)` bounds (op in eq ne le ge any) equivalent to `p` (or `not p`); False when
    `p` is outside the fragment."""
    if p.op == "not":
        inner = p.args[0]
        return isinstance(inner, Pred) and _atoms(inner, not negated, out)
    if p.op == "and" and not negated:
        return all(isinstance(a, Pred) and _atoms(a, False, out) for a in p.args)
    if p.op not in ("eq", "ne", "lt", "le"):
        return False
    found = _one_symbol(*p.args)
    if found is None:
        return False
    s, c, k = found  # c * s + k  op  0
    op = {"eq": "ne", "ne": "eq", "lt": "ge0", "le": "gt0"}[p.op] if negated else p.op
    if op in ("eq", "ne"):
        if k % c == 0:
            out.append((s, op, -k // c))
        elif op == "eq":
            out.append((s, "le", 0))  # c * s == -k has no integer solution: an empty range
            out.append((s, "ge", 1))
        else:
            out.append((s, "any", 0))  # always true, but z3 is given the symbol's own range
        return True
    # c * s + k < 0 is c * s <= -k - 1; c * s + k <= 0 is c * s <= -k; the negations: >= -k, >= -k + 1
    upper = {"lt": -k - 1, "le": -k}.get(op)
    lower = {"ge0": -k, "gt0": -k + 1}.get(op)
    if upper is not None:
        out.append((s, "le", upper // c) if c > 0 else (s, "ge", -(upper // -c)))
    elif lower is not None:
        out.append((s, "ge", -(-lower // c)) if c > 0 else (s, "le", lower // c))
    return True


def presolve(constraints: list[Cond]) -> str | None:
    """'sat' or 'unsat' for a conjunction of one-symbol comparisons (with each symbol's own bounds
    and listed values, as z3 is given them), else None."""
    bounds: list[tuple[Sym, str, int]] = []
    for c in constraints:
        if c is True:
            continue
        if c is False:
            return "unsat"
        if not isinstance(c, Pred) or not _atoms(c, False, bounds):
            return None
    domains: dict[str, _Domain] = {}
    for s, op, value in bounds:
        d = domains.get(s.name)
        if d is None:
            d = domains[s.name] = _Domain(s, s.lo, s.hi)
        elif (d.sym.lo, d.sym.hi, d.sym.values) != (s.lo, s.hi, s.values):
            return None  # one name, two ranges: z3 is given the first it meets; leave it to z3
        d.bound(op, value)
    return "unsat" if any(d.empty() for d in domains.values()) else "sat"
