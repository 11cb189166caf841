"""Acceptance corpus in one process (no cache): cases found (a finding on the marked line, counted with the
scorer's rules PT001-PT004 and with PT005 as tests/test_acceptance.py counts), false alarms, and the
distribution of coverage (tensor operations checked / reached per case).

Usage: python benchmarks/acceptance_coverage.py [CORPUS]   (default ../shared/acceptance)
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pytea_ci.driver.run import Options, run  # noqa: E402

SCORER_RULES = ("PT001", "PT002", "PT003", "PT004")
BANDS = ((1.0, "100%"), (0.95, "95-99%"), (0.80, "80-94%"), (0.0, "< 80%"))


def _band(r: float) -> str:
    return next(label for lo, label in BANDS if r >= lo)


def main(argv: list[str]) -> int:
    corpus = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "shared" / "acceptance"
    cases = json.loads((corpus / "cases.json").read_text())
    found = {"scorer": 0, "with PT005": 0}
    false_alarms: list[str] = []
    ratios: dict[str, float] = {}
    for case in cases:
        folder = corpus / case["id"]
        result = run([str(folder / case["entry"])], Options(root=str(folder)))
        checked = sum(e.stats.ops_checked for e in result.entries)
        reached = sum(e.stats.ops_reached for e in result.entries)
        ratios[case["id"]] = checked / reached if reached else 1.0
        hits = {(d.rule, os.path.basename(d.span.path), d.span.line) for d in result.diagnostics}
        if case["verdict"] == "ok":
            if any(rule in SCORER_RULES + ("PT005",) for rule, _, _ in hits):
                false_alarms.append(case["id"])
            continue
        marked = (os.path.basename(case["file"]), case["line"])
        rules = {rule for rule, f, line in hits if (f, line) == marked}
        found["scorer"] += bool(rules & set(SCORER_RULES))
        found["with PT005"] += bool(rules & set(SCORER_RULES + ("PT005",)))
    errors = sum(c["verdict"] == "error" for c in cases)
    oks = len(cases) - errors
    bands = [(label, sum(1 for r in ratios.values() if _band(r) == label)) for _, label in BANDS]
    print("| found (PT001-PT004) | found (PT001-PT005) | false alarms | coverage per case |")
    print("|---|---|---|---|")
    print(f"| {found['scorer']}/{errors} | {found['with PT005']}/{errors} | {len(false_alarms)}/{oks} "
          f"{', '.join(false_alarms)} | " + ", ".join(f"{label}: {n}" for label, n in bands) + " |")
    low = sorted(ratios, key=ratios.__getitem__)[:3]
    print("\nlowest coverage: " + ", ".join(f"{c} {ratios[c]:.0%}" for c in low))
    print(f"SUMMARY acceptance: found {found['scorer']}/{errors} (PT001-PT004), {found['with PT005']}/{errors} "
          f"(with PT005), false alarms {len(false_alarms)}/{oks}, cases at >= 95% coverage "
          f"{sum(r >= 0.95 for r in ratios.values())}/{len(ratios)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
