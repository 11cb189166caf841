"""Oracle for tests/fixtures/ops/real_world_gaps.py: under real torch/numpy the program runs clean with
no argument, and with `len(sys.argv) == k` it dies at the (k-1)-th line marked `# E:` and nowhere
else, so every finding the fixture expects is an exception at that line and every unmarked line runs."""

from __future__ import annotations

import re
import runpy
import sys
import traceback
import warnings
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("numpy")

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ops" / "real_world_gaps.py"


def _marked_lines() -> list[int]:
    return [i for i, line in enumerate(FIXTURE.read_text().splitlines(), 1) if re.search(r"#\s*E:", line)]


def _run(mode: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["real_world_gaps.py", *["x"] * (mode - 1)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy's invalid-value warnings (arcsin of 1.2) are not failures
        runpy.run_path(str(FIXTURE), run_name="__main__")


def test_program_runs_clean_without_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    _run(1, monkeypatch)


@pytest.mark.parametrize("mode", range(2, len(_marked_lines()) + 2))
def test_program_fails_exactly_at_the_marked_line(mode: int, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises((RuntimeError, IndexError, ValueError, AssertionError)) as info:  # torch asserts on some
        _run(mode, monkeypatch)
    lines = [f.lineno for f in traceback.extract_tb(info.value.__traceback__) if f.filename == str(FIXTURE)]
    assert lines[-1] == _marked_lines()[mode - 2]
