"""Library mode over a model package: how many modules, how many with a fully determined contract and
output shape, findings, internal errors (status `internal-error`), and the wall and CPU time
(`pytea-ci shapes FOLDER --format json`; the per-module budget is wall time, so a loaded machine
leaves more modules `incomplete`).

usage: python benchmarks/library_mode.py FOLDER
The per-module budget is `library-time-budget` of the [tool.pytea-ci] table above FOLDER (run it on a
copy of the package holding such a pyproject.toml); figures go to benchmarks/RESULTS.md by hand.
"""

from __future__ import annotations

import collections
import json
import resource
import subprocess
import sys
import time


def main() -> int:
    folder = sys.argv[1]
    t0, cpu0 = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [sys.executable, "-c", "import sys; from pytea_ci.cli import main; sys.exit(main())", "shapes", folder,
           "--format", "json"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - t0
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ru.ru_utime + ru.ru_stime - cpu0.ru_utime - cpu0.ru_stime
    if out.returncode not in (0, 1):
        print(out.stderr.strip().splitlines()[-1:] or "failed")
        return 2
    modules = json.loads(out.stdout)["modules"]
    status = collections.Counter(m["status"] for m in modules)
    findings = [(m["module"], f["rule"], f["line"], f["message"]) for m in modules for f in m["findings"]
                if f["rule"] != "PT011"]
    print(f"modules={len(modules)} " + " ".join(f"{k}={v}" for k, v in sorted(status.items()))
          + f" findings={len(findings)} seconds={seconds:.0f} cpu_seconds={cpu:.0f}")
    for f in findings:
        print("  ", *f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
