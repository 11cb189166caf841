"""Microsoft's SARIF multitool, with GitHub's ingestion rules (GHxxxx) switched on, finds no error in
our SARIF: every 'error' case of the acceptance corpus, the fixed run of the snapshot tests (odd file
names, escapes, every level) and a merge of its shards.

Runs when the native binary is available: `PYTEA_SARIF_MULTITOOL` names it (CI exports the path that
`.ci/install-multitool.sh` prints), else `.ci/node/` is looked at; otherwise the test skips. Following
../shared/tools/validate-sarif.sh: the validation config is exported from the tool and every
`GH….Options` rule set to `Error` (they are off by default); the tool exits 0 even when it finds
errors, so its output log is read. Files hold at most 5 runs each (GitHub's GH1004 default limit).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from pytea_ci.diagnostics.result import RunResult
from pytea_ci.report import sarif
from pytea_ci.report.sarif_merge import merge

REPO = Path(__file__).resolve().parent.parent.parent
DEFAULT = REPO / ".ci" / "node" / "node_modules" / "@microsoft" / "sarif-multitool-linux" / "Sarif.Multitool"
RUNS_PER_FILE = 5  # GH1004: GitHub displays at most 5 runs of a file by default
TIME_LIMIT = 60.0  # seconds for the whole validation (it takes ~5 s)


def _multitool() -> Path:
    named = os.environ.get("PYTEA_SARIF_MULTITOOL", "")
    path = Path(named) if named else DEFAULT
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.skip(f"SARIF multitool not found ({'PYTEA_SARIF_MULTITOOL=' + named if named else DEFAULT}); "
                    "run .ci/install-multitool.sh and export PYTEA_SARIF_MULTITOOL")
    return path


@pytest.fixture(scope="module")
def multitool() -> Path:
    return _multitool()


@pytest.fixture(scope="module")
def ghas_config(multitool: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("multitool-config")
    default, config = folder / "default.xml", folder / "ghas.xml"
    subprocess.run([str(multitool), "export-validation-config", str(default)], check=True, capture_output=True,
                   timeout=120)
    text = default.read_text(encoding="utf-8-sig")
    text, enabled = re.subn(r'(<Properties Key="GH\d{4}\.[^"]+\.Options">\s*<Property Key="RuleEnabled" Value=")'
                            r'Default(")', r"\1Error\2", text)
    assert enabled >= 10, "the GitHub rules were not found in the exported configuration"
    config.write_text(text, encoding="utf-8")
    return config


def _validate(multitool: Path, config: Path, files: list[Path], out: Path) -> dict[str, Any]:
    done = subprocess.run(
        [str(multitool), "validate", *map(str, files), "--rule-kind", "Sarif;Ghas", "-c", str(config),
         "-o", str(out), "--log", "ForceOverwrite"],
        capture_output=True, text=True, timeout=300, check=False)
    assert out.exists(), f"the multitool wrote no log:\n{done.stdout}\n{done.stderr}"
    log: dict[str, Any] = json.loads(out.read_text(encoding="utf-8-sig"))
    return log


def _problems(log: dict[str, Any]) -> list[str]:
    problems = []
    for run in log.get("runs", []):
        for inv in run.get("invocations", []):
            if not inv.get("executionSuccessful", True):
                problems.append("multitool: execution failed")
            for note in inv.get("toolExecutionNotifications", []) + inv.get("toolConfigurationNotifications", []):
                if note.get("level", "warning") == "error":
                    problems.append(f"notification: {note.get('message', {}).get('text', '')[:300]}")
        for r in run.get("results", []):
            if r.get("level", "warning") == "error":
                where = r.get("locations", [{}])[0].get("physicalLocation", {})
                problems.append(f"{r.get('ruleId')}: {r.get('message')} at {where.get('artifactLocation', {}).get('uri')}"
                                f":{where.get('region', {}).get('startLine')}")
    return problems


def _write_logs(folder: Path, name: str, runs: list[dict[str, Any]]) -> list[Path]:
    files = []
    for i in range(0, len(runs), RUNS_PER_FILE):
        path = folder / f"{name}-{i // RUNS_PER_FILE:02d}.sarif"
        path.write_text(json.dumps({"$schema": sarif.SCHEMA_URI, "version": "2.1.0",
                                    "runs": runs[i: i + RUNS_PER_FILE]}, indent=1), encoding="utf-8")
        files.append(path)
    return files


def test_multitool_finds_no_error(multitool: Path, ghas_config: Path, acceptance_sarif: list[tuple[str, str]],
                                  result: RunResult, root: str, tmp_path: Path) -> None:
    runs = [json.loads(text)["runs"][0] for _, text in acceptance_sarif]
    files = _write_logs(tmp_path, "acceptance", runs)
    fixture = tmp_path / "fixture.sarif"  # the snapshot run: odd names, escapes, truncation notes, ...
    fixture.write_text(sarif.render(result, root, category="fixture/"), encoding="utf-8")
    shards = [sarif.render(RunResult(result.entries[k::2], tool_version="1.2.3"), root, category="merged/")
              for k in range(2)]
    merged = tmp_path / "merged.sarif"
    merged.write_text(merge(shards), encoding="utf-8")
    started = time.monotonic()
    log = _validate(multitool, ghas_config, [*files, fixture, merged], tmp_path / "out.sarif")
    seconds = time.monotonic() - started
    print(f"\nmultitool: validated {len(runs)} acceptance runs in {len(files)} files + 2 in {seconds:.1f} s")
    assert _problems(log) == []
    assert seconds < TIME_LIMIT


def test_multitool_does_report_errors(multitool: Path, ghas_config: Path, tmp_path: Path) -> None:
    """The harness itself: a log GitHub would reject (an absolute URI without a base, a missing rule
    description) gives errors, so an empty answer above means something."""
    bad = {"$schema": sarif.SCHEMA_URI, "version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "x", "rules": [{"id": "R1"}]}},
        "results": [{"ruleId": "R1", "message": {"text": "m"}, "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": "file:///abs/a.py"}, "region": {"startLine": 1}}}]}]}]}
    path = tmp_path / "bad.sarif"
    path.write_text(json.dumps(bad), encoding="utf-8")
    assert _problems(_validate(multitool, ghas_config, [path], tmp_path / "out.sarif"))
