#!/usr/bin/env python3
"""Differential fuzzing of library mode against real torch (issue 19): random `nn.Module` classes
(tests/oracle/fuzz_library.py), each checked alone by library mode and run under torch. Prints false
findings (must be 0), the share of modules torch rejects for every sampled non-degenerate input that
library mode reports (>= 95%), and the share of inputs drawn from (or violating) the inferred contracts
on which torch agrees (>= 99%). The CI-sized test is tests/oracle/test_fuzz_library.py.

    python benchmarks/fuzz_library.py [--recurrent] [--seeds 2000] [--start 100000] [--jobs 2] [--log FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def one_recurrent(seed: int) -> dict:
    from tests.oracle.fuzz_library_recurrent import compare

    try:
        o = compare(seed)
    except Exception as e:  # an analyzer bug under strict mode, or the oracle's own
        return {"seed": seed, "verdict": "crash", "error": f"{type(e).__name__}: {e}"}
    return {"seed": seed, "verdict": o.verdict, "mutated": o.module.mutated, "findings": o.findings,
            "accepted_input": o.accepted_by_torch, "source": o.module.source}


def one(seed: int) -> dict:
    from tests.oracle.fuzz_library import compare

    try:
        o = compare(seed)
    except Exception as e:  # an analyzer bug under strict mode, or the oracle's own
        return {"seed": seed, "verdict": "crash", "error": f"{type(e).__name__}: {e}"}
    return {"seed": seed, "verdict": o.verdict, "status": o.status, "mutated": o.module.mutated,
            "drawn": o.drawn, "drawn_bad": o.drawn_bad, "violating": o.violating, "violating_bad": o.violating_bad,
            "findings": o.findings, "accepted_input": o.accepted_by_torch, "narrow": o.narrow,
            "source": o.module.source}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=2000)
    ap.add_argument("--start", type=int, default=100_000, help="first seed (the CI test uses 0..39)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--recurrent", action="store_true",
                    help="recurrent modules with an init_hidden helper (tests/oracle/fuzz_library_recurrent.py)")
    ap.add_argument("--log", default="", help="append one JSON line per module to FILE")
    ap.add_argument("--from-log", default="", help="no run: summarize the modules of an earlier --log FILE")
    ns = ap.parse_args()
    t0 = time.monotonic()
    if ns.from_log:
        with open(ns.from_log, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
    else:
        rows = []
        log = open(ns.log, "a", encoding="utf-8") if ns.log else None
        with ProcessPoolExecutor(ns.jobs) as ex:
            for row in ex.map(one_recurrent if ns.recurrent else one, range(ns.start, ns.start + ns.seeds), chunksize=4):
                rows.append(row)
                if log is not None:
                    log.write(json.dumps(row) + "\n")
                    log.flush()
                if row["verdict"] in ("false-finding", "crash") or row.get("drawn_bad") or row.get("violating_bad"):
                    print(json.dumps(row, indent=1), flush=True)
    return summary(rows, time.monotonic() - t0)


def summary(rows: list[dict], seconds: float) -> int:
    counts = Counter(r["verdict"] for r in rows)
    rejected = counts["found"] + counts["missed"]
    found = counts["found"] / rejected if rejected else 1.0
    drawn = sum(r.get("drawn", 0) + r.get("violating", 0) for r in rows)
    bad = sum(len(r.get("drawn_bad", [])) + len(r.get("violating_bad", [])) for r in rows)
    agree = 1 - bad / drawn if drawn else 1.0
    mutated = sum(bool(r.get("mutated")) for r in rows)
    statuses = Counter(r["status"] for r in rows if "status" in r)  # (recurrent modules draw no contract inputs)
    print(f"modules: {len(rows)} ({mutated} with a mutated size); torch rejects every sampled non-degenerate "
          f"input of {rejected}; narrow (torch runs only a size 1 the module fixes): "
          f"{counts['narrow'] + counts['found-narrow']} ({counts['found-narrow']} reported)"
          + (f"; library mode accepted {statuses['accepted']}, incomplete {statuses['incomplete']}" if statuses else ""))
    print(f"false findings: {counts['false-finding']}  crashes: {counts['crash']}  rejected modules found: "
          f"{counts['found']}/{rejected} ({found:.1%})  contract inputs: {drawn} drawn or violating, torch agrees on "
          f"{drawn - bad} ({agree:.2%})  ({seconds:.0f}s)")
    missed = [r["seed"] for r in rows if r["verdict"] == "missed"]
    if missed:
        print("missed seeds:", " ".join(map(str, missed[:40])))
    ok = counts["false-finding"] == 0 and counts["crash"] == 0 and found >= 0.95 and agree >= 0.99
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
