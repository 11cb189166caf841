"""Shared by the library-mode tests: the fixtures, their expectations, and runs of library mode."""

from __future__ import annotations

import os
import re

from pytea_ci.library import targets as lib
from pytea_ci.driver.discover import python_files
from pytea_ci.library.inputs import LibraryTarget

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
_MARK = re.compile(r"#\s*E:\s*\[(PT\d{3})\]")


def expectations(path: str) -> set[tuple[int, str]]:
    """(line, rule) of every `# E: [PTxxx]` marker of a fixture."""
    with open(path, encoding="utf-8") as f:
        return {(i, m.group(1)) for i, line in enumerate(f, 1) for m in _MARK.finditer(line)}


def targets(path: str, cls: str | None = None) -> list[LibraryTarget]:
    root = os.path.dirname(path)
    found = lib.targets([path], python_files(root, root, []), root, {cls} if cls else None)
    return found.targets


MAX_PARAMETERS = 20_000_000  # what a torch oracle test builds on a CI machine (a 7B default config is not)


def rebuildable(construct: str) -> bool:
    """Whether a torch oracle can build what library mode built: not with an argument not known, nor with a
    configuration object whose attributes only the analysis knows (`__pytea_config__`)."""
    return "__pytea_unknown__" not in construct and "__pytea_config__" not in construct


def too_big_to_build(construct: str, env: dict) -> bool:
    """Whether the module `construct` builds in `env` has more parameters than an oracle test allocates:
    built on torch's meta device (no memory) and counted. A construction the meta device cannot run is
    left to the real build."""
    import torch

    try:
        with torch.device("meta"):
            model = eval(construct, dict(env))  # noqa: S307 (our own construction text)
    except Exception:
        return False
    return sum(p.numel() for p in model.parameters()) > MAX_PARAMETERS
