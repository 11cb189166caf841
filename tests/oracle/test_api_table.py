"""Oracle test of the API table (tests/oracle/api_table.py): every row, by fully-qualified name, agrees with
the real library (or with its recorded outcome, for libraries not installable here)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("numpy")
pytest.importorskip("einops")

from tests.oracle.api_check import agree  # noqa: E402
from tests.oracle.api_table import CASES, RECORDED  # noqa: E402


@pytest.mark.parametrize("name,setup,expr", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_against_library(name: str, setup: str, expr: str) -> None:
    if "import PIL" in setup:
        pytest.importorskip("PIL")
    agree(setup, expr)


@pytest.mark.parametrize("name,setup,expr,expected", RECORDED, ids=[f"{c[0]}-{i}" for i, c in enumerate(RECORDED)])
def test_recorded(name: str, setup: str, expr: str, expected: object) -> None:
    agree(setup, expr, expected)
