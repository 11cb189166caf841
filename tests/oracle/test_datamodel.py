"""Oracle for the data-model fixtures (tests/fixtures/core/datamodel_*.py): under real torch each one
runs to its end with `len(sys.argv) == 1`, and with `len(sys.argv) == k + 1` dies at its k-th line
marked `# E:` with the exception the marker stands for (a shape error of torch, or Python's
ValueError of an unpacking, PT001). So every line the analyzer passes in silence runs under torch,
and every finding is an exception there."""

from __future__ import annotations

import re
import runpy
import sys
import traceback
from pathlib import Path

import pytest

pytest.importorskip("torch")

CORE = Path(__file__).resolve().parents[1] / "fixtures" / "core"
FIXTURES = sorted(CORE.glob("datamodel_*.py"))


def _marked_lines(path: Path) -> list[int]:
    return [i for i, line in enumerate(path.read_text().splitlines(), 1) if re.search(r"#\s*E:", line)]


def _run(path: Path, mode: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [path.name, *["x"] * (mode - 1)])
    monkeypatch.syspath_prepend(str(path.parent))
    runpy.run_path(str(path), run_name="__main__")


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixture_runs_clean_under_torch(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _run(path, 1, monkeypatch)


CASES = [(p, k) for p in FIXTURES for k in range(1, len(_marked_lines(p)) + 1)]


@pytest.mark.parametrize("path,k", CASES, ids=lambda v: v.name if isinstance(v, Path) else str(v))
def test_each_finding_is_an_exception_under_torch(path: Path, k: int, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises((RuntimeError, IndexError, ValueError, AssertionError)) as info:  # torch asserts some shapes
        _run(path, k + 1, monkeypatch)
    lines = [f.lineno for f in traceback.extract_tb(info.value.__traceback__) if f.filename == str(path)]
    assert lines[-1] == _marked_lines(path)[k - 1]
