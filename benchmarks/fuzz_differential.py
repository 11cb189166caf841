#!/usr/bin/env python3
"""Differential fuzzing against real torch, the long run (the CI-sized tests are
tests/oracle/test_differential.py and test_differential_dtype.py): random small programs, each run
under torch and analyzed by pytea-ci. Prints false alarms (must be 0) and the detection rate of
torch's shape errors (>= 95%), or with --dtype of its dtype errors (>= 99%; with --device meta,
device errors too, a second device emulated with `meta`).

    python benchmarks/fuzz_differential.py [--seeds N] [--start K] [--dtype [--device meta]]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.oracle.fuzz import compare  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=2000)
    ap.add_argument("--start", type=int, default=10_000, help="first seed (the CI test uses 0..149)")
    ap.add_argument("--dtype", action="store_true", help="dtype/device programs (tests/oracle/fuzz_dtype.py)")
    ap.add_argument("--device", default=None, help="with --dtype: a second device for moves (meta)")
    ns = ap.parse_args()
    if ns.dtype:
        return dtype_main(ns.start, ns.seeds, ns.device)
    t0 = time.monotonic()
    counts: Counter[str] = Counter()
    errors = 0
    shown = 0
    for seed in range(ns.start, ns.start + ns.seeds):
        try:
            verdict, lines, want, got = compare(seed)
        except Exception as e:  # a model that raised under strict mode: an analyzer bug to fix
            counts["crash"] += 1
            print(f"--- seed {seed}: crash {type(e).__name__}: {e}")
            continue
        counts[verdict] += 1
        errors += want is not None
        if verdict != "agree" and shown < 5:
            shown += 1
            print(f"--- seed {seed}: {verdict} (torch line {want}, pytea lines {sorted(got)})")
            print("\n".join(lines[3:]))
    detection = (errors - counts["missed"]) / errors if errors else 1.0
    print(f"programs: {ns.seeds}  torch errors: {errors}  ok programs: {ns.seeds - errors}")
    print(f"false alarms: {counts['false-alarm']}  missed: {counts['missed']}  crashes: {counts['crash']}  "
          f"detection: {detection:.1%}  "
          f"({time.monotonic() - t0:.0f}s)")
    return 0 if counts["false-alarm"] == 0 and counts["crash"] == 0 and detection >= 0.95 else 1


def dtype_main(start: int, seeds: int, device: str | None) -> int:
    from tests.oracle.fuzz_dtype import compare as compare_dtype

    t0 = time.monotonic()
    counts: Counter[str] = Counter()
    errors = shown = 0
    for seed in range(start, start + seeds):
        verdict, lines, want, got = compare_dtype(seed, device)
        counts[verdict] += 1
        errors += want is not None and verdict != "value-error"
        if verdict in ("false-alarm", "missed") and shown < 5:
            shown += 1
            print(f"--- seed {seed}: {verdict} (torch line {want}, pytea {got})")
            print("\n".join(lines[3:]))
    detection = (errors - counts["missed"]) / errors if errors else 1.0
    print(f"programs: {seeds}  torch dtype/device errors: {errors}  value errors (not counted): "
          f"{counts['value-error']}  ok programs: {seeds - errors - counts['value-error']}")
    print(f"false alarms: {counts['false-alarm']}  missed: {counts['missed']}  detection: {detection:.1%}  "
          f"({time.monotonic() - t0:.0f}s)")
    return 0 if counts["false-alarm"] == 0 and detection >= 0.99 else 1


if __name__ == "__main__":
    raise SystemExit(main())
