#!/usr/bin/env python3
"""Crash-freedom on real Python: analyze every `.py` file of the standard library and of the
installed site-packages (torch's sources included when installed), each as an entry point with
a per-file budget, in parallel, and report verdict counts, timings and peak memory.

    python benchmarks/robustness.py [--limit N] [--jobs N] [--budget SECONDS] [--roots DIR ...]

Workers are subprocesses fed one file at a time. The budget is in reference seconds, counted as
interpreter steps (deterministic); a file that does not finish within a hard timeout (the
`--hang-after` seconds of real time) is recorded as `hang` and its worker is replaced, so one bad
file cannot stall the run. Internal errors and hangs are listed in full; they must be 0.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import sysconfig
import time
from collections import Counter
from typing import Any

WORKER = r"""
import json, resource, sys, time, traceback
from pytea_ci.driver.run import Options, run
from pytea_ci.diagnostics.budgets import steps_for
from pytea_ci.interp.interpreter import Budget
budget = float(sys.argv[1])
for line in sys.stdin:
    path = line.strip()
    t0 = time.monotonic()
    try:
        r = run([path], Options(root=__import__('os').path.dirname(path),
                                budget=Budget(entry_steps=steps_for(budget), paths=16),
                                solver_timeout_ms=500))
        e = r.entries[0]
        out = {"path": path, "status": e.status, "error": e.error,
               "findings": [f"{d.span.path}:{d.span.line}: {d.rule} {d.message[:160]}" for d in e.diagnostics
                            if d.rule in ("PT001", "PT002", "PT003", "PT004")]}
    except BaseException as exc:
        out = {"path": path, "status": "internal-error", "error": traceback.format_exc()[-600:], "findings": []}
    out["seconds"] = time.monotonic() - t0
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out), flush=True)
"""


def collect(roots: list[str], limit: int | None) -> list[str]:
    files: list[str] = []
    for root in roots:
        for dirpath, dirnames, names in os.walk(root):
            # a root's own site-packages is another root (the stdlib folder holds the interpreter's)
            dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "site-packages"))
            files.extend(os.path.join(dirpath, n) for n in sorted(names) if n.endswith(".py"))
    files = sorted(set(files))
    if limit and len(files) > limit:
        step = len(files) / limit
        files = [files[int(i * step)] for i in range(limit)]
    return files


class Worker:
    def __init__(self, budget: float) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(budget)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.path: str | None = None
        self.started = 0.0

    def give(self, path: str) -> None:
        self.path, self.started = path, time.monotonic()
        assert self.proc.stdin is not None
        self.proc.stdin.write(path + "\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()


def run_all(files: list[str], jobs: int, budget: float, hang_after: float = 120.0,
            log: Any = None) -> list[dict[str, Any]]:
    """Every file's record; each is also written to `log` (JSON lines) as soon as it is known."""
    import selectors

    results: list[dict[str, Any]] = []
    pending = list(reversed(files))
    sel = selectors.DefaultSelector()
    workers = [Worker(budget) for _ in range(min(jobs, len(files)))]
    for w in workers:
        if pending:
            w.give(pending.pop())
        assert w.proc.stdout is not None
        sel.register(w.proc.stdout, selectors.EVENT_READ, w)
    while any(w.path for w in workers):
        for key, _ in sel.select(timeout=1.0):
            w = key.data
            line = w.proc.stdout.readline()
            if not line:
                results.append({"path": w.path, "status": "internal-error", "error": "worker died", "findings": [],
                                "seconds": time.monotonic() - w.started, "rss_mb": 0})
                sel.unregister(w.proc.stdout)
                workers[workers.index(w)] = w = _replace(sel, w, budget)
            else:
                results.append(json.loads(line))
            if log is not None:
                log.write(json.dumps(results[-1]) + "\n")
                log.flush()
            w.path = None
            if pending:
                w.give(pending.pop())
            _progress(len(results), len(files))
        for i, w in enumerate(workers):
            if w.path and time.monotonic() - w.started > hang_after:
                results.append({"path": w.path, "status": "hang", "error": "hard timeout", "findings": [],
                                "seconds": time.monotonic() - w.started, "rss_mb": 0})
                sel.unregister(w.proc.stdout)
                workers[i] = _replace(sel, w, budget)
                if pending:
                    workers[i].give(pending.pop())
    for w in workers:
        w.kill()
    return results


def _replace(sel: Any, w: Worker, budget: float) -> Worker:
    import selectors

    w.kill()
    fresh = Worker(budget)
    sel.register(fresh.proc.stdout, selectors.EVENT_READ, fresh)
    return fresh


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        sys.stderr.write(f"\r{done}/{total}")
        sys.stderr.flush()


def report(results: list[dict[str, Any]], wall: float) -> int:
    counts = Counter(r["status"] for r in results)
    secs = sorted(r["seconds"] for r in results)
    pick = lambda q: secs[min(len(secs) - 1, int(q * len(secs)))] if secs else 0.0
    print(f"files: {len(results)}  wall: {wall:.0f}s")
    print("verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"seconds per file: p50 {pick(0.5):.2f}  p95 {pick(0.95):.2f}  max {secs[-1] if secs else 0:.2f}")
    print(f"peak RSS of a worker: {max((r['rss_mb'] for r in results), default=0):.0f} MB")
    slowest = sorted(results, key=lambda r: -r["seconds"])[:5]
    print("slowest: " + ", ".join(f"{os.path.basename(r['path'])} {r['seconds']:.2f}s" for r in slowest))
    bad = [r for r in results if r["status"] in ("internal-error", "hang")]
    for r in bad:
        print(f"\n{r['status'].upper()} {r['path']}\n{r['error']}")
    findings = [(r["path"], f) for r in results for f in r["findings"]]
    print(f"\nfindings: {len(findings)}")
    for path, f in findings:
        print(f"  {path} :: {f}")
    print(f"\nsummary: {len(results)} files, {len(bad)} internal errors or hangs, {len(findings)} findings")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--roots", nargs="*", help="folders to scan (default: stdlib and site-packages)")
    ap.add_argument("--limit", type=int, default=None, help="analyze an evenly spread sample of N files")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--budget", type=float, default=5.0, help="reference seconds per entry point (as steps)")
    ap.add_argument("--hang-after", type=float, default=120.0, help="real seconds after which a file is a hang")
    ap.add_argument("--json", default=None, metavar="FILE", help="also write every file's record to FILE")
    ap.add_argument("--log", default=None, metavar="FILE", help="append each record to FILE as it completes")
    ns = ap.parse_args()
    roots = ns.roots or [sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"]]
    # (each root is walked without the site-packages folders below it: the stdlib folder holds one)
    files = collect(roots, ns.limit)
    t0 = time.monotonic()
    log = open(ns.log, "a") if ns.log else None
    results = run_all(files, ns.jobs, ns.budget, ns.hang_after, log)
    if ns.json:
        with open(ns.json, "w") as f:
            json.dump(sorted(results, key=lambda r: r["path"]), f, indent=1)
    return report(results, time.monotonic() - t0)


if __name__ == "__main__":
    raise SystemExit(main())
