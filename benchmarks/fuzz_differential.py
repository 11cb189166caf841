#!/usr/bin/env python3
"""Differential fuzzing against real torch, the long run (the CI-sized tests are
tests/oracle/test_differential.py and test_differential_dtype.py): random small programs, each run
under torch and analyzed by pytea-ci. Prints false alarms (must be 0) and the detection rate of
torch's shape errors (>= 95%), or with --dtype of its dtype errors (>= 99%; with --device meta,
device errors too, a second device emulated with `meta`).

    python benchmarks/fuzz_differential.py [--seeds N] [--start K] [--dtype [--device meta]]
    python benchmarks/fuzz_differential.py --data [--images] [--seeds N] [--start K]

`--data` fuzzes training scripts whose sizes and label values come from data (issue 20,
tests/oracle/fuzz_data.py): each is run under torch for several seeds, extreme random draws and
environment values and classed as failing always / sometimes / never; always must be an error at the
line, sometimes at least a warning at a failing line, never nothing. Sometimes-failing programs whose
ordinary runs all failed at one line (only an extreme draw or more input values passed: a failure that
hangs on chance) are counted apart too.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.oracle.fuzz import compare  # noqa: E402


def main_data(start: int, seeds: int, show: int, progress: bool = False, images: bool = False) -> int:
    from tests.oracle.fuzz_data import compare as compare_data, describe

    if images:  # scripts over a folder of images brought to one size by a helper (issue 37)
        from tests.oracle.fuzz_data_images import compare as compare_data

    t0 = time.monotonic()
    counts: Counter[tuple[str, str]] = Counter()
    chance: Counter[str] = Counter()  # sometimes-failing programs whose ordinary runs all failed at one line
    for seed in range(start, start + seeds):
        outcome, prog, verdict, got = compare_data(seed)
        counts[(verdict.kind, outcome)] += 1
        chance[outcome] += verdict.by_chance
        if progress:
            print(f"seed {seed}: {verdict.kind}{' (by chance)' if verdict.by_chance else ''} {outcome}", flush=True)
        if outcome in ("false-alarm", "overclaimed", "missed", "found-as-warning") and show:
            show -= 1
            print(f"--- seed {seed}: {verdict.kind} {outcome}\n{describe(prog, verdict, got)}")
    by = {k: sum(n for (kind, _), n in counts.items() if kind == k) for k in ("always", "sometimes", "never", "broken")}
    always_found = counts[("always", "found")] / by["always"] if by["always"] else 1.0
    sometimes_found = counts[("sometimes", "found")] / by["sometimes"] if by["sometimes"] else 1.0
    false_alarms = sum(n for (_, o), n in counts.items() if o == "false-alarm")
    overclaimed = sum(n for (_, o), n in counts.items() if o == "overclaimed")
    print(f"programs: {seeds}  always: {by['always']}  sometimes: {by['sometimes']}  never: {by['never']}  "
          f"broken (not a shape error, skipped): {by['broken']}")
    print(f"false alarms: {false_alarms}  errors on sometimes-failing lines: {overclaimed}  "
          f"always found as errors at the line: {always_found:.1%} (as warnings: "
          f"{counts[('always', 'found-as-warning')]})  sometimes found at the line: {sometimes_found:.1%}  "
          f"({time.monotonic() - t0:.0f}s)")
    print("detail:", ", ".join(f"{k}/{o}: {n}" for (k, o), n in sorted(counts.items())))
    print(f"of the sometimes-failing, failing in every ordinary run (only extreme draws or more input values "
          f"pass): {sum(chance.values())} ({', '.join(f'{o}: {n}' for o, n in sorted(chance.items()))})")
    return 0 if false_alarms == 0 and always_found >= 0.95 and sometimes_found >= 0.90 else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=2000)
    ap.add_argument("--start", type=int, default=10_000, help="first seed (the CI test uses 0..149)")
    ap.add_argument("--dtype", action="store_true", help="dtype/device programs (tests/oracle/fuzz_dtype.py)")
    ap.add_argument("--device", default=None, help="with --dtype: a second device for moves (meta)")
    ap.add_argument("--data", action="store_true", help="data-dependent sizes and values (issue 20)")
    ap.add_argument("--images", action="store_true", help="with --data: scripts over image folders (issue 37)")
    ap.add_argument("--show", type=int, default=5, help="programs shown that were not judged right (--data)")
    ap.add_argument("--progress", action="store_true", help="one line per program as it is judged (--data)")
    ns = ap.parse_args()
    if ns.dtype:
        return dtype_main(ns.start, ns.seeds, ns.device)
    if ns.data:
        return main_data(ns.start, ns.seeds, ns.show, ns.progress, ns.images)
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
