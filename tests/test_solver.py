"""Verdicts of the decider and its cache (counting z3 calls proves a hit skipped the solver)."""

from __future__ import annotations

from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import INPUT, ITERATION, UNKNOWN, Sym
from pytea_ci.solver import Decider, Verdict


def test_concrete_checks_never_call_z3() -> None:
    d = Decider()
    assert d.check(P.eq(3, 3), []).verdict is Verdict.HOLDS
    assert d.check(P.eq(3, 4), []).verdict is Verdict.FAILS
    assert d.stats.z3_calls == 0 and d.stats.concrete == 2


def test_symbolic_verdicts() -> None:
    d = Decider()
    n = Sym("n", INPUT, lo=1)
    assert d.check(P.le(0, n), []).verdict is Verdict.HOLDS
    assert d.check(P.eq(n + 1, n), []).verdict is Verdict.FAILS
    out = d.check(P.eq(n % 64, 0), [])
    assert out.verdict is Verdict.MAY_FAIL and out.counterexample["n"] % 64 != 0
    assert d.check(P.eq(n % 64, 0), [P.eq(n, 128)]).verdict is Verdict.HOLDS


def test_iteration_symbols_fail_every_run() -> None:
    i = Sym("i", ITERATION, lo=0, hi=9)
    assert Decider().check(P.lt(i, 9), []).verdict is Verdict.FAILS


def test_unknown_symbols_never_report() -> None:
    u = Sym("u", UNKNOWN)
    assert Decider().check(P.eq(u, 3), []).verdict is Verdict.UNKNOWN


def test_cache_shares_structurally_equal_queries() -> None:
    d = Decider()
    a, b = Sym("a", INPUT, lo=1), Sym("b", INPUT, lo=1)
    first = d.check(P.eq(a % 8, 0), [])
    calls = d.stats.z3_calls
    second = d.check(P.eq(b % 8, 0), [])  # same question, other names
    assert d.stats.z3_calls == calls and d.stats.cache_hits >= 1
    assert first.verdict is second.verdict is Verdict.MAY_FAIL
    assert "b" in second.counterexample


def test_a_monomial_modulo_one_of_its_factors_is_zero() -> None:
    """`view(n * c, -1)` of [n, c, l, 48]: (48*n*c*l) % (n*c) folds to 0 without the solver (z3 times
    out on such nonlinear modulos); a factor that is not in the product stays a question."""
    from pytea_ci.shapes.dim import mul

    n, c, t, h = (Sym(x, INPUT, 1) for x in "ncth")
    numel = mul(48, mul(mul(n, c), t))
    assert numel % mul(n, c) == 0
    assert numel % mul(16, n) == 0
    assert numel % mul(n, h) != 0 and numel % mul(96, n) != 0


def test_zero_divided_by_a_size_is_zero() -> None:
    """`avg_pool2d(x, x.size(2))` of [N, C, H, W]: (H - H) // H + 1 is 1 without the solver, so a
    squeeze-and-excitation block's weights are [N, C, 1, W'] and broadcast without a `max`; every such
    block of a network nested the last one's sizes twice (SENet18 alone: 60 s, issue 32 item 6)."""
    h = Sym("h", INPUT, 1)
    assert (h - h) // h + 1 == 1 and 0 // h == 0 and (h - h) % h == 0
    assert isinstance(h // h, int) and not isinstance((h - 1) // h, int)


def test_the_conjuncts_a_question_needs_are_found_without_comparing_them(monkeypatch) -> None:
    """`_relevant` keeps the conjuncts connected to the question through shared symbols, in the order of
    its passes, and never compares conjuncts for equality: a long path condition (a vocabulary loop's
    thousands of conjuncts) made each question quadratic in deep comparisons (issue 31)."""
    from pytea_ci.solver import decide

    n = [Sym(f"n{i}", INPUT, 0, None) for i in range(6)]
    pc = [P.lt(n[4], n[5]), P.le(n[0], n[1]), P.lt(n[2], 9), P.le(n[1], n[4]), P.lt(n[3], 2), P.lt(n[0], 7)]
    calls = []
    monkeypatch.setattr(P.Pred, "__eq__", lambda a, b: calls.append(1) or a is b)
    got = decide._relevant(P.lt(n[0], 5), pc)
    assert [id(c) for c in got] == [id(pc[i]) for i in (1, 3, 5, 0)]
    assert not calls
