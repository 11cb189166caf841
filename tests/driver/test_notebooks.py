"""Jupyter notebooks are programs: code cells in order, IPython magics and shell escapes skipped, findings
at `train.ipynb:cell N:L:C` in text and on the notebook file's JSON in SARIF/JSON; folders include
notebooks; a file that is neither Python nor a notebook is refused."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from pytea_ci.cli import main
from pytea_ci.diagnostics.notebook import NotebookError, parse
from tests.driver.conftest import entries, findings, run_json, write_project

SCHEMA = json.loads((Path(__file__).parents[1] / "report" / "sarif-2.1.0.json").read_text(encoding="utf-8"))


def _code(src: str) -> dict[str, Any]:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": src.splitlines(True)}


def _markdown(src: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "metadata": {}, "source": src.splitlines(True)}


def notebook(*cells: dict[str, Any], language: str = "python") -> str:
    doc = {"cells": list(cells), "metadata": {"kernelspec": {"language": language, "name": "k", "display_name": "K"}},
           "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


TRAIN = notebook(
    _markdown("# Training\n"),
    _code("%matplotlib inline\n!pip install torch\nimport torch\nimport torch.nn as nn\n"),
    _code("%%bash\necho this is not python (at all\n"),
    _code("fc = nn.Linear(320, 50)\nfiles = !ls\n"),
    _markdown("Now the batch:"),
    _code("x = torch.randn(64, 500)  # é\nif True:\n    %time y = fc(x)\n    z = fc(x)\n"),
)


def _run(root: Path, *args: str) -> tuple[int, str, str]:
    saved = os.getcwd()
    os.chdir(root)
    try:
        code = main(["check", "--root", str(root), "--no-cache", *args])
    finally:
        os.chdir(saved)
    return code, "", ""


def test_buggy_cell_is_found_at_its_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "train.ipynb").write_text(TRAIN, encoding="utf-8")
    code, _, _ = _run(tmp_path, "train.ipynb")
    out = capsys.readouterr().out
    assert code == 1
    # code cells are numbered from 1 (markdown cells do not count); line 4 of cell 4, column 9
    assert out.startswith("train.ipynb:cell 4:4:9: PT001 [shape-mismatch] error: Linear")
    assert "in_features = 320: literal (train.ipynb:cell 3:1:16)" in out
    assert "PT012" not in out  # the magics and the %%bash cell did not reach the parser


def test_json_and_sarif_point_into_the_notebook_file(tmp_path: Path) -> None:
    path = tmp_path / "train.ipynb"
    path.write_text(TRAIN, encoding="utf-8")
    code, doc = run_json(tmp_path, "train.ipynb")
    assert code == 1 and [(r, p) for r, p, _ in findings(doc)] == [("PT001", "train.ipynb")]
    lines = path.read_text(encoding="utf-8").splitlines()
    d = doc["diagnostics"][0]
    assert lines[d["line"] - 1].strip() == '"    z = fc(x)\\n"'
    sarif = tmp_path / "out.sarif"
    saved = os.getcwd()
    os.chdir(tmp_path)
    try:
        main(["check", "train.ipynb", "--no-cache", "--format", "sarif", "--output", str(sarif)])
    finally:
        os.chdir(saved)
    log = json.loads(sarif.read_text())
    cls = jsonschema.validators.validator_for(SCHEMA)
    assert [e.message for e in cls(SCHEMA).iter_errors(log)] == []
    result = log["runs"][0]["results"][0]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "train.ipynb"
    text = lines[region["startLine"] - 1]
    assert text[region["startColumn"] - 1:region["endColumn"] - 1] == "fc(x)"
    assert "notebook: cell 4, line 4, column 9" in result["message"]["text"]
    born = result["relatedLocations"][1]["physicalLocation"]["region"]
    assert lines[born["startLine"] - 1][born["startColumn"] - 1:born["endColumn"] - 1] == "320"


def test_escaped_characters_keep_columns_right() -> None:
    prefix = 's = "é\t😀"; y = '  # é and the emoji become \\u escapes (a surrogate pair), the tab \\t
    nb = parse(json.dumps({"cells": [_code(prefix + "f(x)\n")], "metadata": {}, "nbformat": 4},
                          ensure_ascii=True).encode())
    found = nb.in_file(1, len(prefix.encode()))
    assert found is not None
    line, col = found
    assert nb.text.splitlines()[line - 1].encode()[col:].startswith(b"f(x)")
    assert nb.from_file(line, col) == (1, 1, len(prefix))


def test_folders_include_notebooks(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p")
    (root / "nb").mkdir()
    (root / "nb" / "train.ipynb").write_text(TRAIN, encoding="utf-8")
    (root / "nb" / "notes.ipynb").write_text(notebook(_code("print('no torch here')\n")), encoding="utf-8")
    code, doc = run_json(root)
    assert sorted(entries(doc)) == ["a.py", "b.py", "nb/train.ipynb"]
    assert code == 1


def test_a_data_file_nobody_reads_checks_nothing_and_says_so(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "data.json").write_text('{"a": [1, 2]}\n')  # a data file maps to its readers (none here)
    code, doc = run_json(tmp_path, "data.json")
    err = capsys.readouterr().err.splitlines()
    assert code == 0 and doc["entries"] == [] and len(err) == 1
    assert "no entry point reads or names the given data files: nothing was checked" in err[0]


def test_a_script_with_a_python_shebang_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "run").write_text("#!/usr/bin/env python3\nimport torch\ntorch.randn(2, 3).view(7)\n")
    code, doc = run_json(tmp_path, "run")
    assert code == 1 and findings(doc) == [("PT001", "run", 3)]


def test_notebooks_that_are_not_python_or_not_notebooks_are_parse_errors(tmp_path: Path) -> None:
    (tmp_path / "r.ipynb").write_text(notebook(_code("x <- 1\n"), language="R"))
    (tmp_path / "broken.ipynb").write_text("{ not json")
    _code_, doc = run_json(tmp_path, "r.ipynb", "broken.ipynb")
    assert sorted(r for r, _p, _l in findings(doc)) == ["PT012", "PT012"]
    with pytest.raises(NotebookError):
        parse(b'{"nbformat": 3, "worksheets": []}')
