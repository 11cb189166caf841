"""CPython as the oracle of tests/fixtures/symbols/seeded_draws.py: after a constant seed the draws are fixed,
so each case of the fixture, run for real, either ends or stops on a line the fixture marks (an error for every
value of the draw); no line the analyzer leaves silent fails in the run CPython makes."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.fixture_runner import FIXTURES, expected

pytest.importorskip("torch")
pytest.importorskip("numpy")

FIXTURE = os.path.join(FIXTURES, "symbols", "seeded_draws.py")
MODES = range(1, 7)


def _failing_line(mode: int) -> int | None:
    """The fixture's line where the real run of `mode` raised (None: it ended)."""
    r = subprocess.run([sys.executable, FIXTURE, str(mode)], capture_output=True, text=True, timeout=120)
    if r.returncode == 0:
        return None
    lines = re.findall(rf'File "{re.escape(FIXTURE)}", line (\d+)', r.stderr)
    assert lines, r.stderr
    return int(lines[-1])


@pytest.mark.parametrize("mode", MODES)
def test_real_run_fails_only_on_marked_lines(mode: int) -> None:
    marked = {e.line for e in expected(FIXTURE)}
    line = _failing_line(mode)
    assert line is None or line in marked, f"mode {mode} fails under CPython at unmarked line {line}"
