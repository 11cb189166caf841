"""Differential fuzzing of dtypes and devices against torch (CI-sized; `benchmarks/fuzz_differential.py
--dtype` runs longer): no finding where torch runs, torch's dtype errors found at their line, and with
moves to a second device (`meta`, see test_dtype_device_findings for the equivalence) its device
errors too."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from tests.oracle.fuzz_dtype import compare  # noqa: E402


@pytest.mark.parametrize("device", [None, "meta"])
def test_no_false_alarms_and_dtype_errors_found(device: str | None) -> None:
    outcomes = [compare(seed, device) for seed in range(60)]
    false_alarms = [(o[1], o[2], o[3]) for o in outcomes if o[0] == "false-alarm"]
    errors = [o for o in outcomes if o[2] is not None and o[0] != "value-error"]
    found = [o for o in errors if o[0] == "agree"]
    assert not false_alarms, "\n\n".join("\n".join(p) + f"\n-> torch {w}, pytea {g}" for p, w, g in false_alarms[:3])
    assert errors and len(found) / len(errors) >= 0.95, [(o[1], o[2]) for o in errors if o[0] != "agree"][:3]
