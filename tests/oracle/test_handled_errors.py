"""Oracle for tests/fixtures/core/handled_errors.py: under real torch, the failures that fixture
expects no finding for are caught by the program, and with `len(sys.argv) == k` the program dies at
the k-th line marked `# E:` (and nowhere else), with an exception its `except` clauses there do not catch."""

from __future__ import annotations

import re
import runpy
import sys
import traceback
from pathlib import Path

import pytest

pytest.importorskip("torch")

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "core" / "handled_errors.py"


def _marked_lines() -> list[int]:
    return [i for i, line in enumerate(FIXTURE.read_text().splitlines(), 1) if re.search(r"#\s*E:", line)]


@pytest.mark.parametrize("mode", [1, 2, 3, 4])
def test_program_fails_exactly_at_the_marked_line(mode: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["handled_errors.py", *["x"] * (mode - 1)])
    with pytest.raises((RuntimeError, IndexError, ValueError)) as info:
        runpy.run_path(str(FIXTURE), run_name="__main__")
    lines = [f.lineno for f in traceback.extract_tb(info.value.__traceback__) if f.filename == str(FIXTURE)]
    assert lines[-1] == _marked_lines()[mode - 1]
