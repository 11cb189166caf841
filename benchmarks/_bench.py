"""Shared helpers of the benchmark scripts: run a command in a subprocess and measure its wall time
and peak RSS (from the child's own rusage, `os.wait4`), percentiles, tables, the corpus copy and
the machine description. Not a benchmark itself."""

from __future__ import annotations

import datetime
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CORPUS = os.path.abspath(os.path.join(REPO, "..", "shared", "acceptance"))
EXAMPLES = os.path.join(REPO, "examples")


PYCACHE = os.path.join(tempfile.gettempdir(), "pytea-ci-bench-pycache")


def bench_env(bytecode: bool = True) -> dict[str, str]:
    """The environment of measured subprocesses. With `bytecode`, compiled modules are cached (in
    PYCACHE, outside the repository) as for any installed package (pip compiles them at install
    time), even where PYTHONDONTWRITEBYTECODE is set; without it, every module is compiled from
    source at each start."""
    env = dict(os.environ)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = PYCACHE
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def pytea_cmd() -> list[str]:
    """The installed `pytea-ci` console script next to this interpreter (what users run), else `-m`."""
    script = os.path.join(os.path.dirname(sys.executable), "pytea-ci")
    return [script] if os.path.isfile(script) else [sys.executable, "-m", "pytea_ci"]


@dataclass
class Run:
    wall: float  # seconds
    rss_mb: float  # peak resident set size of the child
    rc: int
    stdout: str
    stderr: str
    timed_out: bool = False


def run(cmd: Sequence[str], cwd: str | None = None, env: dict[str, str] | None = None,
        timeout: float | None = None) -> Run:
    """Run `cmd`, wall time from spawn to exit, peak RSS of that child alone (`os.wait4`)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(list(cmd), cwd=cwd, env=bench_env() if env is None else env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            proc.kill()

        timer = threading.Timer(timeout, kill) if timeout else None
        if timer:
            timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        if timer:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        rss = usage.ru_maxrss / (1024 * 1024) if sys.platform == "darwin" else usage.ru_maxrss / 1024
        return Run(wall, rss, proc.returncode, out.read().decode(errors="replace"),
                   err.read().decode(errors="replace"), killed.is_set())


def pct(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); 0 for no values."""
    if not values:
        return 0.0
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table (readable in a terminal, pasteable into RESULTS.md)."""
    cells = [[str(h) for h in headers]] + [[_fmt(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in cells]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def _fmt(c: object) -> str:
    if isinstance(c, float):
        return f"{c:.3f}"
    return str(c)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def cases(corpus: str = CORPUS) -> list[str]:
    """Case folders of the acceptance corpus (each `<case>/main.py` is one entry point)."""
    return sorted(os.path.join(corpus, c) for c in os.listdir(corpus)
                  if not c.startswith(("_", ".")) and os.path.isfile(os.path.join(corpus, c, "main.py")))


def example_entries(examples: str = EXAMPLES) -> list[str]:
    out = []
    for dirpath, dirnames, files in os.walk(examples):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_")))
        out += [os.path.join(dirpath, f) for f in sorted(files) if f == "main.py"]
    return out


def copy_tree(src: str, dest: str) -> str:
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("_oracle", "__pycache__", "*.pyc", ".pytea_cache"))
    return dest


def json_doc(text: str) -> dict:
    try:
        return json.loads(text)
    except ValueError:
        return {}


def machine() -> str:
    """One paragraph: date, CPU, cores, memory, OS, Python and the main package versions."""
    cpu = platform.processor() or platform.machine()
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=5).stdout
        for line in lscpu.splitlines():
            if line.startswith("Model name:"):
                cpu = line.split(":", 1)[1].strip()
    except (OSError, subprocess.SubprocessError):
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
        mem = f", {kb / 1024 / 1024:.1f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    versions = []
    for dist in ("z3-solver", "GitPython", "torch"):
        try:
            from importlib import metadata

            versions.append(f"{dist} {metadata.version(dist)}")
        except Exception:  # noqa: BLE001 - not installed
            pass
    return (f"{datetime.date.today().isoformat()}; {cpu}, {os.cpu_count()} CPUs{mem}; "
            f"{platform.system()} {platform.release()}; Python {platform.python_version()}; " + ", ".join(versions))
