"""The presolver answers exactly what z3 answers on the questions it takes (one-symbol comparisons),
leaves every other question to z3, and the decider charges its answers as z3's: a branch on
`torch.cuda.is_available()` costs no z3 call and the same solver budget."""

from __future__ import annotations

import random

from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import INPUT, Sym
from pytea_ci.solver import Decider
from pytea_ci.solver.decide import QUERY_UNITS, UNITS_PER_NODE, query_size
from pytea_ci.solver.presolve import presolve
from pytea_ci.solver.z3backend import check_sat

OPS = (P.eq, P.ne, P.lt, P.le, P.gt, P.ge)


def _symbols(rng: random.Random) -> list[Sym]:
    out = []
    for name in ("a", "b"):
        lo = rng.choice([None, 0, 1, 2, -3])
        hi = rng.choice([None, 1, 3, 7]) if rng.random() < 0.6 else None
        values = tuple(rng.sample(range(-2, 9), rng.randint(1, 3))) if rng.random() < 0.2 else ()
        out.append(Sym(name, INPUT, lo=lo, hi=hi, values=values))
    return out


def _comparison(rng: random.Random, syms: list[Sym]) -> P.Cond:
    s = rng.choice(syms)
    side = s * rng.choice([1, 2, -1, -3]) + rng.randint(-4, 4)
    k = rng.randint(-5, 9)
    c = rng.choice(OPS)(side, k) if rng.random() < 0.5 else rng.choice(OPS)(k, side)
    return P.not_(c) if rng.random() < 0.2 and not isinstance(c, bool) else c


def test_agrees_with_z3_on_one_symbol_comparisons() -> None:
    rng = random.Random(7)
    decided = 0
    for _ in range(600):
        syms = _symbols(rng)
        conj = [_comparison(rng, syms) for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.2:
            conj = [P.and_(*conj)]
        quick = presolve(conj)
        assert quick is not None, conj
        decided += 1
        assert quick == check_sat(conj, 10**8, 60_000).status, conj
    assert decided == 600


def test_leaves_other_questions_to_z3() -> None:
    a, b = Sym("a", INPUT, lo=1), Sym("b", INPUT, lo=1)
    assert presolve([P.eq(a, b)]) is None  # two symbols in one comparison
    assert presolve([P.eq(a % 4, 0)]) is None  # an operation
    assert presolve([P.or_(P.eq(a, 1), P.eq(a, 2))]) is None  # a disjunction
    assert presolve([P.eq(a, 3), P.eq(Sym("a", INPUT, lo=5), 3)]) is None  # one name, two ranges


def test_a_machine_branch_costs_no_z3_call_and_the_same_budget() -> None:
    cuda = Sym("cuda_available", INPUT, lo=0, hi=1)
    cond = P.ne(cuda, 0)
    d = Decider()
    with d.budgeted(10**7) as spent:
        assert d.branch(cond, []) == (True, True)
        assert d.branch(cond, [cond]) == (True, False)
    assert d.stats.z3_calls == 0
    charged = sum(QUERY_UNITS + UNITS_PER_NODE * query_size(q)
                  for q in ([cond], [P.not_(cond)], [cond, cond], [cond, P.not_(cond)]))
    assert spent.left == 10**7 - charged


def test_a_counterexample_still_comes_from_z3() -> None:
    n = Sym("n", INPUT, lo=1)
    d = Decider()
    out = d.check(P.ge(n, 2), [])
    assert out.counterexample == {"n": 1} and d.stats.z3_calls == 1  # the failing side's model
