"""Baselines: `pytea-ci baseline write` records the findings; `check --baseline` reports only the others,
says how many it suppressed, and keeps matching when lines move."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pytea_ci.cli import main
from tests.driver.conftest import B_BUG, HELPER_BUG, findings, run_json, write_project


def _write_baseline(root: Path, *args: str) -> Path:
    out = root / "pytea-ci-baseline.json"
    saved = os.getcwd()
    os.chdir(root)
    try:
        assert main(["baseline", "write", "--root", str(root), *args]) == 0
    finally:
        os.chdir(saved)
    return out


def test_write_records_rule_file_and_fingerprint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "p", b=B_BUG)
    doc = json.loads(_write_baseline(root).read_text())
    assert doc["format"] == 1
    assert [(f["rule"], f["file"]) for f in doc["findings"]] == [("PT001", "b.py")]
    assert set(doc["findings"][0]) == {"rule", "file", "fingerprint", "column", "message"}
    assert "line" not in json.dumps(doc["findings"][0]).replace("primaryLocation", "")  # no line numbers
    assert "wrote 1 finding(s)" in capsys.readouterr().err


def test_check_with_baseline_reports_only_new_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "p", b=B_BUG)
    base = _write_baseline(root)
    capsys.readouterr()
    code, doc = run_json(root, "--baseline", str(base))
    assert code == 0 and findings(doc) == []
    assert "1 finding(s) suppressed by the baseline" in capsys.readouterr().err
    (root / "helper.py").write_text(HELPER_BUG)  # a new bug elsewhere
    code, doc = run_json(root, "--baseline", str(base))
    assert code == 1 and findings(doc) == [("PT001", "a.py", 7)]


def test_baseline_survives_moved_lines(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", b=B_BUG)
    base = _write_baseline(root)
    (root / "b.py").write_text("import torch\n\n\n# a comment\n" + B_BUG.split("\n", 1)[1])
    code, doc = run_json(root)
    assert findings(doc) == [("PT001", "b.py", 8)]  # moved from line 5
    code, doc = run_json(root, "--baseline", str(base))
    assert code == 0 and findings(doc) == []


def test_a_second_identical_finding_is_not_covered(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", b=B_BUG)
    base = _write_baseline(root)
    (root / "c.py").write_text(B_BUG)  # same line, another file: another identity
    code, doc = run_json(root, "--baseline", str(base))
    assert code == 1 and findings(doc) == [("PT001", "c.py", 5)]


def test_fixed_findings_are_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "p", b=B_BUG)
    base = _write_baseline(root)
    (root / "b.py").write_text(B_BUG.replace("view(7)", "view(6)"))
    capsys.readouterr()
    code, _doc = run_json(root, "--baseline", str(base))
    assert code == 0 and "0 finding(s) suppressed" in capsys.readouterr().err


@pytest.mark.parametrize("content", ["not json", '{"format": 99, "findings": []}', '{"format": 1, "findings": [{}]}'])
def test_bad_baseline_is_one_line_exit_2(tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "p")
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    code, _doc = run_json(root, "--baseline", str(bad))
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and len(err) == 1 and "baseline" in err[0]
    code, _doc = run_json(root, "--baseline", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read the baseline" in capsys.readouterr().err
