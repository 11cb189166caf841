"""The format registry, and the layering rule: the report layer imports only `pytea_ci.diagnostics`."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import pytea_ci.report
from pytea_ci.diagnostics.result import RunResult
from pytea_ci.report import FORMATS, get_renderer

REPORT_DIR = Path(pytea_ci.report.__file__).parent


def test_registry(result: RunResult, root: str) -> None:
    assert {"json", "sarif", "github"} <= set(FORMATS)
    assert ("text" in FORMATS) == (REPORT_DIR / "text.py").exists()
    for name in ("json", "sarif", "github"):
        assert FORMATS[name] is get_renderer(name)
        assert isinstance(FORMATS[name](result, root), str)
    with pytest.raises(KeyError, match="unknown output format"):
        get_renderer("xml")


def _project_imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names |= {node.module} if node.module != "pytea_ci" else {f"pytea_ci.{a.name}" for a in node.names}
    return {n for n in names if n.split(".")[0] == "pytea_ci"}


@pytest.mark.parametrize("module", sorted(REPORT_DIR.glob("*.py")), ids=lambda p: p.name)
def test_report_imports_only_diagnostics(module: Path) -> None:
    allowed = ("pytea_ci.diagnostics", "pytea_ci.report", "pytea_ci.__version__")
    bad = {n for n in _project_imports(module) if not any(n == a or n.startswith(a + ".") for a in allowed)}
    assert bad == set()


def _message_of(fmt: str, out: str) -> str:
    """The PT004 message (the one with an ANSI escape, CR LF and %) as the format wrote it."""
    if fmt == "json":
        return str(next(d["message"] for d in json.loads(out)["diagnostics"] if d["rule"] == "PT004"))
    if fmt == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        return str(next(r["message"]["text"] for r in results if r["ruleId"] == "PT004"))
    return next(line for line in out.splitlines() if "PT004" in line)


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "summary"])
def test_control_characters_and_percent_escaped_in_every_format(fmt: str, result: RunResult, root: str) -> None:
    from pytea_ci.report import github

    out = github.step_summary(result, root) if fmt == "summary" else FORMATS[fmt](result, root)
    assert "\x1b" not in out and "\r" not in out  # no raw escape reaches a terminal, a log or a file
    message = _message_of(fmt, out)
    if fmt in ("json", "sarif"):  # JSON escapes them; the data is exact
        assert message.endswith("\n\x1b[31mred\x1b[0m text: 50% of runs\r\nwith a CR LF")
        assert "\\u001b[31m" in out
    elif fmt == "github":  # workflow command escaping: %25, %0D, %0A; ESC shown as text
        assert message.endswith(r"%0A\x1b[31mred\x1b[0m text: 50%25 of runs%0D%0Awith a CR LF")
    elif fmt == "text":
        assert message.endswith(r"\n\x1b[31mred\x1b[0m text: 50% of runs\r\nwith a CR LF")
    else:  # a markdown table cell: line breaks as <br>, the backslash and brackets escaped
        assert message.count(" | ") == 3 and r"<br>\\x1b\[31mred\\x1b\[0m text: 50% of runs<br>with a CR LF" in message


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_file_name_with_spaces_commas_colons_and_unicode(fmt: str, result: RunResult, root: str) -> None:
    out = FORMATS[fmt](result, root)
    expected = {
        "text": "data/run 2, v1: ñandú 🚀.py:4:9: PT003",
        "json": '"path": "data/run 2, v1: ñandú 🚀.py"',
        "sarif": '"uri":"data/run%202%2C%20v1%3A%20%C3%B1and%C3%BA%20%F0%9F%9A%80.py"',
        "github": "file=data/run 2%2C v1%3A ñandú 🚀.py,line=4,col=9,endLine=4,endColumn=21,",
    }[fmt]
    assert expected in out
