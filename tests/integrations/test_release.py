"""Release references stay in sync with the package version: every pre-commit `rev:` names the tag
`v<version>`, every `uses: pytea-ci/pytea-ci@` names the moving major tag `v<major>`, and the
CHANGELOG has a section for the version (the release notes the release workflow publishes)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

from pytea_ci import __version__

REPO_SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
_spec = importlib.util.spec_from_file_location("changelog_section", REPO_SCRIPTS / "changelog_section.py")
assert _spec is not None and _spec.loader is not None
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
section = _mod.section

REPO = Path(__file__).resolve().parents[2]
FILES = ["README.md", "hooks/pre-commit-config.example.yaml", ".pre-commit-hooks.yaml", "examples/github-workflow.yml",
         "examples/gitlab-ci.yml"]


def _texts() -> dict[str, str]:
    return {name: (REPO / name).read_text(encoding="utf-8") for name in FILES}


def test_pre_commit_revs_name_the_current_tag() -> None:
    revs = {(name, rev) for name, text in _texts().items() for rev in re.findall(r"\brev:\s*(\S+)", text)}
    assert revs and {rev for _name, rev in revs} == {f"v{__version__}"}, revs


def test_action_references_name_the_moving_major_tag() -> None:
    major = __version__.split(".")[0]
    uses = {(name, ref) for name, text in _texts().items() for ref in re.findall(r"pytea-ci/pytea-ci@(\S+)", text)}
    assert uses and {ref for _name, ref in uses} == {f"v{major}"}, uses


def test_changelog_has_the_version() -> None:
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert section(changelog, __version__) and "`v0`" in changelog
    assert not section(changelog, "9.9.9")


def test_release_notes_are_the_changelog_section() -> None:
    p = subprocess.run([sys.executable, str(REPO / "scripts" / "changelog_section.py"), __version__],
                       capture_output=True, text=True, check=False)
    assert p.returncode == 0 and p.stdout.strip() == section((REPO / "CHANGELOG.md").read_text(), __version__)
    missing = subprocess.run([sys.executable, str(REPO / "scripts" / "changelog_section.py"), "9.9.9"],
                             capture_output=True, text=True, check=False)
    assert missing.returncode == 1 and "no section" in missing.stderr


def test_the_version_lives_in_one_place() -> None:
    """pyproject reads it from the package; nothing else states it except the references above."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: the project depends on tomli there
        import tomli as tomllib  # type: ignore[no-redef]

    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"] and pyproject["project"]["dynamic"] == ["version"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "pytea_ci.__version__"}


def test_the_editor_extension_has_the_package_version() -> None:
    """The VS Code extension ships with the server it starts: its manifest states the same version."""
    import json

    manifest = json.loads((REPO / "editors" / "vscode" / "package.json").read_text())
    assert manifest["version"] == __version__
