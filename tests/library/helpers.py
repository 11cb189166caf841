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
