"""pre-commit, end to end, as users run it: the real `pre-commit` package installs this repository (a
committed snapshot of its sources, like a `repo:` at a release tag) into its own environment and runs
the hooks in a scratch project.

* a buggy staged change makes `git commit` fail through the installed hook, with the finding shown;
  the fix passes;
* a staged list long enough for pre-commit to split it into several invocations gives the same
  findings and exit code as one `pytea-ci check --staged` run;
* the manual-stage hook writes a valid SARIF file.

Skips when pre-commit is not installed, or when its environment cannot be installed for lack of
network (pre-commit pip-installs the package and its dependencies, z3-solver among them). About 20 s.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integrations.conftest import (
    MODEL_BUG,
    MODEL_OK,
    REPO,
    TRAIN,
    commit_all,
    git,
    git_env,
    snapshot_repo,
)

pytestmark = pytest.mark.skipif(importlib.util.find_spec("pre_commit") is None, reason="pre-commit is not installed")

NETWORK_TROUBLE = ("NewConnectionError", "Temporary failure in name resolution", "No matching distribution",
                   "Could not find a version", "Network is unreachable", "ConnectTimeout", "ReadTimeout",
                   "Failed to establish a new connection", "SSLError", "ProxyError")
FINDING = re.compile(r"^(\S+?):(\d+):(\d+): (PT\d{3}) ", re.MULTILINE)


class Env:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.hook_repo, self.rev = snapshot_repo(root / "hookrepo")
        self.env = {**git_env(), "PRE_COMMIT_HOME": str(root / "pre-commit-home"), "PRE_COMMIT_COLOR": "never",
                    "NO_COLOR": "1"}
        self.env.pop("VIRTUAL_ENV", None)

    def config(self, hooks: str = "pytea-ci, pytea-ci-sarif") -> str:
        ids = "".join(f"      - id: {h.strip()}\n" for h in hooks.split(","))
        return (f"minimum_pre_commit_version: \"3.2.0\"\nrepos:\n  - repo: {self.hook_repo}\n"
                f"    rev: {self.rev}\n    hooks:\n{ids}")

    def run(self, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, cwd=cwd, env=self.env, capture_output=True, text=True, timeout=900, check=False)

    def pre_commit(self, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run(cwd, sys.executable, "-m", "pre_commit", *args)


def new_project(env: Env, name: str, entry: str = "train.py") -> Path:
    proj = env.root / name
    proj.mkdir()
    (proj / "model.py").write_text(MODEL_OK)
    (proj / entry).write_text(TRAIN)
    (proj / ".pre-commit-config.yaml").write_text(env.config())
    git(proj, "init", "-q")
    commit_all(proj, "initial")
    return proj


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Env:
    e = Env(tmp_path_factory.mktemp("precommit"))
    probe = new_project(e, "probe")
    p = e.pre_commit(probe, "install-hooks")
    if p.returncode != 0:
        out = p.stdout + p.stderr
        log = Path(e.env["PRE_COMMIT_HOME"]) / "pre-commit.log"
        out += log.read_text(errors="replace") if log.exists() else ""
        if any(marker in out for marker in NETWORK_TROUBLE):
            pytest.skip("pre-commit could not install the hook environment (no network?)")
        pytest.fail(f"pre-commit install-hooks failed:\n{out[-4000:]}")
    return e


def findings(text: str) -> set[tuple[str, int, int, str]]:
    return {(m[0], int(m[1]), int(m[2]), m[3]) for m in FINDING.findall(text)}


def test_commit_blocked_by_buggy_change_and_fix_passes(env: Env) -> None:
    proj = new_project(env, "commit")
    assert env.pre_commit(proj, "install").returncode == 0
    head = git(proj, "rev-parse", "HEAD")
    (proj / "model.py").write_text(MODEL_OK.replace("nn.Linear(8, 4)", "nn.Linear(12, 4)"))
    git(proj, "add", "model.py")
    p = env.run(proj, "git", "commit", "-q", "-m", "wider layer")
    out = p.stdout + p.stderr
    assert p.returncode != 0, out
    assert "pytea-ci (tensor shape errors)" in out and "Failed" in out, out
    assert ("model.py", 10, 16, "PT001") in findings(out), out
    assert "in_features is 12" in out
    assert git(proj, "rev-parse", "HEAD") == head  # nothing committed

    (proj / "train.py").write_text(TRAIN.replace("torch.randn(16, 8)", "torch.randn(16, 12)"))
    git(proj, "add", "train.py", "model.py")
    p = env.run(proj, "git", "commit", "-q", "-m", "wider layer, wider input")
    out = p.stdout + p.stderr
    assert p.returncode == 0, out
    assert re.search(r"pytea-ci \(tensor shape errors\)\.+Passed", out), out
    assert git(proj, "rev-parse", "HEAD") != head


def test_split_file_list_gives_the_same_answer(env: Env) -> None:
    # a_fill/* (700 files) < model.py < z_fill/* (700 files) < zz_train.py: ~230 KB of file names, so
    # pre-commit (at most 128 KiB of arguments per invocation) puts model.py and the entry point that
    # imports it into different invocations.
    proj = new_project(env, "split", entry="zz_train.py")
    filler = "helper_" + "x" * 150
    for folder in ("a_fill", "z_fill"):
        (proj / folder).mkdir()
        for i in range(700):
            (proj / folder / f"{filler}_{i:04d}.py").write_text(f"VALUE = {i}\n")
    (proj / "model.py").write_text(MODEL_BUG)
    (proj / "zz_train.py").write_text(TRAIN + "# touched\n")
    git(proj, "add", "-A")

    hook = env.pre_commit(proj, "run", "pytea-ci", "--verbose")
    hook_out = hook.stdout + hook.stderr
    invocations = len(re.findall(r"^Analyzed \d+ entry point", hook_out, re.MULTILINE))
    assert invocations >= 2, f"pre-commit did not split the list:\n{hook_out[-3000:]}"

    direct = env.run(proj, sys.executable, "-m", "pytea_ci", "check", "--staged", "--no-progress", "--no-cache")
    assert direct.returncode == 1, direct.stdout + direct.stderr
    assert hook.returncode == 1, hook_out[-3000:]
    assert findings(hook_out) == findings(direct.stdout) == {("model.py", 10, 16, "PT001")}


def test_manual_stage_hook_writes_sarif(env: Env) -> None:
    import jsonschema

    proj = new_project(env, "sarif")
    (proj / "model.py").write_text(MODEL_BUG)
    git(proj, "add", "model.py")
    # not run on commit: the manual stage only
    p = env.pre_commit(proj, "run", "--all-files")
    assert "pytea-ci (SARIF report)" not in p.stdout
    sarif = proj / "pytea-ci.sarif"
    if sarif.exists():
        os.unlink(sarif)
    p = env.pre_commit(proj, "run", "--hook-stage", "manual", "pytea-ci-sarif", "--all-files")
    assert p.returncode == 1, p.stdout + p.stderr
    assert ("model.py", 10, 16, "PT001") in findings(p.stdout)
    doc = json.loads(sarif.read_text())
    schema = json.loads((REPO / "tests" / "report" / "sarif-2.1.0.json").read_text())
    jsonschema.validate(doc, schema)
    results = doc["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in results] == [
        ("PT001", "model.py")]
