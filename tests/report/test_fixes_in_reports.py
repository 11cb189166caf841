"""A proven fix (pytea_ci/fixes/) in every format: text shows it under the finding, JSON carries it and
loads it back, SARIF carries it in `fixes` (artifactChanges with replacements) and stays valid."""

from __future__ import annotations

import dataclasses
import json

from pytea_ci.diagnostics import Edit, Fix, Span
from pytea_ci.diagnostics.result import RunResult
from pytea_ci.report import json_format, sarif, text
from tests.report.conftest import MODEL
from tests.report.test_sarif import validate

# `nn.Linear(320, 50)` on pkg/model.py:6: the 320 (bytes 28..31) becomes 500
FIX = Fix("in_features 320 -> 500", (Edit(Span(MODEL, 6, 28, 6, 31), "500"),), True)
UNSAFE = Fix("y -> y.squeeze(1)", (Edit(Span(MODEL, 9, 23, 9, 24), "x.squeeze(1)"),), False)


def with_fixes(result: RunResult) -> RunResult:
    """The fixed run with a safe fix on its first finding and an unsafe one on its second."""
    out = dataclasses.replace(result, entries=[dataclasses.replace(e) for e in result.entries])
    first = out.diagnostics[:2]
    fixes = {first[0].key(): FIX, first[1].key(): UNSAFE}
    for e in out.entries:
        e.diagnostics = [dataclasses.replace(d, fix=fixes.get(d.key())) for d in e.diagnostics]
    return out


def test_text_shows_the_fix_under_the_finding(result: RunResult, root: str) -> None:
    out = text.render(with_fixes(result), root)
    assert "   = fix: in_features 320 -> 500\n" in out
    assert "   = fix: y -> y.squeeze(1) (unsafe: --unsafe-fixes)\n" in out
    assert out.count("= fix:") == 2
    assert "= fix:" not in text.render(result, root)


def test_json_carries_the_fix_and_loads_it_back(result: RunResult, root: str) -> None:
    fixed = with_fixes(result)
    doc = json.loads(json_format.render(fixed, root))
    with_fix = [d for d in doc["diagnostics"] if "fix" in d]
    assert len(with_fix) == 2
    assert with_fix[0]["fix"] == {"title": "in_features 320 -> 500", "safe": True, "edits": [
        {"path": MODEL, "line": 6, "column": 29, "end_line": 6, "end_column": 32, "text": "500"}]}
    loaded = json_format.load(json_format.render(fixed, root), root)
    assert [d.fix for d in loaded.diagnostics] == [d.fix for d in fixed.diagnostics]


def test_sarif_carries_the_fix_as_an_artifact_change_and_validates(result: RunResult, root: str) -> None:
    doc = json.loads(sarif.render(with_fixes(result), root))
    validate(doc)
    results = doc["runs"][0]["results"]
    fixed = [r for r in results if "fixes" in r]
    assert len(fixed) == 2
    (change,) = fixed[0]["fixes"][0]["artifactChanges"]
    assert fixed[0]["fixes"][0]["description"]["text"] == "in_features 320 -> 500"
    assert change["artifactLocation"] == {"uri": MODEL, "uriBaseId": "%SRCROOT%"}
    assert change["replacements"] == [{"deletedRegion": {"startLine": 6, "startColumn": 29, "endLine": 6,
                                                         "endColumn": 32}, "insertedContent": {"text": "500"}}]
    assert fixed[1]["fixes"][0]["description"]["text"] == "y -> y.squeeze(1) (unsafe)"
    assert not any("fixes" in r for r in json.loads(sarif.render(result, root))["runs"][0]["results"])
