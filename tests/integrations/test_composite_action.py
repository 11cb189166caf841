"""The GitHub Action as GitHub runs it: `action.yml` is a composite action, replayed here step by step
by a small runner (expressions `${{ inputs.* }}`, `${{ steps.*.outputs.* }}`, `runner.*` and
`github.action_path` evaluated, each `run:` script executed as GitHub does, `bash --noprofile --norc -eo
pipefail`, with its own GITHUB_OUTPUT), against a scratch pull request. actions/setup-python is stood in
for by a fresh virtualenv of this interpreter; actions/cache is not run (its inputs are checked).

Also: the composite action and the Dockerfile (the image for containers and other CI systems) install
the same way (same Python minor version, the same `install-step` commands, the same entry point), and
the metadata follows the rules that keep the action safe and portable (third-party actions pinned by
commit, inputs passed through `env:`, `shell: bash` on every step, which Linux, macOS and Windows
runners all have)."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

import pytest

from tests.integrations.conftest import REPO
from tests.integrations.test_action import make_pr, pr_event
from tests.integrations.test_docker_install import NETWORK_TROUBLE, instructions

yaml = pytest.importorskip("yaml")

META = yaml.safe_load((REPO / "action.yml").read_text())
STEPS: list[dict[str, Any]] = META["runs"]["steps"]
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


# ----- static rules --------------------------------------------------------------------------------
def test_composite_action_rules() -> None:
    assert META["runs"]["using"] == "composite"
    for step in STEPS:
        if "uses" in step:
            assert re.fullmatch(r"[\w-]+/[\w-]+@[0-9a-f]{40}", step["uses"]), step["uses"]  # pinned by commit
        else:
            assert step["shell"] == "bash"  # on every runner OS
            assert "${{" not in step["run"]  # template injection: values come through env
    run = next(s for s in STEPS if s.get("id") == "run")
    assert run["env"]["PYTHON"] == "${{ steps.python.outputs.python-path }}"
    mapped = {k: v for k, v in run["env"].items() if k.startswith("INPUT_")}
    assert mapped == {f"INPUT_{name.upper().replace('-', '_')}": f"${{{{ inputs.{name} }}}}" for name in META["inputs"]}
    for name, spec in META["outputs"].items():
        assert spec["value"] == f"${{{{ steps.run.outputs.{name} }}}}"
    python = next(s for s in STEPS if s.get("uses", "").startswith("actions/setup-python@"))
    assert python["id"] == "python" and python["with"]["update-environment"] is False


def _install_steps(text: str) -> list[str]:
    return [line.split("install-step:", 1)[1].strip() for line in text.splitlines() if "# install-step:" in line]


def test_dockerfile_and_action_install_alike() -> None:
    """The image and the composite action: same Python (minor), same install commands, same entry point."""
    image = next(arg for word, arg in instructions() if word == "FROM")
    minor = re.match(r"python:(\d+\.\d+)\.\d+", image)
    python = next(s for s in STEPS if s.get("uses", "").startswith("actions/setup-python@"))
    assert minor and python["with"]["python-version"] == minor.group(1)

    def normal(cmd: str) -> str:  # the image builds from /tmp/pytea-ci and keeps no pip cache
        cmd = cmd.replace(" --no-cache-dir", "").replace("/tmp/pytea-ci/docker/", '"$GITHUB_ACTION_PATH/docker/')
        cmd = re.sub(r'("\$GITHUB_ACTION_PATH/docker/requirements\.txt)', r'\1"', cmd)
        return cmd.replace("/tmp/pytea-ci", '"$GITHUB_ACTION_PATH"')

    docker = [normal(c) for c in _install_steps((REPO / "Dockerfile").read_text())]
    scripts = "\n".join(s.get("run", "") for s in STEPS)
    action = _install_steps(scripts)
    assert docker and docker == action
    for cmd in action:  # each documented command is the one the script runs (through the set-up Python)
        assert cmd.replace("python -m pip install", '"$PYTHON" -m pip install --quiet').replace(
            "python -m pip check", '"$PYTHON" -m pip check') in scripts
    entry = json.loads(next(arg for word, arg in instructions() if word == "ENTRYPOINT"))
    assert entry == ["python", "-m", "pytea_ci.action"]
    assert STEPS[-1]["run"] == '"$PYTHON" -m pytea_ci.action'


# ----- the composite action replayed ---------------------------------------------------------------
class Runner:
    """Just enough of the GitHub runner to run this composite action's steps."""

    def __init__(self, action_path: Path, python: Path, workspace: Path, scratch: Path, env: dict[str, str]) -> None:
        self.action_path, self.python, self.workspace, self.scratch = action_path, python, workspace, scratch
        self.env = env
        self.steps: dict[str, dict[str, str]] = {}
        self.cache: dict[str, str] = {}
        self.log = ""

    def value(self, expr: str, inputs: dict[str, str]) -> str:
        parts = expr.split(".")
        if parts[0] == "inputs":
            return inputs.get(parts[1], str(META["inputs"][parts[1]].get("default", "")))
        if parts[0] == "steps" and parts[2] == "outputs":
            return self.steps.get(parts[1], {}).get(parts[3], "")
        fixed = {"runner.os": "Linux", "runner.arch": "X64", "github.action_path": str(self.action_path)}
        assert expr in fixed, f"expression not simulated: {expr}"
        return fixed[expr]

    def render(self, text: str, inputs: dict[str, str]) -> str:
        return EXPR.sub(lambda m: self.value(m.group(1), inputs), text)

    def run(self, inputs: dict[str, str]) -> tuple[int, dict[str, str]]:
        self.steps.clear()
        for i, step in enumerate(STEPS):
            sid = step.get("id", f"step{i}")
            uses = step.get("uses", "")
            if uses.startswith("actions/setup-python@"):
                self.steps[sid] = {"python-path": str(self.python), "python-version": sys.version.split()[0]}
                continue
            if uses.startswith("actions/cache@"):
                self.cache = {k: self.render(str(v), inputs) for k, v in step["with"].items()}
                continue
            assert not uses, f"step not simulated: {uses}"
            code = self._bash(sid, step, inputs)
            if code != 0:
                return code, {}
        return 0, {name: self.render(spec["value"], inputs) for name, spec in META["outputs"].items()}

    def _bash(self, sid: str, step: dict[str, Any], inputs: dict[str, str]) -> int:
        script, output = self.scratch / f"{sid}.sh", self.scratch / f"{sid}.output"
        script.write_text(step["run"])
        output.write_text("")
        env = {**self.env, "GITHUB_OUTPUT": str(output), "GITHUB_ACTION_PATH": str(self.action_path),
               **{k: self.render(str(v), inputs) for k, v in step.get("env", {}).items()}}
        p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=self.workspace,
                           env=env, capture_output=True, text=True, timeout=900, check=False)
        self.log += p.stdout + p.stderr
        if p.returncode != 0 and any(m in p.stdout + p.stderr for m in NETWORK_TROUBLE):
            pytest.skip(f"cannot download the action's packages (no network?): step {sid}")
        self.steps[sid] = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
        return p.returncode


def checkout_of_the_action(dest: Path) -> Path:
    """What `uses: pytea-ci/pytea-ci@v0` downloads: the repository's files (no .git, nothing ignored such
    as build leftovers or *.egg-info), here from the working tree, new files included."""
    tracked = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                             capture_output=True, text=True, check=False)
    if tracked.returncode != 0:
        pytest.skip("this checkout is not a git repository")
    for name in filter(None, tracked.stdout.split("\0")):
        if (REPO / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, dest / name)
    return dest


def _modes(folder: Path) -> tuple[set[int], set[int]]:
    files = {stat.S_IMODE(p.stat().st_mode) for p in folder.rglob("*") if p.is_file()}
    dirs = {stat.S_IMODE(p.stat().st_mode) for p in [folder, *folder.rglob("*")] if p.is_dir()}
    return files, dirs


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_composite_action_on_a_simulated_runner(tmp_path: Path) -> None:
    action_path = checkout_of_the_action(tmp_path / "_actions" / "pytea-ci" / "v0")
    tool = tmp_path / "toolcache-python"
    venv.EnvBuilder(with_pip=True, clear=True).create(tool)
    pr = make_pr(tmp_path / "ws")
    scratch = tmp_path / "runner"
    scratch.mkdir()
    event = scratch / "event.json"
    event.write_text(json.dumps(pr_event(pr)))
    summary = scratch / "summary.md"
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "GITHUB_ACTIONS": "true", "CI": "true",
           "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event), "GITHUB_WORKSPACE": str(pr.origin),
           "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_SHA": pr.head, "RUNNER_OS": "Linux",
           "RUNNER_TEMP": str(scratch), "PIP_CACHE_DIR": str(tmp_path / "pip-cache")}
    runner = Runner(action_path, tool / "bin" / "python", pr.origin, scratch, env)
    old = os.umask(0o022)
    try:
        code, outputs = runner.run({"cache-dir": ".pytea_cache", "args": "--jobs 1"})
    finally:
        os.umask(old)
    log = runner.log
    assert code == 1, log[-4000:]  # the PR's bug fails the step
    assert runner.steps["run"]["findings"] == "1" and runner.steps["run"]["exit-code"] == "1"
    assert "::error file=model.py,line=10" in log and f"--diff {pr.base}...{pr.head}" in log
    doc = json.loads((pr.origin / "pytea-ci.sarif").read_text())
    assert [r["ruleId"] for r in doc["runs"][0]["results"]] == ["PT001"]
    assert "## pytea-ci" in summary.read_text()
    key = runner.steps["pip"]["key"]
    assert runner.cache == {"path": str(tmp_path / "pip-cache"), "key": f"pytea-ci-pip-Linux-X64-{key}"}
    assert re.fullmatch(rf"{sys.version_info[0]}\.{sys.version_info[1]}-[0-9a-f]{{16}}", key)
    where = subprocess.run([str(runner.python), "-c", "import pytea_ci; print(pytea_ci.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(tool))  # the installed copy of the action's checkout, not this repository
    # the cache dir that actions/cache saves after the job: readable by any user (0644 files, 0755 folders)
    files, dirs = _modes(pr.origin / ".pytea_cache")
    assert files == {0o644} and dirs == {0o755}
    assert oct(stat.S_IMODE((pr.origin / "pytea-ci.sarif").stat().st_mode)) == oct(0o644)

    # a clean run: every output mapped from the step's, the cache answers
    (pr.origin / "model.py").write_text((pr.origin / "model.py").read_text().replace("Linear(9, 4)", "Linear(8, 4)"))
    code, outputs = runner.run({"cache-dir": ".pytea_cache", "args": "--jobs 1", "paths": "train.py",
                                "annotations": "false", "sarif-file": "out/x.sarif"})
    assert code == 0, runner.log[-4000:]
    assert outputs["sarif-file"] == "out/x.sarif" and outputs["exit-code"] == "0" and outputs["findings"] == "0"
    assert set(outputs) == set(META["outputs"]) and all(outputs[k] != "" for k in ("analyzed", "cached", "errors"))
    assert (pr.origin / "out" / "x.sarif").is_file()
