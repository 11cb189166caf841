"""Oracle for tests/fixtures/real/ (patterns reduced from the projects of benchmarks/real_projects.py):
under real torch each program runs clean with no argument, and with one argument fails at the
line marked `# E:` (the only marked line)."""

from __future__ import annotations

import re
import runpy
import sys
import traceback
from pathlib import Path

import pytest

pytest.importorskip("torch")

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "real"
PROGRAMS = sorted(p for p in FOLDER.glob("*.py") if not p.name.startswith("_"))


def _run(program: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> None:
    monkeypatch.syspath_prepend(str(FOLDER))
    monkeypatch.setattr(sys, "argv", [program.name, *args])
    runpy.run_path(str(program), run_name="__main__")


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_runs_clean_without_argument(program: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _run(program, monkeypatch)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_fails_at_the_marked_line_with_one_argument(program: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises((RuntimeError, IndexError, ValueError)) as info:
        _run(program, monkeypatch, "fail")
    lines = [f.lineno for f in traceback.extract_tb(info.value.__traceback__) if f.filename == str(program)]
    marked = [i for i, line in enumerate(program.read_text().splitlines(), 1) if re.search(r"#\s*E:", line)]
    assert lines[-1] == marked[0]
