#!/usr/bin/env python3
"""Print the CHANGELOG.md section of one version (the release notes): `changelog_section.py 0.1.0`.
Exit 1 when the section is missing or empty, so a release without notes fails its build job."""

from __future__ import annotations

import re
import sys
from pathlib import Path


def section(text: str, version: str) -> str:
    head = re.compile(rf"^## \[{re.escape(version)}\][^\n]*\n", re.M)
    m = head.search(text)
    if m is None:
        return ""
    nxt = re.compile(r"^## ", re.M).search(text, m.end())
    return text[m.end():nxt.start() if nxt else len(text)].strip()


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: changelog_section.py VERSION", file=sys.stderr)
        return 2
    body = section((Path(__file__).resolve().parent.parent / "CHANGELOG.md").read_text(), sys.argv[1])
    if not body:
        print(f"CHANGELOG.md has no section for {sys.argv[1]}", file=sys.stderr)
        return 1
    print(body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
