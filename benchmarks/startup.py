#!/usr/bin/env python3
"""Start-up latency: `pytea-ci --version`, and `pytea-ci check` on an empty file, on a trivial
torch script and on the bundled MNIST example as the README runs it (first run: nothing cached; then a result-cache hit, with the replay record removed
before each run; then replayed: the same command once more, see driver/replay.py), each in a fresh subprocess,
median / p95 / max of N runs (wall time from spawn to exit), peak RSS, and each median as a multiple
of a bare `python -c pass`'s: the floor no Python tool can go below. Compiled modules are cached as in any
installed package (see `_bench.bench_env`); the last two rows show the cost without them
(PYTHONDONTWRITEBYTECODE=1: every module compiled from source at each start).

    python benchmarks/startup.py [--runs N]

Targets (issue 8): --version <= 150 ms median; check on a trivial file <= 300 ms median.
Exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _bench import EXAMPLES, REPO, bench_env, machine, median, ms, pct, pytea_cmd, run, table

FLOOR = "python -c pass (floor)"
MNIST = os.path.join(os.path.relpath(EXAMPLES, REPO), "mnist", "main.py")
TRIVIAL = "import torch\n\nx = torch.zeros(2, 3)\ny = x @ torch.ones(3, 4)\nprint(y.shape)\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ns = ap.parse_args()
    exe = pytea_cmd()
    rows = []
    medians: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="pytea-startup-") as tmp:
        empty = os.path.join(tmp, "empty.py")
        trivial = os.path.join(tmp, "trivial.py")
        open(empty, "w").close()
        with open(trivial, "w") as f:
            f.write(TRIVIAL)
        cases = [
            (FLOOR, [sys.executable, "-c", "pass"]),
            ("pytea-ci --version", exe + ["--version"]),
            ("check empty.py --no-cache", exe + ["check", "--no-cache", "--root", tmp, empty]),
            ("check trivial.py --no-cache", exe + ["check", "--no-cache", "--root", tmp, trivial]),
            ("check trivial.py (result cache)", exe + ["check", "--root", tmp, trivial]),
            ("check trivial.py (replayed)", exe + ["check", "--root", tmp, trivial]),
            ("check examples/mnist/main.py --no-cache", exe + ["check", "--no-cache", MNIST]),
            ("--version, no bytecode cache", exe + ["--version"]),
            ("check trivial.py --no-cache, no bytecode cache", exe + ["check", "--no-cache", "--root", tmp, trivial]),
        ]
        run(exe + ["check", "--root", tmp, trivial], cwd=tmp)  # fill the cache for the cached case
        for name, cmd in cases:
            env = bench_env(bytecode="no bytecode" not in name)
            runs = []
            cwd = REPO if "mnist" in name else tmp  # the README's command, from the repository root
            for _ in range(ns.runs + 1):  # the first run warms the OS file cache
                if "result cache" in name:
                    shutil.rmtree(os.path.join(tmp, ".pytea_cache", "replay"), ignore_errors=True)
                runs.append(run(cmd, cwd=cwd, env=env))
            runs = runs[1:]
            bad = [r for r in runs if r.rc not in (0, 1)]
            if bad:
                print(f"{name}: exit {bad[0].rc}\n{bad[0].stderr}", file=sys.stderr)
                return 2
            walls = [r.wall for r in runs]
            medians[name] = median(walls)
            ratio = f"{medians[name] / medians[FLOOR]:.1f}x" if FLOOR in medians else "-"
            rows.append((name, len(runs), ms(median(walls)), ms(pct(walls, 95)), ms(max(walls)),
                         f"{max(r.rss_mb for r in runs):.0f} MB", ratio))
    print(f"machine: {machine()}")
    print(table(("command", "runs", "median", "p95", "max", "peak RSS", "x floor"), rows))
    version = medians["pytea-ci --version"]
    check = medians["check trivial.py --no-cache"]
    ok = version <= 0.150 and check <= 0.300
    print(f"SUMMARY startup: --version {ms(version)} (target <= 150 ms), check trivial {ms(check)} "
          f"(target <= 300 ms), check from the result cache {ms(medians['check trivial.py (result cache)'])}, "
          f"replayed {ms(medians['check trivial.py (replayed)'])}, MNIST example "
          f"{medians['check examples/mnist/main.py --no-cache'] / medians[FLOOR]:.1f}x the floor: "
          f"{'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
