"""The generated docs page lists exactly the registry's models, and the catalogue counts aliases once."""

from __future__ import annotations

import os
import subprocess
import sys

from pytea_ci.models.catalog import entries, library_names, modeled_names
from pytea_ci.models.registry import REGISTRY

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_docs_page_in_sync_with_registry() -> None:
    script = os.path.join(ROOT, "scripts", "gen_models_doc.py")
    done = subprocess.run([sys.executable, script, "--check"], cwd=ROOT, check=False)
    assert done.returncode == 0, "docs/models.md is stale: run `python scripts/gen_models_doc.py`"


def test_every_registered_name_is_in_the_docs() -> None:
    with open(os.path.join(ROOT, "docs", "models.md"), encoding="utf-8") as f:
        text = f.read()
    listed = {n for e in entries() for n in (e.name,) + e.aliases}
    for name in REGISTRY:
        if name in listed:
            assert f"`{name}`" in text


def test_aliases_count_once() -> None:
    names = modeled_names()
    assert len(names) == len(set(names))
    assert "torch.nn.functional.conv2d" in names or "torch.conv2d" in names
    assert not ("torch.nn.functional.conv2d" in names and "torch.conv2d" in names)


def test_breadth_target() -> None:
    assert len(library_names()) >= 300
