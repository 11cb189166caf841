"""Oracle for tests/fixtures/imports/: under real torch, import_prefix.py's first (no argument) and
third (two arguments) paths run clean and its second (one argument) runs clean up to the line
marked `# E:`, where it fails; type_checking.py, import_branches.py and env_at_import.py fail at their
marked line, import_rows.py at its k-th marked line with k arguments."""

from __future__ import annotations

import re
import runpy
import sys
import traceback
from pathlib import Path

import pytest

pytest.importorskip("torch")

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "imports" / "import_prefix.py"


def _run(monkeypatch: pytest.MonkeyPatch, *args: str) -> None:
    monkeypatch.syspath_prepend(str(FIXTURE.parent))
    monkeypatch.delitem(sys.modules, "_import_heavy", raising=False)  # a fresh import, as a new process
    monkeypatch.setattr(sys, "argv", [FIXTURE.name, *args])
    runpy.run_path(str(FIXTURE), run_name="__main__")


def _failed_at_the_marked_line(fixture: Path, info: pytest.ExceptionInfo[RuntimeError]) -> bool:
    lines = [f.lineno for f in traceback.extract_tb(info.value.__traceback__) if f.filename == str(fixture)]
    marked = [i for i, line in enumerate(fixture.read_text().splitlines(), 1) if re.search(r"#\s*E:", line)]
    return lines[-1] == marked[0]


@pytest.mark.parametrize("args", [(), ("third", "path")])
def test_first_and_third_paths_run_clean(args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    _run(monkeypatch, *args)


def test_second_path_fails_at_the_marked_line(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RuntimeError) as info:
        _run(monkeypatch, "second")
    assert _failed_at_the_marked_line(FIXTURE, info)


def test_type_checking_is_false_when_the_program_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    fixture = FIXTURE.parent / "type_checking.py"
    monkeypatch.setattr(sys, "argv", [fixture.name])
    with pytest.raises(RuntimeError) as info:
        runpy.run_path(str(fixture), run_name="__main__")
    assert _failed_at_the_marked_line(fixture, info)


@pytest.mark.parametrize("name", ["import_branches", "env_at_import"])
@pytest.mark.parametrize("args", [(), ("second",)])
def test_import_branches_fails_only_at_the_marked_line(args: tuple[str, ...], name: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    fixture = FIXTURE.parent / f"{name}.py"
    monkeypatch.syspath_prepend(str(fixture.parent))
    monkeypatch.delitem(sys.modules, "_import_branches", raising=False)
    monkeypatch.delitem(sys.modules, "_env_settings", raising=False)
    monkeypatch.setattr(sys, "argv", [fixture.name, *args])
    if args:
        runpy.run_path(str(fixture), run_name="__main__")
        return
    with pytest.raises(RuntimeError) as info:
        runpy.run_path(str(fixture), run_name="__main__")
    assert _failed_at_the_marked_line(fixture, info)


@pytest.mark.parametrize("args", [(), ("second",), ("third", "path")])
def test_import_rows_fails_at_its_marked_lines(args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    fixture = FIXTURE.parent / "import_rows.py"
    monkeypatch.syspath_prepend(str(fixture.parent))
    monkeypatch.delitem(sys.modules, "_import_rows", raising=False)
    monkeypatch.setattr(sys, "argv", [fixture.name, *args])
    if not args:
        runpy.run_path(str(fixture), run_name="__main__")
        return
    with pytest.raises(RuntimeError) as info:
        runpy.run_path(str(fixture), run_name="__main__")
    lines = [f.lineno for f in traceback.extract_tb(info.value.__traceback__) if f.filename == str(fixture)]
    marked = [i for i, line in enumerate(fixture.read_text().splitlines(), 1) if re.search(r"#\s*E:", line)]
    assert lines[-1] == marked[len(args) - 1]
