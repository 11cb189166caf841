"""The integration files validate against the schemas their hosts use, and agree with the code:
`.pre-commit-hooks.yaml` (pre-commit's own manifest schema), `action.yml` (GitHub's action metadata
schema, vendored in check-jsonschema: offline, and zizmor's audits), `examples/github-workflow.yml` (the
workflow schema, and zizmor's security audits: nothing above low), and the inputs/outputs that action.yml declares
are exactly those pytea_ci/action.py reads and writes. Each external tool skips when not installed."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integrations.conftest import REPO

yaml = pytest.importorskip("yaml")  # PyYAML comes with pre-commit and check-jsonschema


ZIZMOR = ("--offline", "--config", str(REPO / ".github" / "zizmor.yml"), "--min-severity", "medium")


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if not found:
        pytest.skip(f"{name} is not installed")
    return found


def test_pre_commit_manifest() -> None:
    if importlib.util.find_spec("pre_commit") is None:
        pytest.skip("pre-commit is not installed")
    p = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", str(REPO / ".pre-commit-hooks.yaml")],
                       capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stdout + p.stderr
    p = subprocess.run([sys.executable, "-m", "pre_commit", "validate-config",
                        str(REPO / "hooks" / "pre-commit-config.example.yaml")], capture_output=True, text=True,
                       check=False)
    assert p.returncode == 0, p.stdout + p.stderr


def test_pre_commit_hooks_choices() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    main, sarif = hooks["pytea-ci"], hooks["pytea-ci-sarif"]
    assert main["entry"].startswith("pytea-ci check") and main["language"] == "python"
    assert main["require_serial"] is True and main.get("pass_filenames", True) is True
    assert main["types_or"] == ["python", "jupyter", "yaml", "json"] and "manual" in main["stages"]
    assert sarif["stages"] == ["manual"] and sarif["pass_filenames"] is False and sarif["always_run"] is True
    assert "--format sarif" in sarif["entry"] and sarif["args"][0] == "--output"
    for h in hooks.values():
        assert h["minimum_pre_commit_version"] == "3.2.0"  # the stage names pre-commit / pre-push


def test_plain_git_hook_is_executable_sh() -> None:
    hook = REPO / "hooks" / "pre-commit"
    assert hook.stat().st_mode & 0o111 and hook.read_text().startswith("#!/bin/sh\n")
    assert subprocess.run(["sh", "-n", str(hook)], check=False).returncode == 0
    assert "check --staged" in hook.read_text()


@pytest.mark.parametrize(("schema", "path"), [("vendor.github-actions", "action.yml"),
                                              ("vendor.github-workflows", "examples/github-workflow.yml"),
                                              ("vendor.github-workflows", ".github/workflows/release.yml"),
                                              ("vendor.gitlab-ci", "examples/gitlab-ci.yml")])
def test_github_schemas(schema: str, path: str) -> None:
    p = subprocess.run([tool("check-jsonschema"), "--builtin-schema", schema, str(REPO / path)],
                       capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.parametrize("path", ["examples/github-workflow.yml", "action.yml", ".github/workflows/release.yml"])
def test_zizmor(path: str) -> None:
    p = subprocess.run([tool("zizmor"), *ZIZMOR, path], cwd=REPO, capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stdout + p.stderr


def test_action_yml_matches_the_entry_point() -> None:
    meta = yaml.safe_load((REPO / "action.yml").read_text())
    assert meta["runs"]["using"] == "composite"  # the steps: tests/integrations/test_composite_action.py
    source = (REPO / "pytea_ci" / "action.py").read_text()
    read = set(re.findall(r'get_(?:input|bool)\(env, "([a-z-]+)"', source))
    assert read == set(meta["inputs"])
    written = {"sarif-file", "findings", "errors", "warnings", "analyzed", "cached", "coverage", "exit-code"}
    assert written == set(meta["outputs"])
    for name in written:
        assert f'"{name}"' in source
    assert meta["inputs"]["sarif-file"]["default"] == "pytea-ci.sarif"
    assert meta["inputs"]["category"]["default"] == "pytea-ci/"


def test_example_workflow_shape() -> None:
    wf = yaml.safe_load((REPO / "examples" / "github-workflow.yml").read_text())
    job = next(iter(wf["jobs"].values()))
    assert job["permissions"] == {"contents": "read", "security-events": "write"}
    steps = job["steps"]
    uses = [s.get("uses", "") for s in steps]
    checkout = steps[[u.startswith("actions/checkout@") for u in uses].index(True)]
    assert checkout["with"]["fetch-depth"] == 0
    assert any(u.startswith("actions/cache@") for u in uses)
    upload = steps[[u.startswith("github/codeql-action/upload-sarif@") for u in uses].index(True)]
    guard = upload["if"].replace(" ", "")  # not when cancelled; not with a fork's read-only token
    assert guard.startswith("${{!cancelled()&&") and "head.repo.full_name==github.repository" in guard
    assert upload["with"]["category"]
    ours = steps[[u.startswith("pytea-ci/pytea-ci@") for u in uses].index(True)]
    assert ours["with"]["sarif-file"] == upload["with"]["sarif_file"]
    assert ours["with"]["category"] == upload["with"]["category"]
    assert ours["with"]["cache-dir"] == steps[[u.startswith("actions/cache@") for u in uses].index(True)]["with"]["path"]
    assert ours["with"]["annotations"] in (True, False)


def readme_block(section: str, contains: str) -> str:
    text = (REPO / "README.md").read_text()
    body = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```yaml\n(.*?)```", body, re.DOTALL)
    found = [b for b in blocks if contains in b]
    assert found, f"no yaml block with {contains!r} in README section {section!r}"
    return found[0]


@pytest.mark.parametrize(("section", "contains", "validator"), [
    ("GitHub Action", "upload-sarif", "vendor.github-workflows"),
    ("Other CI", "pytea-ci check", "vendor.gitlab-ci"),
    ("pre-commit", "id: pytea-ci", "pre-commit"),
])
def test_readme_snippets_validate(tmp_path: Path, section: str, contains: str, validator: str) -> None:
    snippet = tmp_path / "snippet.yml"
    snippet.write_text(readme_block(section, contains))
    if validator == "pre-commit":
        if importlib.util.find_spec("pre_commit") is None:
            pytest.skip("pre-commit is not installed")
        cmd = [sys.executable, "-m", "pre_commit", "validate-config", str(snippet)]
    else:
        cmd = [tool("check-jsonschema"), "--builtin-schema", validator, str(snippet)]
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stdout + p.stderr
    if validator == "vendor.github-workflows":
        z = subprocess.run([tool("zizmor"), *ZIZMOR, str(snippet)], cwd=REPO,
                           capture_output=True, text=True, check=False)
        assert z.returncode == 0, z.stdout + z.stderr
