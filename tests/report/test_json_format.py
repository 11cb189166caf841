"""The `json` format: snapshot, schema shape, and a lossless round trip through `load`."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from pytea_ci.diagnostics.result import RunResult
from pytea_ci.report import json_format


def test_snapshot(result: RunResult, root: str, snapshot: Callable[[str, str], None]) -> None:
    snapshot("report.json", json_format.render(result, root))


def test_document_shape(result: RunResult, root: str) -> None:
    doc = json.loads(json_format.render(result, root))
    assert doc["version"] == json_format.VERSION == 2
    assert doc["tool"] == {"name": "pytea-ci", "version": "1.2.3"}
    assert doc["summary"]["by_level"] == {"error": 4, "warning": 2, "note": 3}
    assert doc["summary"]["incomplete"] == 1  # findings and a budget note: incomplete too
    assert doc["summary"]["coverage"] == {"reached": 24, "checked": 22, "ratio": round(22 / 24, 4)}
    assert (doc["summary"]["entries"], doc["summary"]["analyzed"], doc["summary"]["cached"]) == (6, 5, 1)
    first = next(d for d in doc["diagnostics"] if d["rule"] == "PT001")
    assert first["slug"] == "shape-mismatch"
    assert (first["line"], first["column"], first["end_column"]) == (9, 16, 26)  # 1-based, end exclusive
    trace_col = first["trace"][1]["column"]
    assert trace_col == 'tag = "données 🚀"; y = '.__len__() + 1  # characters, not bytes
    train = doc["entries"][0]
    assert train["coverage"] == {"reached": 20, "checked": 18, "skipped": 2, "ratio": 0.9, "checks_decided": 9,
                                 "checks_skipped": 1}
    timm = train["unknown_origins"][0]
    assert (timm["line"], timm["column"], timm["ops"]) == (6, trace_col, 1)  # characters, not bytes
    assert train["ended_paths"] == [{"kind": "exception", "path": "train.py", "line": 8, "column": 1,
                                     "reason": "ValueError raised by `raise ValueError()`", "module": None,
                                     "paths": 1}]
    assert "unknown_origins" not in train["stats"] and train["stats"]["unknowns"] == 2


def test_round_trip(result: RunResult, root: str) -> None:
    text = json_format.render(result, root)
    loaded = json_format.load(text, root)
    assert loaded.diagnostics == result.diagnostics
    assert [(e.entry, e.status, e.cached, e.error) for e in loaded.entries] == \
        [(e.entry, e.status, e.cached, e.error) for e in result.entries]
    assert [e.stats.unknown_origins for e in loaded.entries] == [e.stats.unknown_origins for e in result.entries]
    assert json_format.render(loaded, root) == text


def test_rejects_other_versions(root: str) -> None:
    with pytest.raises(ValueError, match="version"):
        json_format.load(json.dumps({"version": 1}), root)
