"""The GitHub Action's entry point (`python -m pytea_ci.action`, what the Docker image runs), end to end
with a simulated runner: an event JSON at GITHUB_EVENT_PATH, GITHUB_WORKSPACE, GITHUB_OUTPUT,
GITHUB_STEP_SUMMARY and INPUT_* variables spelled as the runner spells them (hyphens kept), against
scratch git repositories: a pull request (base and head commits), pushes, workflow_dispatch, shallow
clones (deepened, or falling back to every entry point), invalid inputs."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pytea_ci import action
from tests.integrations.conftest import (
    MODEL_BUG,
    MODEL_OK,
    OTHER,
    REPO,
    TRAIN,
    commit_all,
    git,
)

SCHEMA = json.loads((REPO / "tests" / "report" / "sarif-2.1.0.json").read_text())
VALIDATE_SARIF = REPO.parent / "shared" / "tools" / "validate-sarif.sh"


@dataclass
class Run:
    code: int
    log: str
    outputs: dict[str, str]
    summary: str
    sarif: dict[str, Any]

    @property
    def annotations(self) -> list[str]:
        kinds = ("::error file=", "::warning file=", "::notice file=")
        return [line for line in self.log.splitlines() if line.startswith(kinds)]

    @property
    def results(self) -> list[tuple[str, str, int]]:
        out = []
        for r in self.sarif["runs"][0]["results"]:
            loc = r["locations"][0]["physicalLocation"]
            out.append((r["ruleId"], loc["artifactLocation"]["uri"], loc["region"]["startLine"]))
        return out


@dataclass
class Pr:
    origin: Path
    base: str
    head: str


def make_pr(root: Path, model_head: str = MODEL_BUG, extra: dict[str, str] | None = None,
            base_extra: dict[str, str] | None = None) -> Pr:
    """origin: `main` (model OK, train.py, other.py, `base_extra`) and `feature` (one commit on top that
    writes model_head and `extra`), checked out at feature's head as actions/checkout leaves a pull
    request's workspace."""
    origin = root / "origin"
    origin.mkdir(parents=True)
    (origin / "model.py").write_text(MODEL_OK)
    (origin / "train.py").write_text(TRAIN)
    (origin / "other.py").write_text(OTHER)
    for name, text in (base_extra or {}).items():
        (origin / name).write_text(text)
    git(origin, "init", "-q")
    base = commit_all(origin, "base")
    git(origin, "checkout", "-q", "-b", "feature")
    (origin / "model.py").write_text(model_head)
    for name, text in (extra or {}).items():
        (origin / name).write_text(text)
    head = commit_all(origin, "change")
    return Pr(origin, base, head)


def pr_event(pr: Pr) -> dict[str, Any]:
    return {"action": "synchronize", "number": 7,
            "pull_request": {"number": 7, "base": {"ref": "main", "sha": pr.base},
                             "head": {"ref": "feature", "sha": pr.head}}}


def run_action(workspace: Path, event_name: str, event: dict[str, Any] | None, sha: str = "",
               environment: dict[str, str] | None = None, **inputs: str) -> Run:
    scratch = workspace.parent / f"runner-{workspace.name}"
    scratch.mkdir(exist_ok=True)
    event_path = scratch / "event.json"
    event_path.write_text(json.dumps(event or {}))
    output, summary = scratch / "output", scratch / "summary.md"
    for f in (output, summary):
        f.write_text("")
    env = {"GITHUB_ACTIONS": "true", "CI": "true", "GITHUB_EVENT_NAME": event_name,
           "GITHUB_EVENT_PATH": str(event_path), "GITHUB_WORKSPACE": str(workspace), "GITHUB_OUTPUT": str(output),
           "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_SHA": sha, "PATH": os.environ.get("PATH", ""),
           **(environment or {})}
    inputs.setdefault("args", "--jobs 1")
    for name, value in inputs.items():
        env[f"INPUT_{name.upper()}"] = value  # the runner keeps hyphens: INPUT_SARIF-FILE
    out = io.StringIO()
    code = action.run(env, out=out, err=io.StringIO())
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
    sarif_path = workspace / inputs.get("sarif_file", inputs.get("sarif-file", "pytea-ci.sarif"))
    sarif = json.loads(sarif_path.read_text()) if sarif_path.exists() else {}
    return Run(code, out.getvalue(), outputs, summary.read_text(), sarif)


def hyphens(**inputs: str) -> dict[str, str]:
    return {k.replace("_", "-"): v for k, v in inputs.items()}


# ----- pull requests -------------------------------------------------------------------------------
def test_pull_request(tmp_path: Path) -> None:
    pr = make_pr(tmp_path)
    r = run_action(pr.origin, "pull_request", pr_event(pr), sha=pr.head, **hyphens(sarif_file="out/pytea.sarif"))
    assert r.code == 1, r.log
    assert f"--diff {pr.base}...{pr.head}" in r.log
    jsonschema.validate(r.sarif, SCHEMA)
    assert r.results == [("PT001", "model.py", 10)]  # Net's contract changed too: the error says it (no PT014)
    assert r.sarif["runs"][0]["automationDetails"]["id"] == "pytea-ci/"
    cov = r.sarif["runs"][0]["properties"]["pytea-ci/coverage"]
    assert cov["reached"] > 0 and 0 < cov["checked"] <= cov["reached"]
    # analyzed: the two entry points; Net is not checked alone, since train.py reached its forward with
    # known inputs (issue 32 item 6)
    assert r.outputs == {"sarif-file": "out/pytea.sarif", "findings": "1", "errors": "1", "warnings": "0",
                         "analyzed": "2", "cached": "0", "coverage": str(cov["checked"] * 100 // cov["reached"]),
                         "exit-code": "1"}
    assert "| Coverage |" in r.summary
    assert r.annotations == [a for a in r.annotations if a.startswith("::error file=model.py,line=10,col=16,")]
    assert len(r.annotations) == 1 and "title=PT001 shape-mismatch::Linear" in r.annotations[0]
    assert "## pytea-ci" in r.summary and "| error | PT001 shape-mismatch | model.py:10 |" in r.summary
    assert "Scope: pull\\_request: changes of the pull request" in r.summary


def test_pull_request_target_and_category(tmp_path: Path) -> None:
    pr = make_pr(tmp_path)
    r = run_action(pr.origin, "pull_request_target", pr_event(pr), category="shapes/")
    assert r.code == 1 and f"--diff {pr.base}...{pr.head}" in r.log
    assert r.sarif["runs"][0]["automationDetails"]["id"] == "shapes/"


def test_second_run_answers_from_the_cache(tmp_path: Path) -> None:
    pr = make_pr(tmp_path)
    first = run_action(pr.origin, "pull_request", pr_event(pr), **hyphens(cache_dir=".cache/pytea"))
    second = run_action(pr.origin, "pull_request", pr_event(pr), **hyphens(cache_dir=".cache/pytea"))
    assert (first.outputs["analyzed"], first.outputs["cached"]) == ("2", "0")  # the entry points, as above
    assert (second.outputs["analyzed"], second.outputs["cached"]) == ("0", "2")
    assert (pr.origin / ".cache" / "pytea").is_dir()
    assert second.results == first.results and second.code == first.code == 1
    assert second.outputs["coverage"] == first.outputs["coverage"] != ""  # cached results carry the figures


@pytest.mark.parametrize(("severity", "fail_on", "code"), [
    ("error", "error", 1), ("error", "warning", 1), ("error", "never", 0), ("error", "", 1),
    ("warning", "error", 0), ("warning", "warning", 1), ("warning", "never", 0), ("warning", "", 0),
])
def test_exit_code_for_each_fail_on(tmp_path: Path, severity: str, fail_on: str, code: int) -> None:
    config = f'[tool.pytea-ci.severity]\nPT001 = "{severity}"\n'
    pr = make_pr(tmp_path, extra={"pyproject.toml": config})
    r = run_action(pr.origin, "pull_request", pr_event(pr), **hyphens(fail_on=fail_on))
    assert r.code == code, r.log
    assert r.outputs["exit-code"] == str(code)
    assert r.outputs["findings"] == "1" and r.outputs["errors"] == ("1" if severity == "error" else "0")
    level = "error" if severity == "error" else "warning"
    assert [a.split(" ", 1)[0] for a in r.annotations] == [f"::{level}"]
    assert r.sarif["runs"][0]["results"][0]["level"] == level
    jsonschema.validate(r.sarif, SCHEMA)


def test_config_input_and_fail_on_from_the_config(tmp_path: Path) -> None:
    pr = make_pr(tmp_path)
    (pr.origin / "pytea.toml").write_text('[tool.pytea-ci]\nfail-on = "never"\n')
    r = run_action(pr.origin, "pull_request", pr_event(pr), config="pytea.toml")
    assert r.code == 0 and r.outputs["errors"] == "1"
    assert "--config pytea.toml" in r.log


def test_at_most_ten_annotations_per_level(tmp_path: Path) -> None:
    bugs = {f"bug_{i:02d}.py": OTHER.replace("view(6)", "view(7)") for i in range(12)}
    pr = make_pr(tmp_path, extra=bugs)
    r = run_action(pr.origin, "pull_request", pr_event(pr))
    assert r.code == 1
    assert r.outputs["errors"] == "13"
    assert len([a for a in r.annotations if a.startswith("::error ")]) == 10
    assert "not annotated (GitHub shows 10 per level): 3 error" in r.log
    assert len(r.sarif["runs"][0]["results"]) == 13  # SARIF carries them all
    quiet = run_action(pr.origin, "pull_request", pr_event(pr), annotations="false")
    assert quiet.annotations == [] and quiet.code == 1 and quiet.outputs["errors"] == "13"


def test_paths_and_args_inputs(tmp_path: Path) -> None:
    pr = make_pr(tmp_path)
    r = run_action(pr.origin, "pull_request", pr_event(pr), paths="other.py", args="--jobs 1 --arg epochs=1")
    assert r.code == 0 and r.outputs["findings"] == "0" and r.outputs["analyzed"] == "1"
    assert "check other.py" in r.log and "--arg epochs=1" in r.log


def test_summary_separates_new_from_pre_existing(tmp_path: Path) -> None:
    pr = make_pr(tmp_path, extra={"old.py": "import torch\n\nif __name__ == '__main__':\n    torch.ones(2, 3).view(7)\n"})
    r = run_action(pr.origin, "pull_request", pr_event(pr), sha=pr.head)
    assert "same fingerprint on the base" in r.summary
    assert "### New in this pull request: 2" in r.summary  # model.py's bug and old.py, both added by the PR
    git(pr.origin, "checkout", "-q", "main")
    (pr.origin / "other.py").write_text("import torch\n\nif __name__ == '__main__':\n    torch.ones(2, 3).view(5)\n")
    base = commit_all(pr.origin, "a bug on main")
    git(pr.origin, "checkout", "-q", "-b", "fix-model")
    (pr.origin / "train.py").write_text((pr.origin / "train.py").read_text() + "\n")
    head = commit_all(pr.origin, "touch train.py")
    event = {"pull_request": {"base": {"sha": base}, "head": {"sha": head}}}
    r = run_action(pr.origin, "pull_request", event, sha=head)
    assert "### New in this pull request: 0" in r.summary and "### Pre-existing: 1" in r.summary
    assert "| error | PT001 | other.py:4 |" in r.summary


BLOCKS = """import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        x = torch.relu(self.conv(x)).mean((2, 3))
        return self.fc(x)
"""


def test_summary_shows_the_shapes_of_changed_modules(tmp_path: Path) -> None:
    pr = make_pr(tmp_path, extra={"blocks.py": BLOCKS})  # model.py (run by train.py) and a new blocks.py
    r = run_action(pr.origin, "pull_request", pr_event(pr), sha=pr.head)
    assert r.code == 1 and r.results == [("PT001", "model.py", 10)], r.log  # train.py's finding, once
    section = r.summary.split("### Module shapes", 1)[1]
    assert section.count("<details>") == 2  # the modules of the changed files, in file order
    assert "<summary><code>model.py::Net</code> (determined): <code>x: [N, D]</code> → <code>[N, 4]</code>" in section
    assert "Built with Net() at train.py:6." in section and "Where `D == 9`" in section  # the module alone
    assert "<summary><code>blocks.py::Head</code> (determined): <code>x: [N, C, H, W]</code> → <code>[N, 10]</code>" in section
    assert "| &nbsp;&nbsp;conv | Conv2d | `[N, C, H, W]` | `[N, 8, H - 2, W - 2]` | `224` |" in section  # torch: 3*8*3*3 weights + 8 biases
    assert "Where `C == 3`" in section
    (pr.origin / "train.py").write_text(TRAIN + "\n")
    later = commit_all(pr.origin, "touch train.py only")
    event = {"pull_request": {"base": {"sha": pr.head}, "head": {"sha": later}}}
    again = run_action(pr.origin, "pull_request", event, sha=later)
    assert "### New in this pull request: 0" in again.summary and "### Pre-existing: 1" in again.summary
    assert "### Module shapes" not in again.summary  # no module file changed


def test_baseline_input(tmp_path: Path) -> None:
    pr = make_pr(tmp_path)
    saved = os.getcwd()
    os.chdir(pr.origin)
    try:  # the project records its current finding, then adopts the action
        from pytea_ci.cli import main

        assert main(["baseline", "write", "--root", str(pr.origin), "--jobs", "1"]) == 0
    finally:
        os.chdir(saved)
    r = run_action(pr.origin, "pull_request", pr_event(pr), sha=pr.head, baseline="pytea-ci-baseline.json")
    assert "--baseline pytea-ci-baseline.json" in r.log
    assert r.code == 0 and r.results == [] and r.outputs["findings"] == "0"


# ----- push and other events -----------------------------------------------------------------------
def test_push_event(tmp_path: Path) -> None:
    pr = make_pr(tmp_path)
    event = {"ref": "refs/heads/feature", "before": pr.base, "after": pr.head, "created": False}
    r = run_action(pr.origin, "push", event, sha=pr.head)
    assert r.code == 1 and f"--diff {pr.base}...{pr.head}" in r.log
    assert r.results == [("PT001", "model.py", 10)]
    assert "push: changes since" in r.log


def test_push_of_a_new_branch_analyzes_everything(tmp_path: Path) -> None:
    pr = make_pr(tmp_path)
    event = {"ref": "refs/heads/feature", "before": "0" * 40, "after": pr.head, "created": True}
    r = run_action(pr.origin, "push", event, sha=pr.head)
    assert r.code == 1 and "--diff" not in r.log
    assert "a new branch (no previous commit); analyzing every entry point" in r.log
    assert r.outputs["analyzed"] == "2"  # not Net alone: train.py reached its forward (issue 32 item 6)


def test_workflow_dispatch(tmp_path: Path) -> None:
    pr = make_pr(tmp_path)
    r = run_action(pr.origin, "workflow_dispatch", {"inputs": {}}, sha=pr.head)
    assert r.code == 1 and "--diff" not in r.log and "analyzing every entry point" in r.log
    r = run_action(pr.origin, "workflow_dispatch", {"inputs": {}}, sha=pr.head, base="main")
    assert r.code == 1 and f"--diff main...{pr.head}" in r.log


# ----- shallow clones ------------------------------------------------------------------------------
def shallow_clone(pr: Pr, dest: Path) -> Path:
    git(dest.parent, "clone", "-q", "--depth", "1", "--branch", "feature", f"file://{pr.origin}", str(dest))
    assert git(dest, "rev-parse", "--is-shallow-repository") == "true"
    return dest


def test_shallow_clone_is_deepened(tmp_path: Path) -> None:
    pr = make_pr(tmp_path / "remote")
    ws = shallow_clone(pr, tmp_path / "ws")
    r = run_action(ws, "pull_request", pr_event(pr), sha=pr.head)
    assert "shallow clone: fetching 50 more commits from origin" in r.log
    assert f"--diff {pr.base}...{pr.head}" in r.log and "cannot diff" not in r.log
    assert r.code == 1 and r.results == [("PT001", "model.py", 10)]


def test_shallow_clone_that_cannot_be_deepened_falls_back(tmp_path: Path) -> None:
    pr = make_pr(tmp_path / "remote")
    ws = shallow_clone(pr, tmp_path / "ws")
    git(ws, "remote", "set-url", "origin", f"file://{tmp_path / 'gone'}")
    r = run_action(ws, "pull_request", pr_event(pr), sha=pr.head)
    assert "::warning title=pytea-ci::cannot diff" in r.log and "analyzing every entry point" in r.log
    assert "fetch-depth: 0" in r.log and "--diff" not in r.log.split("running pytea-ci", 1)[1].splitlines()[0]
    assert r.code == 1 and r.outputs["analyzed"] == "2"  # as above
    jsonschema.validate(r.sarif, SCHEMA)
    assert "history missing: every entry point analyzed" in r.summary


# ----- failures ------------------------------------------------------------------------------------
@pytest.mark.parametrize("inputs", [{"fail-on": "sometimes"}, {"args": "--no-such-flag"},
                                    {"args": "--format json"}, {"config": "missing.toml"}, {"annotations": "maybe"}])
def test_invalid_inputs_still_write_sarif(tmp_path: Path, inputs: dict[str, str]) -> None:
    pr = make_pr(tmp_path)
    r = run_action(pr.origin, "pull_request", pr_event(pr), **inputs)
    assert r.code == 2, r.log
    jsonschema.validate(r.sarif, SCHEMA)
    inv = r.sarif["runs"][0]["invocations"][0]
    assert inv["executionSuccessful"] is False and inv["toolExecutionNotifications"][0]["level"] == "error"
    assert r.sarif["runs"][0]["results"] == []
    assert "::error title=pytea-ci::" in r.log
    assert r.outputs["exit-code"] == "2" and r.outputs["sarif-file"] == "pytea-ci.sarif"


# ----- the entry point as the container runs it ----------------------------------------------------
def test_module_entry_point_in_a_subprocess(tmp_path: Path) -> None:
    pr = make_pr(tmp_path)
    event = tmp_path / "event.json"
    event.write_text(json.dumps(pr_event(pr)))
    out = tmp_path / "github_output"
    env = {**os.environ, "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event),
           "GITHUB_WORKSPACE": str(pr.origin), "GITHUB_OUTPUT": str(out), "INPUT_SARIF-FILE": "x.sarif",
           "INPUT_FAIL-ON": "error", "INPUT_ANNOTATIONS": "true"}
    env.pop("GITHUB_STEP_SUMMARY", None)
    p = subprocess.run([sys.executable, "-m", "pytea_ci.action"], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=300, check=False)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "::error file=model.py,line=10" in p.stdout
    assert (pr.origin / "x.sarif").exists() and "sarif-file=x.sarif" in out.read_text()
    v = subprocess.run([sys.executable, "-m", "pytea_ci.action", "--version"], capture_output=True, text=True,
                       check=False)
    assert v.returncode == 0 and v.stdout.startswith("pytea-ci ")


@pytest.mark.skipif(not VALIDATE_SARIF.exists(), reason="shared/tools/validate-sarif.sh is not beside the repository")
def test_sarif_passes_githubs_validators(tmp_path: Path) -> None:
    pr = make_pr(tmp_path)
    ok = run_action(pr.origin, "pull_request", pr_event(pr), **hyphens(sarif_file="ok.sarif"))
    bad = run_action(pr.origin, "pull_request", pr_event(pr), **hyphens(sarif_file="failed.sarif", fail_on="x"))
    assert ok.code == 1 and bad.code == 2
    p = subprocess.run(["bash", str(VALIDATE_SARIF), str(pr.origin / "ok.sarif"), str(pr.origin / "failed.sarif")],
                       capture_output=True, text=True, timeout=600, check=False)
    out = p.stdout + p.stderr
    if p.returncode == 2 and ("could not install" in out or "export failed" in out):
        pytest.skip("the SARIF validators could not be installed (no network?)")
    assert p.returncode == 0, out
    assert out.count("schema: 0 error(s)") == 2 and out.count("multitool: 0 error(s)") == 2, out


# ----- units ---------------------------------------------------------------------------------------
def test_inputs_keep_hyphens() -> None:
    env = {"INPUT_SARIF-FILE": " r/x.sarif ", "INPUT_FAIL-ON": "Warning", "INPUT_CACHE_DIR": "c",
           "INPUT_ANNOTATIONS": "False", "INPUT_PATHS": "a.py\n  'b c.py'\n"}
    i = action.Inputs.from_env(env)
    assert (i.sarif_file, i.fail_on, i.cache_dir, i.annotations, i.paths) == (
        "r/x.sarif", "warning", "c", False, ["a.py", "b c.py"])
    d = action.Inputs.from_env({})
    assert (d.sarif_file, d.category, d.fail_on, d.annotations, d.paths, d.args) == (
        "pytea-ci.sarif", "pytea-ci/", "", True, [], [])


def test_resolve_range() -> None:
    a, b = "a" * 40, "b" * 40
    pr = {"pull_request": {"base": {"sha": a}, "head": {"sha": b}}}
    assert action.resolve_range("pull_request", pr, "", {}).base == a
    assert action.resolve_range("pull_request", pr, "", {}).head == b
    assert action.resolve_range("pull_request_target", pr, "main", {}).base == "main"
    push = action.resolve_range("push", {"before": a, "after": b}, "", {})
    assert (push.base, push.head) == (a, b)
    assert action.resolve_range("push", {"before": "0" * 40, "after": b}, "", {}).base is None
    assert action.resolve_range("workflow_dispatch", {}, "", {"GITHUB_SHA": b}).base is None
    assert action.resolve_range("schedule", {}, "v1.0", {"GITHUB_SHA": b}).base == "v1.0"
    assert action.resolve_range("pull_request", {}, "", {}).base is None
