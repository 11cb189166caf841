"""The acceptance corpus (../shared/acceptance, labels verified with real torch), scored as the
issues count it: an error case passes when a PT001-PT004 finding sits on the marked line, an ok case
when there is none. Skipped where the corpus is absent (a fresh clone elsewhere)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pytea_ci.driver.run import Options, run

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "acceptance"
# Families that use only the core APIs: every case must pass (issue 2).
CORE_FAMILIES = ("mnist_cnn", "mnist_mlp", "batch_view", "cifar_resnet", "tabular_mlp")

UNKNOWN_OPS: dict[str, int] = {}

pytestmark = pytest.mark.skipif(not (CORPUS / "cases.json").exists(), reason="acceptance corpus not present")


def _score(case: dict) -> tuple[bool, bool]:
    """(passed, crashed); also records how many tensor ops received values not understood."""
    folder = CORPUS / case["id"]
    result = run([str(folder / case["entry"])], Options(root=str(folder)))
    UNKNOWN_OPS[case["id"]] = sum(e.stats.unknowns for e in result.entries)
    crashed = any(e.status == "internal-error" for e in result.entries)
    hits = {(os.path.basename(d.span.path), d.span.line) for d in result.diagnostics
            if d.rule in ("PT001", "PT002", "PT003", "PT004")}
    if case["verdict"] == "ok":
        return not hits, crashed
    return (os.path.basename(case["file"]), case["line"]) in hits, crashed


@pytest.fixture(scope="module")
def scores() -> dict[str, tuple[bool, bool]]:
    cases = json.loads((CORPUS / "cases.json").read_text())
    return {c["id"]: (_score(c), c["verdict"]) for c in cases}  # type: ignore[misc]


def test_no_false_alarm_and_no_crash(scores: dict) -> None:
    false_alarms = [k for k, ((ok, _), verdict) in scores.items() if verdict == "ok" and not ok]
    crashes = [k for k, ((_, crashed), _) in scores.items() if crashed]
    found = sum(ok for (ok, _), verdict in scores.values() if verdict == "error")
    total = sum(verdict == "error" for _, verdict in scores.values())
    print(f"\nacceptance: found {found}/{total} error cases, {len(false_alarms)} false alarms, {len(crashes)} crashes")
    assert not false_alarms and not crashes


def test_core_families_all_pass(scores: dict) -> None:
    failing = [k for k, ((ok, _), _) in scores.items() if k.startswith(CORE_FAMILIES) and not ok]
    assert not failing


def test_every_tensor_op_understood(scores: dict) -> None:
    """Issue 3: no acceptance program passes a value the analyzer did not understand to a tensor op."""
    assert {k: v for k, v in UNKNOWN_OPS.items() if v} == {}
