#!/usr/bin/env python3
"""The dynamic baseline: what a user pays to find a shape error by running the program instead.
Each acceptance case runs under real torch in a fresh interpreter (import torch included), the
way the corpus oracle runs it (`_oracle/run_case.py`: the case folder and the torchvision
stand-in on sys.path, argparse defaults, seeds, TV_STANDIN_LEN_MOD=640 as verify.py sets, a
temporary working directory), and is stopped when the program asks its DataLoader for a second
batch: the time to finish one training batch. A program that fails, exits or never iterates a
DataLoader twice is timed to its end. The time of `python -c "import torch"` alone is shown too.

    python benchmarks/dynamic_baseline.py [--corpus ../shared/acceptance] [--limit N] [--timeout S]

Needs torch; prints `SUMMARY dynamic baseline: skipped` without it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _bench import CORPUS, bench_env, cases, median, ms, pct, run, table

WRAPPER = r'''
import json, os, sys, time
oracle, case_dir, out = sys.argv[1:4]
sys.path.insert(0, oracle)
import run_case
import torch.utils.data.dataloader as dl

calls = [0]
real_next = dl._BaseDataLoaderIter.__next__

def counting_next(self):
    calls[0] += 1
    if calls[0] == 2:  # the first batch went through the model: stop here
        with open(out, "w") as f:
            json.dump({"status": "one-batch"}, f)
        sys.stdout.flush()
        os._exit(0)
    return real_next(self)

dl._BaseDataLoaderIter.__next__ = counting_next
result = run_case.run(case_dir, "main.py")
with open(out, "w") as f:
    json.dump({"status": result["status"]}, f)
sys.stdout.flush()
os._exit(0)
'''


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--limit", type=int, default=0, help="only N cases, spread over the corpus (0: all)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per case")
    ns = ap.parse_args()
    try:
        import importlib.util

        if importlib.util.find_spec("torch") is None:
            raise ImportError
    except ImportError:
        print("SUMMARY dynamic baseline: skipped (torch is not installed)")
        return 0
    corpus = os.path.abspath(ns.corpus)
    oracle = os.path.join(corpus, "_oracle")
    todo = cases(corpus)
    if ns.limit and ns.limit < len(todo):
        step = len(todo) / ns.limit
        todo = [todo[int(i * step)] for i in range(ns.limit)]
    env = {**bench_env(), "TV_STANDIN_LEN_MOD": "640"}
    samples = []
    with tempfile.TemporaryDirectory(prefix="pytea-dynamic-") as tmp:
        wrapper = os.path.join(tmp, "one_batch.py")
        with open(wrapper, "w") as f:
            f.write(WRAPPER)
        imports = [run([sys.executable, "-c", "import torch"], cwd=tmp, env=env) for _ in range(4)][1:]
        for case in todo:
            work = tempfile.mkdtemp(dir=tmp)
            out = os.path.join(work, "result.json")
            r = run([sys.executable, wrapper, oracle, case, out], cwd=work, env=env, timeout=ns.timeout)
            try:
                with open(out) as f:
                    status = json.load(f)["status"]
            except (OSError, ValueError, KeyError):
                status = "timeout" if r.timed_out else f"exit {r.rc}"
            samples.append((os.path.basename(case), r.wall, r.rss_mb, status))
    walls = [s[1] for s in samples]
    by_status: dict[str, int] = {}
    for s in samples:
        by_status[s[3]] = by_status.get(s[3], 0) + 1
    print(table(("what", "runs", "median", "p95", "max", "peak RSS max"),
                [("python -c 'import torch'", len(imports), ms(median([r.wall for r in imports])),
                  ms(pct([r.wall for r in imports], 95)), ms(max(r.wall for r in imports)),
                  f"{max(r.rss_mb for r in imports):.0f} MB"),
                 ("acceptance case, one batch under torch", len(samples), ms(median(walls)), ms(pct(walls, 95)),
                  ms(max(walls)), f"{max(s[2] for s in samples):.0f} MB")]))
    print("\nslowest cases:")
    print(table(("case", "wall", "RSS", "ended by"),
                [(n, ms(w), f"{m:.0f} MB", st) for n, w, m, st in sorted(samples, key=lambda s: -s[1])[:8]]))
    print(f"\nSUMMARY dynamic baseline: {len(samples)} cases under torch (import included), median {ms(median(walls))}, "
          f"p95 {ms(pct(walls, 95))}, max {ms(max(walls))}; ended by: "
          + ", ".join(f"{k} {v}" for k, v in sorted(by_status.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
