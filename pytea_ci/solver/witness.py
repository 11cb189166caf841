"""Checks that fail, for every input, at some iteration (issue 20: "for all inputs, exists an
iteration").

An iteration symbol stands for every position a loop visits in every run (a `range` index, the index
a DataLoader asks its dataset for when it visits every row): its ends are visited, and so is every
residue of `idx % n`. A check over inputs and iteration symbols that fails for some values is an error
when one of those visited positions fails it whatever the inputs are. The positions are tried as
*witnesses*, terms of the inputs substituted for the iteration term: its bounds for a symbol, `0` and
`n - 1` for `idx % n`. The question is then one without iteration symbols: is there an input of the
path (its conditions that do not involve the iteration) for which the witness is not a position of the
path or does not fail? No: the check fails on every run that reaches it.
"""

from __future__ import annotations

from collections.abc import Callable

from pytea_ci.shapes.dim import ITERATION, Dim, Lin, Op, Sym, Term, add, dmax, dmin, floordiv, mod, mul, symbols
from pytea_ci.shapes.pred import Cond, Pred, and_, eq, le, lt, ne, not_, or_

Subst = dict[Term, Dim]
_OPS: dict[str, Callable[[Dim, Dim], Dim]] = {"floordiv": floordiv, "mod": mod, "min": dmin, "max": dmax}
MAX_WITNESSES = 8


def subst_dim(d: Dim, s: Subst) -> Dim:
    if isinstance(d, int):
        return d
    if d in s:
        return s[d]
    if isinstance(d, Lin):
        out: Dim = d.const
        for atom, c in d.terms:
            out = add(out, mul(c, subst_dim(atom, s)))
        return out
    if isinstance(d, Op):
        args = [subst_dim(a, s) for a in d.args]
        if d.op == "mul":
            acc: Dim = 1
            for a in args:
                acc = mul(acc, a)
            return acc
        return _OPS[d.op](args[0], args[1])
    return d


def subst_cond(p: Cond, s: Subst) -> Cond:
    if isinstance(p, bool):
        return p
    if p.op in ("and", "or"):
        parts = [subst_cond(a, s) for a in p.args]  # type: ignore[arg-type]
        return and_(*parts) if p.op == "and" else or_(*parts)
    if p.op == "not":
        return not_(subst_cond(p.args[0], s))  # type: ignore[arg-type]
    a, b = (subst_dim(x, s) for x in p.args)  # type: ignore[arg-type]
    return {"eq": eq, "ne": ne, "lt": lt, "le": le}[p.op](a, b)


def _iteration_terms(p: object, out: dict[Term, list[tuple[Dim, Cond]]]) -> None:
    """Iteration terms of `p` and the positions to try for each, with what makes a position valid."""
    if isinstance(p, Pred):
        for a in p.args:
            _iteration_terms(a, out)
    elif isinstance(p, Sym) and p.kind == ITERATION:
        out.setdefault(p, [(e, True) for e in (p.lo, p.hi) if e is not None])
    elif isinstance(p, Op) and p.op == "mod" and isinstance(p.args[0], Sym) and p.args[0].kind == ITERATION \
            and p.args[0].lo == 0 and p.args[0].hi is None and not _has_iteration(p.args[1]):
        n = p.args[1]  # idx % n with idx >= 0 unbounded: every residue 0 .. n - 1 (when n >= 1)
        out.setdefault(p, [(0, le(1, n)), (add(n, -1), le(1, n))])
    elif isinstance(p, (Lin, Op)):
        for a in (p.args if isinstance(p, Op) else [atom for atom, _ in p.terms]):
            _iteration_terms(a, out)


def _has_iteration(d: object) -> bool:
    return any(s.kind == ITERATION for s in symbols(d))


def bounds_of(s: Sym, v: Dim) -> Cond:
    """`v` is within the bounds and values of the symbol `s`."""
    parts: list[Cond] = []
    if s.lo is not None:
        parts.append(le(s.lo, v))
    if s.hi is not None:
        parts.append(le(v, s.hi))
    if s.values:
        parts.append(or_(*[eq(v, c) for c in s.values]))
    return and_(*parts)


def witness_queries(cond: Cond, pc: list[Cond]) -> list[list[Cond]]:
    """For each witness (one position per iteration term of `cond`), a query without iteration
    symbols that is unsatisfiable when `cond` fails at that position on every input of the path `pc`
    (the conjuncts of the path that involve no iteration are the inputs' conditions; the others must
    hold at the witness)."""
    terms: dict[Term, list[tuple[Dim, Cond]]] = {}
    _iteration_terms(cond, terms)
    for c in pc:
        _iteration_terms(c, terms)
    if not terms or len(terms) > 2 or any(isinstance(t, Op) and t.args[0] in terms for t in terms):
        return []  # none, too many, or a symbol both alone and under `%` (one witness would not fit both)
    choices: list[Subst] = [{}]
    valid: list[Cond] = [True]
    for term, positions in terms.items():
        choices, valid = ([{**ch, term: v} for ch in choices for v, _ in positions],
                          [and_(ok, vo) for ok in valid for _, vo in positions])
    free = [c for c in pc if not _has_iteration(c)]
    tied = [c for c in pc if _has_iteration(c)]
    out: list[list[Cond]] = []
    for s, ok in list(zip(choices, valid))[:MAX_WITNESSES]:
        in_bounds = [bounds_of(t, v) for t, v in s.items() if isinstance(t, Sym)]
        at = and_(ok, *in_bounds, *(subst_cond(c, s) for c in tied))
        failing = not_(subst_cond(cond, s))
        if _has_iteration(at) or _has_iteration(failing):
            continue  # an iteration term not substituted (a form not handled)
        out.append([*free, or_(not_(at), not_(failing))])
    return out
