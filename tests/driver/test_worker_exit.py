"""A run killed from outside (a CI job's timeout, a CPU limit, SIGKILL) cannot shut its worker pool
down; its workers must not outlive it, waiting for work that never comes (`driver/results.py`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SLOW = "import torch\n\nx = torch.zeros(3)\nfor i in range(1000000):\n    x = torch.cat([x, x])[:3] + i\n"


def _children(pid: int) -> set[int]:
    out = set()
    for d in os.listdir("/proc"):
        try:
            with open(f"/proc/{d}/stat") as f:
                if d.isdigit() and int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.add(int(d))
        except OSError:
            continue
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc to find a process's children")
def test_workers_end_when_the_run_is_killed(tmp_path: Path) -> None:
    for i in range(6):  # each entry runs for seconds (a per-path step budget ends it), so the pool is busy
        (tmp_path / f"e{i}.py").write_text(SLOW)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    run = subprocess.Popen([sys.executable, "-m", "pytea_ci", "check", "--no-cache", "--jobs", "2", "--loop-unroll",
                            "1000000", "--time-budget", "600", "--run-budget", "0", "--no-progress", "."],
                           cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    try:
        for _ in range(600):  # until the pool's two workers exist (the analyzer loads first)
            workers = _children(run.pid)
            if len(workers) >= 2 or run.poll() is not None:
                break
            time.sleep(0.1)
        assert len(workers) >= 2 and run.poll() is None, "the run ended before its pool started"
        run.send_signal(signal.SIGKILL)
        run.wait()
        for _ in range(600):  # a minute at most; a worker looks at its parent every half second
            if not any(_alive(w) for w in workers):
                break
            time.sleep(0.1)
        assert not any(_alive(w) for w in workers), "workers outlived the killed run"
    finally:
        for w in workers:
            try:
                os.kill(w, signal.SIGKILL)
            except OSError:
                pass
        if run.poll() is None:
            run.kill()
