"""The `text` format: snapshot, character columns and caret alignment, color, and escaping."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from pytea_ci.diagnostics import Diagnostic, Severity, Span
from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.report import text

PREFIX = 'tag = "données 🚀"; y = '  # before `net(x)` on train.py:6 (see conftest.py)


def test_snapshot(result: RunResult, root: str, snapshot: Callable[[str, str], None]) -> None:
    snapshot("report.txt", text.render(result, root))


def test_color_snapshot(result: RunResult, root: str, snapshot: Callable[[str, str], None]) -> None:
    snapshot("report.color.txt", text.render(result, root, color=True))


def _block(out: str, header: str) -> list[str]:
    lines = out.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(header))
    return lines[i: i + 3]


def test_character_columns_and_caret_under_the_expression(result: RunResult, root: str) -> None:
    out = text.render(result, root)
    header, src, caret = _block(out, "train.py:6:")
    assert header.startswith(f"train.py:6:{len(PREFIX) + 1}: PT003")  # characters, not UTF-8 bytes (29)
    # 🚀 takes two terminal cells: the carets start one cell later than the character count
    assert caret == "   | " + " " * (len(PREFIX) + 1) + "^" * len("net(x)")
    assert src[5:] == 'tag = "données 🚀"; y = net(x)'


def test_tab_before_the_span(result: RunResult, root: str) -> None:
    _, src, caret = _block(text.render(result, root), "data/run 2, v1: ñandú 🚀.py:4:9:")
    assert src == "   |     return x.sum(dim=2)"  # the tab shown as four spaces
    assert caret == "   |            " + "^" * len("x.sum(dim=2)")


def test_control_characters_never_reach_the_terminal(result: RunResult, root: str) -> None:
    out = text.render(result, root)
    assert "\x1b" not in out and "\r" not in out
    assert r"\x1b[31mred\x1b[0m text: 50% of runs\r\nwith a CR LF" in out
    assert "\x1b" in text.render(result, root, color=True)  # only our own colors


def test_one_line_per_diagnostic_header(tmp_path: Path) -> None:
    evil = "x\x1b]8;;http://evil\x07link\nline2"
    d = Diagnostic("PT001", Severity.ERROR, Span("a\nb.py", 1), evil, notes=("n\x00",))
    out = text.render(RunResult([EntryResult("a.py", [d])]), str(tmp_path))
    assert out.splitlines()[0] == r"a\nb.py:1:1: PT001 [shape-mismatch] error: x\x1b]8;;http://evil\x07link\nline2"
    assert r"   = n\x00" in out


def test_unreadable_file_falls_back_to_byte_columns(tmp_path: Path) -> None:
    d = Diagnostic("PT001", Severity.ERROR, Span("gone.py", 3, 7, 3, 9), "m")
    out = text.render(RunResult([EntryResult("gone.py", [d])]), str(tmp_path))
    assert out.splitlines()[0].startswith("gone.py:3:8: PT001") and "   |" not in out


@pytest.mark.parametrize(("isatty", "no_color", "expected"), [(True, "", True), (True, "1", False),
                                                              (False, "", False)])
def test_use_color(monkeypatch: pytest.MonkeyPatch, isatty: bool, no_color: str, expected: bool) -> None:
    monkeypatch.setenv("NO_COLOR", no_color)
    stream = io.StringIO()
    stream.isatty = lambda: isatty  # type: ignore[method-assign]
    assert text.use_color(stream) is expected


def test_caret_of_a_span_without_end_covers_the_rest_of_the_line(root: str) -> None:
    d = Diagnostic("PT011", Severity.NOTE, Span("train.py", 4, 0), "budget")
    block = text.format_diagnostic(d, root).splitlines()
    assert block[1:] == ["   | net = Net()", "   | " + "^" * len("net = Net()")]


def test_binary_file_gets_no_snippet(tmp_path: Path) -> None:
    (tmp_path / "bin.py").write_bytes(b"\x00\x9f\xfe garbage\n")
    d = Diagnostic("PT012", Severity.ERROR, Span("bin.py", 1), "syntax error: source code string cannot contain null bytes")
    out = text.render(RunResult([EntryResult("bin.py", [d])]), str(tmp_path))
    assert out.splitlines()[0].startswith("bin.py:1:1: PT012") and "   |" not in out
