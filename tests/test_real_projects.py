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
