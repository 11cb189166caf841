"""Cache benchmark: the acceptance corpus analyzed cold, warm (nothing changed), then after editing
one helper module (imported by one entry point only).

    python benchmarks/cache_bench.py [--corpus ../shared/acceptance] [--jobs N]

The corpus is copied to a temporary project (with a [tool.pytea-ci] table naming `*/main.py` as
the entry points), so nothing outside it is written. Prints wall time, entry points analyzed vs
cached, solver queries and cache hit rates per phase; exits 1 when warm takes more than 10% of cold.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from pytea_ci.driver.check import CheckRequest, check

CONFIG = '[tool.pytea-ci]\nentry-points = ["*/main.py"]\nexclude = ["_oracle", "verify.py"]\n'


def _copy(corpus: str, dest: str) -> None:
    shutil.copytree(corpus, dest, ignore=shutil.ignore_patterns("_oracle", "__pycache__", "*.pyc"))
    with open(os.path.join(dest, "pyproject.toml"), "w") as f:
        f.write(CONFIG)


def _helper(project: str) -> str:
    """A helper module (not main.py) of one case: the 'shared helper' that gets edited."""
    for case in sorted(os.listdir(project)):
        folder = os.path.join(project, case)
        if os.path.isdir(folder) and case.endswith("_ok"):
            helpers = sorted(f for f in os.listdir(folder) if f.endswith(".py") and f != "main.py")
            if helpers:
                return os.path.join(folder, helpers[0])
    raise SystemExit("no helper module found in the corpus")


def _phase(name: str, project: str, jobs: int) -> float:
    t0 = time.perf_counter()
    out = check(CheckRequest(root=project, overrides={"jobs": jobs}))
    wall = time.perf_counter() - t0
    f = out.figures
    findings = len(out.result.diagnostics)
    print(f"{name:<14} {wall:8.2f}s  analyzed {f.analyzed:3d}  cached {f.cached:3d}  "
          f"solver queries {f.solver_queries:5d} (z3 {f.z3_calls:5d}, cache hits {f.solver_cache_hits:5d}, "
          f"hit rate {f.solver_hit_rate:6.1%})  result hit rate {f.result_hit_rate:6.1%}  findings {findings}")
    return wall


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "shared", "acceptance"))
    p.add_argument("--jobs", type=int, default=0, help="worker processes (0: number of CPUs)")
    ns = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="pytea-bench-") as tmp:
        project = os.path.join(tmp, "corpus")
        _copy(os.path.abspath(ns.corpus), project)
        cold = _phase("cold", project, ns.jobs)
        warm = _phase("warm", project, ns.jobs)
        helper = _helper(project)
        with open(helper, "a") as f:
            f.write("\n# edited by cache_bench\n")
        edited = _phase("helper edited", project, ns.jobs)
        print(f"edited helper: {os.path.relpath(helper, project)}")
        print(f"warm / cold = {warm / cold:.1%}; helper edited / cold = {edited / cold:.1%}")
        return 0 if warm <= 0.10 * cold else 1


if __name__ == "__main__":
    sys.exit(main())
