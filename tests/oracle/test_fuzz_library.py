"""Differential fuzzing of library mode against torch (CI-sized; `benchmarks/fuzz_library.py` runs
2,000 modules): generated modules never get a finding torch contradicts, modules torch rejects for every
sampled non-degenerate input are found, and inputs drawn from (or violating) the inferred contracts run
(or raise) under torch with the predicted output shape."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from tests.oracle.fuzz_library import compare, make_module, samples  # noqa: E402

SEEDS = range(12)


def test_generated_modules_agree_with_torch() -> None:
    outcomes = [compare(seed) for seed in SEEDS]
    false = [(o.seed, o.findings, o.accepted_by_torch) for o in outcomes if o.verdict == "false-finding"]
    assert not false, false
    rejected = [o for o in outcomes if o.rejected]
    assert rejected and all(o.findings for o in rejected), [(o.seed, o.status) for o in rejected if not o.findings]
    bad = [(o.seed, o.drawn_bad, o.violating_bad) for o in outcomes if o.drawn_bad or o.violating_bad]
    assert not bad, bad
    assert sum(o.drawn for o in outcomes) > 0 and sum(o.violating for o in outcomes) > 0


def test_generated_modules_run_their_intended_input_and_samples_are_non_degenerate() -> None:
    import random

    from tests.oracle.fuzz_library import _load, runs

    for seed in SEEDS:
        m = make_module(seed)
        if not m.mutated:
            assert runs(_load(m.source), m.intended)[0], m.source
        for s in samples(m.intended, random.Random(seed)):
            assert all(d >= 2 or (len(s) == len(m.intended) and m.intended[i] == 1)
                       for i, d in enumerate(s) if i > 0 or len(s) < 2), s


def test_recurrent_modules_with_a_state_helper() -> None:
    """Issue 37: RNN/GRU/LSTM modules with `forward(self, input, hidden)` and `init_hidden()`: library
    mode reports a module only when torch rejects every pair of input and state (the helper's state,
    states of rank 2 and 3), and finds every module torch rejects."""
    from tests.oracle.fuzz_library_recurrent import compare as compare_recurrent

    outcomes = [compare_recurrent(seed) for seed in range(12, 28)]
    false = [(o.seed, o.findings, o.accepted_by_torch) for o in outcomes if o.verdict == "false-finding"]
    assert not false, false
    rejected = [o for o in outcomes if o.rejected]
    assert rejected and all(o.findings for o in rejected), [(o.seed, o.module.mutated) for o in rejected
                                                            if not o.findings]
    assert any(not o.rejected and o.module.mutated for o in outcomes)  # a change that keeps the module working
