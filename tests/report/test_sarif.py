"""The `sarif` format: snapshot, the official schema, and what GitHub code scanning relies on."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from sarif_om import Message, Result  # type: ignore[import-untyped]

from pytea_ci.diagnostics import Diagnostic, Frame, Related, Severity, Span
from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.report import sarif
from pytea_ci.report.fingerprint import line_hashes
from pytea_ci.report.sarif_json import build, to_data

SCHEMA = json.loads((Path(__file__).parent / "sarif-2.1.0.json").read_text(encoding="utf-8"))


def render(result: RunResult, root: str, **kwargs: Any) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(sarif.render(result, root, **kwargs))
    return doc


def validate(doc: dict[str, Any]) -> None:
    cls = jsonschema.validators.validator_for(SCHEMA)
    errors = [f"/{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in cls(SCHEMA, format_checker=cls.FORMAT_CHECKER).iter_errors(doc)]
    assert errors == []


def walk(value: Any) -> Iterator[Any]:
    yield value
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for child in children:
        yield from walk(child)


def by_rule(doc: dict[str, Any], rule: str, uri: str | None = None) -> dict[str, Any]:
    """The first result of `rule` (in the file `uri` when given)."""
    return next(r for r in doc["runs"][0]["results"] if r["ruleId"] == rule
                and uri in (None, r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]))


def test_snapshot(result: RunResult, root: str, snapshot: Callable[[str, str], None]) -> None:
    text = sarif.render(result, root, indent=2).replace(Path(root).as_uri(), "file:///ROOT")
    snapshot("report.sarif", text)


def test_valid_against_the_official_schema(result: RunResult, root: str) -> None:
    validate(render(result, root))
    validate(render(RunResult(), root, category=""))


def test_no_nulls_and_log_header(result: RunResult, root: str) -> None:
    doc = render(result, root)
    assert list(doc)[:2] == ["$schema", "version"]
    assert doc["$schema"] == sarif.SCHEMA_URI and doc["version"] == "2.1.0"
    assert all(v is not None for v in walk(doc))


def test_level_always_explicit(result: RunResult, root: str) -> None:
    doc = render(result, root)
    assert by_rule(doc, "PT001")["level"] == "error"  # equal to the rule default
    assert by_rule(doc, "PT002")["level"] == "warning"  # equal to the default, and to sarif-om's default
    assert by_rule(doc, "PT003", "train.py")["level"] == "warning"  # lowered from the rule's "error"
    assert all("level" in r for r in doc["runs"][0]["results"])


def test_serializer_keeps_explicit_defaults_and_drops_unset() -> None:
    explicit = to_data(build(Result, message=build(Message, text="m"), level="warning", rule_id=None))
    assert explicit == {"message": {"text": "m"}, "level": "warning"}
    plain = to_data(Result(message=Message(text="m")))
    assert plain == {"message": {"text": "m"}}  # kind="fail", rank=-1, ruleIndex=-1 are unset defaults


def test_rules_metadata(result: RunResult, root: str) -> None:
    driver = render(result, root)["runs"][0]["tool"]["driver"]
    assert driver["name"] == "pytea-ci" and driver["semanticVersion"] == "1.2.3"
    rule = driver["rules"][0]
    assert (rule["id"], rule["name"], rule["defaultConfiguration"]["level"]) == ("PT001", "shape-mismatch", "error")
    assert rule["help"]["markdown"].startswith("## PT001 shape-mismatch")
    assert rule["properties"]["problem.severity"] == "error" and rule["properties"]["precision"]
    for r in driver["rules"]:
        assert len(r["shortDescription"]["text"]) <= 1024 and len(r["fullDescription"]["text"]) <= 1024
    assert by_rule(render(result, root), "PT002")["ruleIndex"] == 1


def test_locations_regions_and_fingerprints(result: RunResult, root: str) -> None:
    doc = render(result, root)
    run = doc["runs"][0]
    assert run["columnKind"] == "utf16CodeUnits"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == Path(root).as_uri() + "/"
    res = by_rule(doc, "PT003", "train.py")
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "train.py", "uriBaseId": "%SRCROOT%"}
    prefix = 'tag = "données 🚀"; y = '
    assert loc["region"] == {"startLine": 6, "startColumn": len(prefix) + 2, "endLine": 6,
                             "endColumn": len(prefix) + 2 + len("net(x)")}  # 🚀 counts two UTF-16 units
    hashes = line_hashes((Path(root) / "train.py").read_text(encoding="utf-8"))
    assert res["partialFingerprints"]["primaryLocationLineHash"] == hashes[5]
    odd = by_rule(doc, "PT004")["locations"][0]["physicalLocation"]["artifactLocation"]
    assert odd["uri"] == "pkg/odd%20name.py"
    assert "partialFingerprints" not in by_rule(doc, "PT010")  # the file cannot be read


def test_related_locations_are_linked_from_the_message(result: RunResult, root: str) -> None:
    res = by_rule(render(result, root), "PT001")
    assert [r["id"] for r in res["relatedLocations"]] == [1, 2]
    assert res["message"]["text"].endswith(r"Related: [in_features=320 \[set here\]](1), [x: \[64, 500\]](2)")
    assert res["relatedLocations"][0]["message"]["text"] == "in_features=320 [set here]"


def test_link_like_text_is_escaped(tmp_path: Path) -> None:
    d = Diagnostic("PT001", Severity.ERROR, Span("a.py", 1), "see [x](1) and [64, 3]")
    res = render(RunResult([EntryResult("a.py", [d])]), str(tmp_path))["runs"][0]["results"][0]
    assert res["message"]["text"] == r"see \[x](1) and [64, 3]"


def test_code_flow_is_inline_and_ends_at_the_finding(result: RunResult, root: str) -> None:
    res = by_rule(render(result, root), "PT002")
    steps = res["codeFlows"][0]["threadFlows"][0]["locations"]
    assert all("index" not in s and "location" in s for s in steps)
    assert steps[0]["location"]["message"]["text"] == "for batch in loader"
    assert steps[-1]["location"]["physicalLocation"] == res["locations"][0]["physicalLocation"]
    path = by_rule(render(result, root), "PT001")["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [s["location"]["message"]["text"] for s in path] == [
        "x: [64, 500]", "net(x) calls Net.forward with x: [64, 500]",
        "self.fc(x) calls Linear(320, 50) with x: [64, 500]"]  # from the entry point to the failing call
    assert by_rule(render(result, root), "PT002")["properties"]["counterexample"] == {"n": 1000, "batch_size": 64}


def test_invocation_reports_failed_entry_points(result: RunResult, root: str) -> None:
    inv = render(result, root)["runs"][0]["invocations"][0]
    assert inv["executionSuccessful"] is False
    notes = {(n["level"], n["associatedRule"]["id"]): n for n in inv["toolExecutionNotifications"]}
    assert set(notes) == {("error", "PT011"), ("warning", "PT011"), ("warning", "PT013")}
    assert notes["error", "PT011"]["message"]["text"].startswith("tools/crash.py: the analysis failed")
    # an entry point with findings that also reached a budget is reported as stopped at a budget
    budget = notes["warning", "PT011"]
    assert budget["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "pkg/odd%20name.py"
    assert "path budget (1000) reached" in budget["message"]["text"]
    nothing = notes["warning", "PT013"]
    assert nothing["message"]["text"].startswith("eval.py: nothing checked")
    assert nothing["locations"][0]["physicalLocation"]["region"]["startLine"] == 1
    clean = render(RunResult([EntryResult("a.py")]), root)["runs"][0]
    assert clean["invocations"] == [{"executionSuccessful": True}] and clean["results"] == []


def test_run_properties_carry_coverage(result: RunResult, root: str) -> None:
    cov = render(result, root)["runs"][0]["properties"]["pytea-ci/coverage"]
    assert (cov["reached"], cov["checked"], cov["ratio"]) == (24, 22, round(22 / 24, 4))
    train = next(e for e in cov["entries"] if e["entry"] == "train.py")
    assert (train["reached"], train["checked"], train["skipped"], train["checks_skipped"]) == (20, 18, 2, 1)
    assert train["topUnknownOrigins"][0] == {"what": "third-party module 'timm' (import timm)", "path": "train.py",
                                             "line": 6, "ops": 1}
    assert "ratio" not in next(e for e in cov["entries"] if e["entry"] == "eval.py")  # nothing reached


@pytest.mark.parametrize(("category", "expected"), [("pytea-ci/", "pytea-ci/"), ("models", "models/"),
                                                    ("ci/py3.11", "ci/py3.11")])
def test_category(root: str, category: str, expected: str) -> None:
    assert render(RunResult(), root, category=category)["runs"][0]["automationDetails"] == {"id": expected}
    assert "automationDetails" not in render(RunResult(), root, category="")["runs"][0]


def test_limits_truncate_with_notifications(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sarif, "MAX_RESULTS", 2)
    monkeypatch.setattr(sarif, "MAX_LOCATIONS", 1)
    monkeypatch.setattr(sarif, "MAX_FLOW_LOCATIONS", 3)
    trace = tuple(Frame(Span("a.py", i), f"step {i}") for i in range(1, 6))
    diags = [
        Diagnostic("PT010", Severity.NOTE, Span("a.py", 1), "a note"),
        Diagnostic("PT001", Severity.ERROR, Span("a.py", 9), "an error", trace=trace,
                   related=(Related(Span("a.py", 2), "r1"), Related(Span("a.py", 3), "r2"))),
        Diagnostic("PT002", Severity.WARNING, Span("a.py", 8), "a warning"),
    ]
    doc = render(RunResult([EntryResult("a.py", diags)]), str(tmp_path))
    validate(doc)
    run = doc["runs"][0]
    assert [r["ruleId"] for r in run["results"]] == ["PT002", "PT001"]  # the gravest, in position order
    error = by_rule(doc, "PT001")
    assert len(error["relatedLocations"]) == 1 and "(2)" not in error["message"]["text"]
    steps = error["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [s["location"]["physicalLocation"]["region"]["startLine"] for s in steps] == [1, 2, 9]
    notes = [n["message"]["text"] for n in run["invocations"][0]["toolExecutionNotifications"]]
    assert len(notes) == 3 and any("1 results were left out" in n for n in notes)


def test_unknown_rule_and_path_outside_root(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    outside = tmp_path_factory.mktemp("elsewhere") / "x.py"
    d = Diagnostic("PT099", Severity.WARNING, Span(str(outside), 2), "from a newer catalogue")
    doc = render(RunResult([EntryResult("x.py", [d])]), str(tmp_path))
    validate(doc)
    res = doc["runs"][0]["results"][0]
    assert doc["runs"][0]["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == "PT099"
    assert res["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": outside.as_uri()}
