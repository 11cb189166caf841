"""The data fuzzer (issue 20, CI-sized; `benchmarks/fuzz_differential.py --data` runs 3000 programs):
training scripts whose sizes and labels come from data never get a finding where torch never fails,
never get an error where a run with the program's defaults passes, and their failures are found."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from tests.oracle.fuzz_data import Verdict, compare, describe, judge  # noqa: E402

SEEDS = range(40)


def test_judgement_of_the_oracle() -> None:
    never, always = Verdict("never", {}, 12, 12, 12), Verdict("always", {20: 12}, 12, 0, 0)
    sometimes = Verdict("sometimes", {20: 4}, 12, 8, 8, {19, 20})
    assert judge(never, {}) == "ok" and judge(never, {20: "warning"}) == "false-alarm"
    assert judge(always, {20: "error"}) == "found" and judge(always, {20: "warning"}) == "found-as-warning"
    assert judge(always, {15: "warning", 20: "error"}) == "false-alarm"  # a line every run went through
    assert judge(always, {15: "warning", 20: "error"}, {15}) == "found"  # a planted bug torch did not reach
    assert judge(sometimes, {20: "warning"}) == "found" and judge(sometimes, {20: "error"}) == "overclaimed"
    assert judge(sometimes, {}) == "missed"
    unreached = Verdict("sometimes", {20: 4}, 12, 8, 8, {19})  # the runs that passed never reached line 20
    assert judge(unreached, {20: "error"}) == "found"


def test_no_false_alarms_and_failures_found() -> None:
    outcomes = [compare(seed) for seed in SEEDS]
    wrong = [o for o in outcomes if o[0] in ("false-alarm", "overclaimed")]
    assert not wrong, "\n\n".join(describe(p, v, g) for _, p, v, g in wrong[:3])
    failing = [o for o in outcomes if o[2].kind in ("always", "sometimes")]
    found = [o for o in failing if o[0] in ("found", "found-as-warning")]
    assert failing and len(found) / len(failing) >= 0.8, [(o[2].kind, o[0]) for o in failing if o not in found]
