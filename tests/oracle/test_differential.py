"""Differential fuzzing against torch (CI-sized; `benchmarks/fuzz_differential.py` runs longer):
random programs never get a finding where torch succeeds, and torch's shape errors are found."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from tests.oracle.fuzz import compare  # noqa: E402

SEEDS = range(150)


def test_no_false_alarms_and_high_detection() -> None:
    outcomes = [compare(seed) for seed in SEEDS]
    false_alarms = [(o[1], o[2], o[3]) for o in outcomes if o[0] == "false-alarm"]
    errors = [o for o in outcomes if o[2] is not None]
    found = [o for o in errors if o[0] == "agree"]
    assert not false_alarms, "\n\n".join("\n".join(p) + f"\n-> torch {w}, pytea {g}" for p, w, g in false_alarms[:3])
    assert errors and len(found) / len(errors) >= 0.95, [(o[1], o[2]) for o in errors if o[0] != "agree"][:3]
