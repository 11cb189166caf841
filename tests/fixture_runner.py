"""Fixture programs with inline expectations, in the style of mypy's test-data.

A fixture is a Python program under `tests/fixtures/`. A line ending in `# E: [PT001]` (or several
codes, `# E: [PT001] [PT003]`) must produce exactly those findings on that line; every other line
must produce none. The program is analyzed as an entry point, run as `__main__`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from pytea_ci.driver.run import Options, run

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
_MARK = re.compile(r"#\s*E:\s*((?:\[[A-Z]+\d+\]\s*)+)")
_CODE = re.compile(r"\[([A-Z]+\d+)\]")


@dataclass(frozen=True)
class Expectation:
    path: str
    line: int
    rule: str


def fixture_files() -> list[str]:
    out = []
    for dirpath, _, files in os.walk(FIXTURES):
        out.extend(os.path.join(dirpath, f) for f in files if f.endswith(".py") and not f.startswith("_"))
    return sorted(out)


def expected(path: str) -> set[Expectation]:
    """Expectations of a fixture and of the helper modules next to it (files starting with `_`)."""
    out: set[Expectation] = set()
    folder = os.path.dirname(path)
    files = [path] + [os.path.join(folder, f) for f in os.listdir(folder) if f.startswith("_") and f.endswith(".py")]
    for f in files:
        with open(f, encoding="utf-8") as fh:
            for i, line in enumerate(fh, 1):
                m = _MARK.search(line)
                if m:
                    for code in _CODE.findall(m.group(1)):
                        out.add(Expectation(os.path.relpath(f, folder), i, code))
    return out


def actual(path: str, strict: bool = True) -> set[Expectation]:
    folder = os.path.dirname(path)
    result = run([path], Options(root=folder, strict=strict))
    return {Expectation(d.span.path, d.span.line, d.rule) for d in result.diagnostics if d.rule != "PT011"
            or "internal" in d.message}
