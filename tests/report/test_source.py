"""Paths relative to the root and column conversion from Python's UTF-8 byte offsets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytea_ci.diagnostics import Span
from pytea_ci.report.source import Sources, Unit

LINE = 'tag = "données 🚀"; y = net(x)'
BYTE_COL = len('tag = "données 🚀"; y = '.encode())


@pytest.fixture
def sources(root: str) -> Sources:
    return Sources(root)


def test_columns_per_unit(sources: Sources) -> None:
    chars = LINE.index("net") + 1
    assert sources.column("train.py", 6, BYTE_COL, Unit.CHAR) == chars
    assert sources.column("train.py", 6, BYTE_COL, Unit.UTF16) == chars + 1  # 🚀 is 2 code units
    assert sources.column("train.py", 6, 0, Unit.UTF16) == 1


@pytest.mark.parametrize("unit", list(Unit))
def test_byte_column_inverts_column(sources: Sources, unit: Unit) -> None:
    for byte_col in (0, 5, BYTE_COL, len(LINE.encode()), len(LINE.encode()) + 3):
        col = sources.column("train.py", 6, byte_col, unit)
        assert sources.byte_column("train.py", 6, col, unit) == byte_col


def test_unreadable_file_keeps_bytes_plus_one(sources: Sources) -> None:
    assert sources.column("gen/missing.py", 4, 7, Unit.UTF16) == 8
    assert sources.column("train.py", 999, 7, Unit.UTF16) == 8


def test_crlf_lines_and_coding_cookie(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_bytes("# -*- coding: latin-1 -*-\r\nx = 'é'; y = 1\r\n".encode("latin-1"))
    sources = Sources(str(tmp_path))
    # ast counts UTF-8 bytes of the decoded text: "x = 'é'; " is 10 bytes, 9 characters
    assert sources.column("a.py", 2, 10, Unit.CHAR) == 10


def test_region_clamps_malformed_spans(sources: Sources) -> None:
    r = sources.region(Span("train.py", 0, 0, None, None), Unit.UTF16)
    assert (r.line, r.col, r.end_line, r.end_col) == (1, 1, 1, None)
    r = sources.region(Span("train.py", 5, 6, 4, 2), Unit.UTF16)
    assert (r.line, r.end_line, r.end_col) == (5, 5, None)


def test_paths(sources: Sources, root: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    assert sources.display(os.path.join(root, "pkg", "model.py")) == "pkg/model.py"
    assert sources.display("pkg/model.py") == "pkg/model.py"
    outside = str(tmp_path_factory.mktemp("elsewhere") / "x.py")
    assert sources.relative(outside) is None
    assert sources.display(outside) == outside.replace(os.sep, "/")
