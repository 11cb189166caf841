#!/usr/bin/env python3
"""Differential fuzzing of the interpreter's Python semantics against CPython (issue 31, item 1), the
long run (the CI-sized test is tests/oracle/test_fuzz_python.py; generator and oracle
tests/oracle/fuzz_python.py). Random programs in the Python model code is written in end every value
in a tensor size, a padding list, a branch, an unpacking; CPython (+ torch for the last step) runs each
for the truth. Prints wrong values, error findings CPython contradicts, and per construct the share of
probed values the analyzer knew exactly / did not know (symbolic, forked, not reached).

    python benchmarks/fuzz_python.py [--seeds N] [--start K] [--jobs 2] [--log FILE] [--reduce]
    python benchmarks/fuzz_python.py --from-log FILE [FILE ...]      # figures of earlier runs
    python benchmarks/fuzz_python.py --repro                         # the reproducers, still failing?

`--reduce` drops, for each failure, every snippet it does not need and logs the reduced program.
`--repro` runs each program of benchmarks/python_semantics/ (one per disagreement class found, and
issue 31's five) under CPython, with the inputs its author runs it with, and under pytea-ci: a
reproducer still reproduces when pytea-ci reports an error CPython does not raise (CPython runs it, or
ends it with a Python exception). Exit 1 when any program failed / any reproducer reproduces.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

KNOWN = ("exact",)
UNKNOWN = ("symbolic", "forked", "unreached")
REPRO_DIR = os.path.join(ROOT, "benchmarks", "python_semantics")
# how CPython runs issue 31's programs as their author meant (inputs the analyzer never sees); others run bare
REPRO_RUNS: dict[str, dict[str, Any]] = {
    "issue31_enum_in.py": {},
    "issue31_chain_empty.py": {},
    "issue31_unbound_cfg.py": {"argv": ["cfg.json"], "files": {"cfg.json": '{"fused": true}'}},
    "issue31_possibly_none.py": {"files": {"textenc.py": "import torch\n\n\ndef encode_prompt(text):\n"
                                                        "    return torch.randn(2, 7, 32)\n"}},
    "issue31_assert_resume.py": {"argv": ["--resume", "ckpt.pt"]},
}


def one(seed: int, analyzer: Any, reduce: bool) -> dict[str, Any]:
    from tests.oracle.fuzz_python import compare, failure_key, reduce as reduce_program

    out = compare(seed, analyzer)
    rec: dict[str, Any] = {
        "seed": seed, "cpython": out.truth.error, "found": out.found, "warnings_on_clean": out.warnings_on_clean,
        "probes": [[p.constructs, verdict] for p, verdict, _ in out.probes], "failures": out.failures,
    }
    if out.failures:
        rec["program"] = out.prog.source
        if reduce:  # one reproducer per failure (a program may hold several)
            keys = dict.fromkeys(failure_key(k, d) for k, d in out.failures)
            rec["reduced"] = {key: reduce_program(out, analyzer, key).source for key in keys}
    return rec


def warm_up_torch() -> None:
    """torch's first ops initialize it (seconds on a loaded machine): done before any program runs, so
    the oracle's 20 s deadline never fires inside that initialization (it left torch raising
    RuntimeError on every later op of the process)."""
    import torch
    import torch.nn.functional as F

    F.pad(torch.nn.Linear(2, 2)(torch.zeros(1, 2)), [1, 1]).view(-1).split(2)


def worker(seeds: list[int], log: str, reduce: bool) -> None:
    from tests.oracle.fuzz_python import Analyzer

    analyzer = Analyzer()
    warm_up_torch()
    with open(log, "a") as f:
        for seed in seeds:
            try:
                rec = one(seed, analyzer, reduce)
            except Exception as e:  # the generator itself: logged, never silent
                rec = {"seed": seed, "harness-error": f"{type(e).__name__}: {e}"}
            f.write(json.dumps(rec) + "\n")
            f.flush()


def figures(records: list[dict[str, Any]], show: int) -> int:
    per: dict[str, Counter[str]] = defaultdict(Counter)
    failures: Counter[str] = Counter()
    progs = Counter[str]()
    for r in records:
        if "harness-error" in r:
            progs["harness-error"] += 1
            continue
        progs["programs"] += 1
        progs["cpython raised " + (r["cpython"] or "nothing")] += 1
        progs["sink errors found" if r["found"] else "sink errors missed" if r["found"] is False else ""] += 1
        progs["warnings on clean programs"] += r["warnings_on_clean"]
        for constructs, verdict in r["probes"]:
            per["(all probes)"][verdict] += 1
            for c in constructs or ["(plain)"]:
                per[c][verdict] += 1
        for kind in {k for k, _ in r["failures"]}:
            failures[kind] += 1
    progs.pop("", None)
    print("  ".join(f"{k}: {v}" for k, v in sorted(progs.items())))
    print("failing programs by kind:", dict(failures) or "none")
    print(f"\n{'construct':<16} {'probes':>7} {'exact':>7} {'wrong':>6} {'symbolic':>9} {'forked':>7} "
          f"{'unreached':>9} {'unknown share':>13}")
    for c, n in sorted(per.items(), key=lambda kv: (kv[0] != "(all probes)", kv[0])):
        total = sum(n.values())
        unknown = sum(n[v] for v in UNKNOWN)
        print(f"{c:<16} {total:>7} {n['exact']:>7} {n['wrong']:>6} {n['symbolic']:>9} {n['forked']:>7} "
              f"{n['unreached']:>9} {unknown / total:>12.1%}")
    for r in [r for r in records if r.get("failures")][:show]:
        print(f"\n--- seed {r['seed']}: {r['failures']}")
        for key, source in (r.get("reduced") or {"(not reduced)": r["program"]}).items():
            print(f"{key}:\n{source}")
    return 1 if failures or progs["harness-error"] else 0


def reproducers() -> int:
    """Each reproducer under CPython and pytea-ci: does pytea-ci still report an error CPython does not raise?"""
    still = 0
    for name in sorted(os.listdir(REPRO_DIR)):
        if not name.endswith(".py"):
            continue
        src, how = os.path.join(REPRO_DIR, name), REPRO_RUNS.get(name, {})
        with tempfile.TemporaryDirectory() as d:
            for fname, text in how.get("files", {}).items():
                with open(os.path.join(d, fname), "w") as f:
                    f.write(text)
            py = subprocess.run([sys.executable, src, *how.get("argv", [])], cwd=d, capture_output=True, text=True,
                                env={**os.environ, "PYTHONPATH": d})
        check = subprocess.run([sys.executable, "-m", "pytea_ci", "check", "--no-cache", "--format", "json", src],
                               cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ROOT})
        found = [f"{d['rule']} line {d['line']}: {d['message']}" for d in json.loads(check.stdout)["diagnostics"]
                 if d["severity"] == "error"]
        cpy = "runs" if py.returncode == 0 else py.stderr.strip().splitlines()[-1]
        tensor_error = py.returncode != 0 and cpy.startswith(("RuntimeError", "IndexError"))
        reproduces = bool(found) and not tensor_error
        still += reproduces
        print(f"{name}: {'REPRODUCES' if reproduces else 'fixed'}  CPython: {cpy}; pytea-ci: {'; '.join(found) or 'no error'}")
    return 1 if still else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=1000)
    ap.add_argument("--start", type=int, default=100_000, help="first seed (the CI test uses 0..59)")
    ap.add_argument("--jobs", type=int, default=1, help="processes (at most 2 on the shared machine)")
    ap.add_argument("--log", default=None, help="one JSON line per program (appended)")
    ap.add_argument("--reduce", action="store_true", help="log a reduced reproducer for each failing program")
    ap.add_argument("--show", type=int, default=5, help="failing programs printed")
    ap.add_argument("--from-log", nargs="+", default=None, help="figures of earlier runs' logs")
    ap.add_argument("--repro", action="store_true", help="the reproducers in benchmarks/python_semantics")
    ns = ap.parse_args()
    if ns.repro:
        return reproducers()
    if ns.from_log:
        records = [json.loads(line) for path in ns.from_log for line in open(path) if line.strip()]
        return figures(records, ns.show)
    t0 = time.monotonic()
    log = ns.log or tempfile.mktemp(prefix="pyfuzz-", suffix=".jsonl")
    seeds = list(range(ns.start, ns.start + ns.seeds))
    if ns.jobs <= 1:
        worker(seeds, log, ns.reduce)
    else:
        procs = [subprocess.Popen([sys.executable, "-c", "import sys, json; sys.path.insert(0, sys.argv[1]); "
                                   "from benchmarks.fuzz_python import worker; "
                                   "worker(json.loads(sys.argv[2]), sys.argv[3], sys.argv[4] == '1')",
                                   ROOT, json.dumps(seeds[j::ns.jobs]), f"{log}.{j}", "1" if ns.reduce else "0"])
                 for j in range(ns.jobs)]
        for p in procs:
            p.wait()
        with open(log, "a") as f:
            for j in range(ns.jobs):
                f.write(open(f"{log}.{j}").read())
                os.remove(f"{log}.{j}")
    records = [json.loads(line) for line in open(log) if line.strip()]
    print(f"log: {log}  ({time.monotonic() - t0:.0f}s)")
    return figures(records, ns.show)


if __name__ == "__main__":
    raise SystemExit(main())
