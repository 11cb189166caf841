"""The offline cut of benchmarks/real_projects.py: the two small projects (x-transformers,
denoising-diffusion-pytorch), when their pinned releases are in the cache, analyzed whole with no
internal error, no unreviewed finding and no finding reviewed as a false alarm. Skipped, with the
reason, when they are not cached (the test never downloads; the full run is a benchmark)."""

from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType

import pytest

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks", "real_projects.py")


def _script() -> ModuleType:
    sys.path.insert(0, os.path.dirname(SCRIPT))  # the script imports its sibling _bench
    try:
        spec = importlib.util.spec_from_file_location("real_projects", SCRIPT)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["real_projects"] = module  # its dataclasses look their module up
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(os.path.dirname(SCRIPT))


def test_small_real_projects_have_no_internal_error_and_no_false_alarm(capsys: pytest.CaptureFixture[str]) -> None:
    rp = _script()
    missing = [f"{p.name} {p.version}: {rp.fetch(p, True)[1]}" for p in rp.PROJECTS if p.small and rp.fetch(p, True)[0] is None]
    if missing:
        pytest.skip("; ".join(missing))
    status = rp.main(["--small", "--offline", "--timeout", "600", "--time-budget", "60"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "skipped" not in out


def test_a_run_killed_without_a_report_is_an_error(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    """A pytea-ci run that ends with no JSON report (killed by a CPU limit or a signal) is an error of its project,
    never a project with 0 entries and 0 problems (the stop-38 sweep's yolov5 row read so)."""
    import argparse
    import signal

    rp = _script()
    kill = os.path.join(str(tmp_path), "kill.py")
    with open(kill, "w", encoding="utf-8") as f:
        f.write(f"import os\nos.kill(os.getpid(), {int(signal.SIGKILL)})\n")
    args = argparse.Namespace(cmd=f"{sys.executable} {kill}", jobs=1, time_budget=0, library_mode="", no_deps=True,
                              offline=True, timeout=60.0, packages_venv="")
    out = rp.analyze(rp.Project("killed", "0"), str(tmp_path), args)
    assert out.error.startswith("rc=") and not out.doc, out
    assert rp.report([out], {}, 1) == 1
    assert "killed: rc=" in capsys.readouterr().out
