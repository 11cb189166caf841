"""The SARIF of every 'error' case of the acceptance corpus (../shared/acceptance) against the official
SARIF 2.1.0 schema, and against what GitHub needs from it. Skipped where the corpus is absent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]

SCHEMA = json.loads((Path(__file__).parent / "sarif-2.1.0.json").read_text(encoding="utf-8"))


def test_every_error_case_gives_schema_valid_sarif(acceptance_sarif: list[tuple[str, str]]) -> None:
    cls = jsonschema.validators.validator_for(SCHEMA)
    validator = cls(SCHEMA, format_checker=cls.FORMAT_CHECKER)
    errors = {case: [f"/{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(json.loads(text))]
              for case, text in acceptance_sarif}
    assert {case: errs for case, errs in errors.items() if errs} == {}
    assert len(acceptance_sarif) >= 80


def _results(text: str) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = json.loads(text)["runs"][0]["results"]
    return results


def test_every_result_is_located_in_the_repository_and_fingerprinted(acceptance_sarif: list[tuple[str, str]]) -> None:
    # (whether each case is *found* is tests/test_acceptance.py's business; here: how it is reported)
    bad, found = [], 0
    for case, text in acceptance_sarif:
        for r in _results(text):
            loc = r["locations"][0]["physicalLocation"]
            found += r["ruleId"] in ("PT001", "PT002", "PT003", "PT004")
            if (loc["artifactLocation"].get("uriBaseId") != "%SRCROOT%" or loc["region"]["startColumn"] < 1
                    or "primaryLocationLineHash" not in r.get("partialFingerprints", {})):
                bad.append((case, r["ruleId"], loc))
    assert bad == []
    assert found >= len(acceptance_sarif) // 2
