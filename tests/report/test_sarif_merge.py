"""`sarif_merge.merge`: the shards of a run merged into one run equal the unsharded run."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from pytea_ci.diagnostics import Diagnostic, Severity, Span
from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.report import sarif, sarif_merge
from pytea_ci.report.sarif_merge import MergeError, merge

SCHEMA = json.loads((Path(__file__).parent / "sarif-2.1.0.json").read_text(encoding="utf-8"))


def _validate(doc: dict[str, Any]) -> None:
    cls = jsonschema.validators.validator_for(SCHEMA)
    assert [e.message for e in cls(SCHEMA).iter_errors(doc)] == []


def _entries(result: RunResult) -> list[EntryResult]:
    """The fixed run's entry points, plus one that re-reports a finding of a shared module and one
    with a rule from a newer catalogue; in path order (the order the CLI analyzes them in)."""
    shared = next(d for d in result.diagnostics if d.rule == "PT001")
    extra = [
        EntryResult("eval.py", [dataclasses.replace(shared, message="seen from eval.py", entry="eval.py")],
                    status="findings"),
        EntryResult("zoo.py", [Diagnostic("PT099", Severity.WARNING, Span("train.py", 2), "new rule",
                                          entry="zoo.py")], status="findings"),
    ]
    entries = [e for e in result.entries if e.entry != "eval.py"] + extra
    return sorted(entries, key=lambda e: e.entry)


def _canonical(doc: dict[str, Any]) -> dict[str, Any]:
    """The documented freedom of `merge`: notifications in input order rather than entry order."""
    for inv in doc["runs"][0].get("invocations", []):
        inv.get("toolExecutionNotifications", []).sort(key=lambda n: n["message"]["text"])
    return doc


@pytest.mark.parametrize("shards", [1, 2, 3, 5])
def test_merged_shards_equal_the_unsharded_run(result: RunResult, root: str, shards: int, tmp_path: Path) -> None:
    entries = _entries(result)
    whole = RunResult(entries, seconds=2.5, tool_version="1.2.3")
    unsharded = json.loads(sarif.render(whole, root))
    paths = []
    for k in range(shards):
        part = RunResult([e for i, e in enumerate(entries) if i % shards == k], tool_version="1.2.3")
        path = tmp_path / f"shard-{k}.sarif"
        path.write_text(sarif.render(part, root, indent=2), encoding="utf-8")
        paths.append(path)
    merged = json.loads(merge(list(reversed(paths))))  # any input order
    _validate(merged)
    assert _canonical(merged) == _canonical(unsharded)
    run = merged["runs"][0]
    kept = next(r for r in run["results"] if r["ruleId"] == "PT001")
    assert kept["properties"]["entry"] == "eval.py"  # of duplicates, the first entry point's
    new = next(r for r in run["results"] if r["ruleId"] == "PT099")
    assert run["tool"]["driver"]["rules"][new["ruleIndex"]]["id"] == "PT099"
    assert run["invocations"][0]["executionSuccessful"] is False  # tools/crash.py failed in one shard


def test_texts_and_paths_and_merge_files(result: RunResult, root: str, tmp_path: Path) -> None:
    a = sarif.render(RunResult(result.entries[:2], tool_version="1.2.3"), root)
    b_path = tmp_path / "b.sarif"
    b_path.write_text(sarif.render(RunResult(result.entries[2:], tool_version="1.2.3"), root), encoding="utf-8")
    out = tmp_path / "all.sarif"
    count = sarif_merge.merge_files([a, b_path], out)
    assert count == len(result.diagnostics)
    assert json.loads(out.read_text(encoding="utf-8")) == json.loads(merge([a, str(b_path)]))


def _log(rules: list[str], results: list[tuple[str, int]], category: str | None = "c/", **run: Any) -> str:
    """A hand-made log: rules in the given order, results (rule id, line) pointing into them."""
    body: dict[str, Any] = {
        "tool": {"driver": {"name": "pytea-ci", "version": "1", "rules": [{"id": r} for r in rules]}},
        "results": [{"ruleId": rid, "ruleIndex": rules.index(rid), "level": "error", "message": {"text": f"{rid}@{line}"},
                     "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.py"},
                                                         "region": {"startLine": line}}}]}
                    for rid, line in results],
        "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": [
            {"message": {"text": f"from {rules}"}, "level": "note",
             "associatedRule": {"id": rules[-1], "index": len(rules) - 1}}]}],
        **run,
    }
    if category is not None:
        body["automationDetails"] = {"id": category}
    return json.dumps({"version": "2.1.0", "runs": [body]})


def test_rule_indexes_are_repointed_into_one_table() -> None:
    merged = json.loads(merge([_log(["B", "A"], [("A", 3), ("B", 1)]), _log(["C", "A"], [("C", 2), ("A", 4)])]))
    _validate(merged)
    run = merged["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rules == ["B", "A", "C"]
    assert [(r["ruleId"], rules[r["ruleIndex"]], r["locations"][0]["physicalLocation"]["region"]["startLine"])
            for r in run["results"]] == [("B", "B", 1), ("C", "C", 2), ("A", "A", 3), ("A", "A", 4)]
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert [rules[n["associatedRule"]["index"]] for n in notes] == [n["associatedRule"]["id"] for n in notes] == ["A", "A"]
    assert run["automationDetails"] == {"id": "c/"} and len(merged["runs"]) == 1


def test_a_result_with_only_an_index_keeps_its_rule() -> None:
    log = json.loads(_log(["B", "A"], [("A", 1)]))
    del log["runs"][0]["results"][0]["ruleId"]
    merged = json.loads(merge([_log(["A"], []), json.dumps(log)]))
    res = merged["runs"][0]["results"][0]
    assert merged["runs"][0]["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == "A" == res["ruleId"]


def test_category_must_agree_unless_given() -> None:
    with pytest.raises(MergeError, match="category"):
        merge([_log(["A"], [], "x/"), _log(["A"], [], "y/")])
    merged = json.loads(merge([_log(["A"], [], "x/"), _log(["A"], [], None)], category="all"))
    assert merged["runs"][0]["automationDetails"] == {"id": "all/"}
    assert "automationDetails" not in json.loads(merge([_log(["A"], [])], category=""))["runs"][0]


def test_refuses_what_is_not_one_tools_sarif(tmp_path: Path) -> None:
    other = json.loads(_log(["A"], []))
    other["runs"][0]["tool"]["driver"]["name"] = "codeql"
    with pytest.raises(MergeError, match="codeql"):
        merge([_log(["A"], []), json.dumps(other)])
    with pytest.raises(MergeError, match="not a SARIF"):
        merge(['{"version": "2.0.0", "runs": []}'])
    with pytest.raises(MergeError, match="cannot read"):
        merge([tmp_path / "missing.sarif"])
    with pytest.raises(MergeError, match="no SARIF run"):
        merge([])


def test_another_tool_version_is_kept_with_a_warning() -> None:
    newer = json.loads(_log(["A"], []))
    newer["runs"][0]["tool"]["driver"]["version"] = "2"
    notes = json.loads(merge([_log(["A"], []), json.dumps(newer)]))["runs"][0]["invocations"][0]
    assert any("version 2" in n["message"]["text"] for n in notes["toolExecutionNotifications"])


def test_result_limit_after_merging(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sarif_merge, "MAX_RESULTS", 2)
    log = json.loads(_log(["A"], [("A", 1), ("A", 2), ("A", 3)]))
    log["runs"][0]["results"][0]["level"] = "note"
    merged = json.loads(merge([json.dumps(log)]))["runs"][0]
    assert [r["message"]["text"] for r in merged["results"]] == ["A@2", "A@3"]  # the gravest kept
    assert any("1 results were left out" in n["message"]["text"]
               for n in merged["invocations"][0]["toolExecutionNotifications"])


def test_a_module_checked_alone_by_two_shards_counts_once(result: RunResult, root: str, tmp_path: Path) -> None:
    from pytea_ci.diagnostics.result import EntryStats

    module = EntryResult("net.py::Net", [], status="ok", stats=EntryStats(ops_reached=16, ops_checked=16))
    paths = []
    for k, entry in enumerate(("a.py", "b.py")):
        part = RunResult([EntryResult(entry, [], status="ok", stats=EntryStats(ops_reached=5, ops_checked=5)),
                          module], tool_version="1.2.3")
        paths.append(tmp_path / f"s{k}.sarif")
        paths[-1].write_text(sarif.render(part, root), encoding="utf-8")
    coverage = json.loads(merge(paths))["runs"][0]["properties"][sarif_merge.COVERAGE_KEY]
    assert (coverage["reached"], coverage["checked"]) == (26, 26)
    assert [e["entry"] for e in coverage["entries"]] == ["a.py", "b.py", "net.py::Net"]
