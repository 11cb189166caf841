"""The README's "SARIF and GitHub code scanning" section: its SARIF excerpt is what pytea-ci writes for
the bundled example with the documented bug, and its workflow uploads that file the way GitHub needs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pytea_ci.driver.run import Options, run
from pytea_ci.report import sarif

REPO = Path(__file__).resolve().parent.parent.parent
SECTION = "SARIF and GitHub code scanning"


def _blocks(lang: str) -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    body = text.split(f"\n## {SECTION}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(rf"```{lang}\n(.*?)```", body, re.DOTALL)


@pytest.fixture(scope="module")
def example_result(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("mnist_bug")
    source = (REPO / "examples" / "mnist" / "main.py").read_text(encoding="utf-8")
    assert "nn.Linear(320, 50)" in source
    (folder / "main.py").write_text(source.replace("nn.Linear(320, 50)", "nn.Linear(500, 50)"), encoding="utf-8")
    result = run([str(folder / "main.py")], Options(root=str(folder)))
    doc = json.loads(sarif.render(result, str(folder)))
    return doc["runs"][0]["results"][0]  # type: ignore[no-any-return]


def test_sarif_excerpt_is_real(example_result: dict[str, Any]) -> None:
    (excerpt,) = _blocks("json")
    shown = json.loads(excerpt)
    # where, what and how it is tracked must match exactly; message wording may be refined over time
    for key in ("ruleId", "ruleIndex", "level", "locations", "partialFingerprints", "properties"):
        assert shown[key] == example_result[key], key
    assert [r["physicalLocation"] for r in shown["relatedLocations"]] == \
        [r["physicalLocation"] for r in example_result["relatedLocations"]]
    steps = example_result["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [s["location"]["physicalLocation"] for s in shown["codeFlows"][0]["threadFlows"][0]["locations"]] == \
        [s["location"]["physicalLocation"] for s in steps]


def test_workflow_uploads_with_the_same_category() -> None:
    yaml = pytest.importorskip("yaml")
    (block,) = _blocks("yaml")
    workflow = yaml.safe_load(block)
    job = next(iter(workflow["jobs"].values()))
    assert job["permissions"]["security-events"] == "write"
    upload = next(s for s in job["steps"] if s.get("uses", "").startswith("github/codeql-action/upload-sarif@"))
    assert upload["uses"].endswith("@v4") and upload["if"] == "always()"
    check = next(s["run"] for s in job["steps"] if "pytea-ci check" in s.get("run", ""))
    assert f"--category {upload['with']['category']}" in check
    assert f"--output {upload['with']['sarif_file']}" in check
