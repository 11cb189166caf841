"""Release references stay in sync with the package version: every pre-commit `rev:` names the tag
`v<version>`, every `uses: pytea-ci/pytea-ci@` names the moving major tag `v<major>`, and the
CHANGELOG has a section for the version."""

from __future__ import annotations

import re
from pathlib import Path

from pytea_ci import __version__

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
    assert f"\n## {__version__}\n" in changelog and "`v0`" in changelog
