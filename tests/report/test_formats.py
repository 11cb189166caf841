"""The format registry, and the layering rule: the report layer imports only `pytea_ci.diagnostics`."""

from __future__ import annotations

import ast
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
