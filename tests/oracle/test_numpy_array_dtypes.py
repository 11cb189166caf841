"""Oracle for tests/fixtures/dtype/numpy_list_of_arrays.py: under torch and NumPy the program fails at its
marked line (float64 from Python floats into a float32 layer) and nowhere before it (float32 arrays stay
float32)."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("numpy")

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "dtype" / "numpy_list_of_arrays.py"


def test_the_program_fails_at_its_marked_line_only() -> None:
    marked = [i for i, line in enumerate(FIXTURE.read_text().splitlines(), 1) if re.search(r"#\s*E:", line)]
    with pytest.raises(RuntimeError, match="same dtype") as info:
        runpy.run_path(str(FIXTURE), run_name="__main__")
    frames = [f for f in __import__("traceback").extract_tb(info.value.__traceback__) if f.filename == str(FIXTURE)]
    assert frames[-1].lineno == marked[0]
