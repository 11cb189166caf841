"""docs/rules.md is generated from the catalogue and stays in sync; SARIF's helpUri points into it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytea_ci.diagnostics import RULES
from pytea_ci.diagnostics.result import RunResult
from pytea_ci.diagnostics.rules import is_code
from pytea_ci.report import sarif

REPO = Path(__file__).resolve().parent.parent.parent
DOC = REPO / "docs" / "rules.md"


def _github_anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives the headings of a markdown page (lowercase, punctuation dropped,
    spaces to hyphens, `-1`, `-2` for repeats)."""
    seen: dict[str, int] = {}
    anchors = set()
    for heading in re.findall(r"^#{1,6} (.+)$", markdown, flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        anchors.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


def test_rules_doc_is_up_to_date() -> None:
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "gen_rules_doc.py"), "--check"], check=False)
    assert done.returncode == 0, "docs/rules.md is stale: run `python scripts/gen_rules_doc.py`"


def test_help_uris_point_at_headings_of_the_doc(root: str) -> None:
    anchors = _github_anchors(DOC.read_text(encoding="utf-8"))
    rules = json.loads(sarif.render(RunResult(), root))["runs"][0]["tool"]["driver"]["rules"]
    for rule in rules:
        page, _, anchor = rule["helpUri"].partition("#")
        assert page == "https://github.com/pytea-ci/pytea-ci/blob/main/docs/rules.md"
        assert anchor in anchors, rule["id"]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_use_instead_is_prose_or_a_code_block(rule: object) -> None:
    from pytea_ci.diagnostics import Rule

    assert isinstance(rule, Rule)
    md = rule.markdown()
    instead = md.split("### Use instead\n", 1)[1]
    if rule.id in ("PT010", "PT011"):  # advice, not code
        assert not is_code(rule.instead) and instead == rule.instead + "\n"
    else:
        assert instead == f"```python\n{rule.instead}\n```\n"
    assert f"### Example\n```python\n{rule.example}\n```" in md  # always code, even PT012's broken one
    assert "```" not in rule.text() and rule.text().startswith(f"{rule.id} {rule.slug}\n")
