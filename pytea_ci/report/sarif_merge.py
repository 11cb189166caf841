"""Merge the SARIF logs of several shards (`check --shard K/N`) into one log with ONE run.

Code scanning treats each run (tool + category) as one analysis: uploading the shards' runs side by
side would make each shard replace the others' alerts. `merge` builds the single run that an unsharded
`check` would have written:

- **Rules**: one table, the union of the shards' rules by `id`, in order of first appearance (the
  catalogue first, since every pytea-ci log lists it whole). Every `ruleIndex` (and `rule.index`,
  `associatedRule.index`, `descriptor.index` in notifications) is re-pointed into that table.
- **Results**: the union, de-duplicated like `RunResult.diagnostics` (one finding per rule and start
  position; of duplicates, the one whose `properties.entry` sorts first is kept, then the earliest
  input), and ordered by position: path (the URI decoded), start line, start column, rule id, i.e.
  the order of an unsharded run.
- **Invocations**: one, `executionSuccessful` only when every shard's was, with the notifications
  of every shard (tool execution and configuration), in input order.
- **Category** (`automationDetails.id`): every input must have the same one, unless `category` is
  given, which replaces them. Tool name and `columnKind` must agree too; a different tool version is
  kept from the first input and reported as a warning notification.
- GitHub's limit on results per run is enforced after merging, as in `sarif.render`: the gravest
  results are kept and a notification says how many were left out.

Inputs are file paths or SARIF texts, each with any number of runs (all merged). Anything
inconsistent raises `MergeError` (a ValueError) with a message naming the input.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from pytea_ci.report.sarif import COVERAGE_KEY, MAX_RESULTS, SCHEMA_URI

_RANK = {"error": 0, "warning": 1, "note": 2, "none": 3}
_Input = str | os.PathLike[str]


class MergeError(ValueError):
    """The inputs cannot be merged into one run (not SARIF, another tool or category, ...)."""


def merge(inputs: Iterable[_Input], *, category: str | None = None, indent: int | None = None) -> str:
    """Merge SARIF logs (paths, or texts starting with `{`) into one log of one run, as JSON text."""
    data = merge_data([_load(item) for item in inputs], category=category)
    separators = None if indent is not None else (",", ":")
    return json.dumps(data, indent=indent, separators=separators, ensure_ascii=False) + "\n"


def merge_files(paths: Sequence[_Input], output: _Input, *, category: str | None = None) -> int:
    """Merge `paths` into the file `output`; returns the number of results written."""
    text = merge(paths, category=category)
    Path(output).write_text(text, encoding="utf-8")
    return len(json.loads(text)["runs"][0]["results"])


def _load(item: _Input | tuple[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """(name for messages, parsed log)."""
    if isinstance(item, tuple):
        return item
    if isinstance(item, str) and item.lstrip().startswith("{"):
        name, text = "<text>", item
    else:
        name = os.fspath(item)
        try:
            text = Path(name).read_text(encoding="utf-8-sig")
        except OSError as e:
            raise MergeError(f"cannot read {name}: {e.strerror}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise MergeError(f"{name}: not JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("version") != "2.1.0" or not isinstance(doc.get("runs"), list):
        raise MergeError(f"{name}: not a SARIF 2.1.0 log")
    return name, doc


def merge_data(logs: Sequence[tuple[str, dict[str, Any]]], *, category: str | None = None) -> dict[str, Any]:
    """Merge parsed logs, given as (name, log) pairs, into one log (as Python data)."""
    runs = [(name, run) for name, doc in logs for run in doc["runs"]]
    if not runs:
        raise MergeError("nothing to merge: no SARIF run in the inputs")
    merger = _Merger(runs[0][1], category)
    for name, run in runs:
        merger.add(name, run)
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [merger.run()]}


def _position(result: dict[str, Any]) -> tuple[str, int, int]:
    loc = (result.get("locations") or [{}])[0].get("physicalLocation", {})
    uri = unquote(loc.get("artifactLocation", {}).get("uri", ""))
    region = loc.get("region", {})
    return uri, region.get("startLine", 0), region.get("startColumn", 0)


def _identity(result: dict[str, Any]) -> tuple[Any, ...]:
    """What makes two results the same finding: `Diagnostic.key()` in SARIF terms."""
    loc = (result.get("locations") or [{}])[0].get("physicalLocation", {})
    return (result.get("ruleId"), loc.get("artifactLocation", {}).get("uriBaseId"), *_position(result))


class _Merger:
    def __init__(self, first: dict[str, Any], category: str | None) -> None:
        self.first = first
        self.driver = first.get("tool", {}).get("driver", {})
        self.category = category
        self.rules: list[dict[str, Any]] = []
        self.rule_index: dict[str, int] = {}
        self.results: dict[tuple[Any, ...], tuple[tuple[str, int], dict[str, Any]]] = {}
        self.order = 0
        self.successful = True
        self.execution: list[dict[str, Any]] = []
        self.configuration: list[dict[str, Any]] = []
        self.base_ids: dict[str, Any] = {}
        self.warnings: list[str] = []
        self.coverage: list[dict[str, Any]] = []  # the entries of every run's `pytea-ci/coverage` property

    # ----- one input run ---------------------------------------------------------------------------
    def add(self, name: str, run: dict[str, Any]) -> None:
        driver = run.get("tool", {}).get("driver", {})
        if driver.get("name") != self.driver.get("name"):
            raise MergeError(f"{name}: a run of {driver.get('name')!r}, not {self.driver.get('name')!r}")
        version = (driver.get("semanticVersion"), driver.get("version"))
        if version != (self.driver.get("semanticVersion"), self.driver.get("version")):
            self.warnings.append(f"{name}: made by version {version[0] or version[1]} of the tool, merged "
                                 f"under {self.driver.get('semanticVersion') or self.driver.get('version')}.")
        if self.category is None and _category(run) != _category(self.first):
            raise MergeError(f"{name}: category {_category(run)!r} differs from {_category(self.first)!r} "
                             "(give the category to merge them under one)")
        if run.get("columnKind") != self.first.get("columnKind"):
            raise MergeError(f"{name}: columnKind {run.get('columnKind')!r} differs from "
                             f"{self.first.get('columnKind')!r}")
        for key, value in (run.get("originalUriBaseIds") or {}).items():
            self.base_ids.setdefault(key, value)
        self.coverage += ((run.get("properties") or {}).get(COVERAGE_KEY) or {}).get("entries", [])
        local = [self.add_rule(rule) for rule in driver.get("rules", [])]
        for result in run.get("results", []):
            self.add_result(self.reindexed(dict(result), local, "ruleId"))
        for inv in run.get("invocations", []):
            self.successful &= bool(inv.get("executionSuccessful", True))
            self.execution += [self.reindex_note(n, local) for n in inv.get("toolExecutionNotifications", [])]
            self.configuration += [self.reindex_note(n, local)
                                   for n in inv.get("toolConfigurationNotifications", [])]

    def add_rule(self, rule: dict[str, Any]) -> int:
        rid = rule.get("id", "")
        if rid not in self.rule_index:
            self.rule_index[rid] = len(self.rules)
            self.rules.append(rule)
        return self.rule_index[rid]

    def new_index(self, rule_id: str | None, old: int | None, local: list[int]) -> int | None:
        if rule_id is not None and rule_id in self.rule_index:
            return self.rule_index[rule_id]
        if old is not None and 0 <= old < len(local):
            return local[old]
        return None

    def reindexed(self, obj: dict[str, Any], local: list[int], id_key: str) -> dict[str, Any]:
        """`obj` with `ruleIndex` (a result) re-pointed into the merged table."""
        if "ruleIndex" in obj or obj.get(id_key) is not None:
            index = self.new_index(obj.get(id_key), obj.get("ruleIndex"), local)
            if index is None:
                obj.pop("ruleIndex", None)
            else:
                obj["ruleIndex"] = index
                obj.setdefault(id_key, self.rules[index].get("id"))
        if isinstance(obj.get("rule"), dict):
            obj["rule"] = self.reference(obj["rule"], local)
        return obj

    def reference(self, ref: dict[str, Any], local: list[int]) -> dict[str, Any]:
        """A reportingDescriptorReference into the driver's rules, re-pointed."""
        if "toolComponent" in ref:  # a rule of another component (an extension): left as it is
            return ref
        ref = dict(ref)
        index = self.new_index(ref.get("id"), ref.get("index"), local)
        if index is None:
            ref.pop("index", None)
        else:
            ref["index"] = index
        return ref

    def reindex_note(self, note: dict[str, Any], local: list[int]) -> dict[str, Any]:
        note = dict(note)
        for key in ("associatedRule", "descriptor"):
            if isinstance(note.get(key), dict):
                note[key] = self.reference(note[key], local)
        return note

    def add_result(self, result: dict[str, Any]) -> None:
        key = _identity(result)
        preference = (str(result.get("properties", {}).get("entry", "")), self.order)
        self.order += 1
        if key not in self.results or preference < self.results[key][0]:
            self.results[key] = (preference, result)

    # ----- the merged run --------------------------------------------------------------------------
    def kept_results(self) -> list[dict[str, Any]]:
        ordered = sorted((r for _, r in self.results.values()),
                         key=lambda r: (*_position(r), r.get("ruleId", "")))
        if len(ordered) <= MAX_RESULTS:
            return ordered
        gravest = sorted(range(len(ordered)), key=lambda i: (_RANK.get(ordered[i].get("level", "warning"), 1), i))
        kept = set(gravest[:MAX_RESULTS])
        self.warnings.append(f"{len(ordered) - MAX_RESULTS} results were left out: GitHub accepts at most "
                             f"{MAX_RESULTS} per run; the gravest were kept.")
        return [r for i, r in enumerate(ordered) if i in kept]

    def run(self) -> dict[str, Any]:
        results = self.kept_results()
        notes = self.execution + [{"message": {"text": w}, "level": "warning"} for w in self.warnings]
        invocation: dict[str, Any] = {"executionSuccessful": self.successful}
        if notes:
            invocation["toolExecutionNotifications"] = notes
        if self.configuration:
            invocation["toolConfigurationNotifications"] = self.configuration
        out: dict[str, Any] = {}
        for key, value in self.first.items():  # the first run's layout and any property it has
            if key == "tool":
                out[key] = {**value, "driver": {**self.driver, "rules": self.rules}}
            elif key == "results":
                out[key] = results
            elif key == "invocations":
                out[key] = [invocation]
            elif key == "originalUriBaseIds":
                out[key] = self.base_ids
            elif key == "automationDetails" and self.category is not None:
                continue
            elif key == "properties" and COVERAGE_KEY in value:
                out[key] = {**value, COVERAGE_KEY: self.merged_coverage()}
            else:
                out[key] = value
        out.setdefault("results", results)
        out.setdefault("invocations", [invocation])
        if self.base_ids:
            out.setdefault("originalUriBaseIds", self.base_ids)
        if self.category:
            out["automationDetails"] = {"id": self.category if "/" in self.category else self.category + "/"}
        return out


    def merged_coverage(self) -> dict[str, Any]:
        """The shards' coverage figures added up, entries in the order of an unsharded run."""
        # A module checked alone (`file.py::Class`) by two shards is one module: counted once, with the
        # figures of the shard that reached the most of it (the shards' runs of it are the same analysis).
        unique: dict[tuple[str, str], dict[str, Any]] = {}
        for e in self.coverage:
            name = (str(e.get("entry", "")), str(e.get("construction", "")))
            if name not in unique or int(e.get("reached", 0)) > int(unique[name].get("reached", 0)):
                unique[name] = e
        entries = sorted(unique.values(), key=lambda e: (str(e.get("entry", "")), str(e.get("construction", ""))))
        reached = sum(int(e.get("reached", 0)) for e in entries)
        checked = sum(int(e.get("checked", 0)) for e in entries)
        return {"reached": reached, "checked": checked, "ratio": round(checked / reached, 4) if reached else None,
                "entries": entries}


def _category(run: dict[str, Any]) -> str | None:
    details = run.get("automationDetails")
    return details.get("id") if isinstance(details, dict) else None
