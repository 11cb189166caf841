"""Suppression comments: `# pytea: ignore` or `# pytea: ignore[PT001, PT002]` on the reported line."""

from __future__ import annotations

import re

_IGNORE = re.compile(r"#\s*pytea:\s*ignore(?:\[(?P<codes>[A-Za-z0-9_,\s-]*)\])?")


def is_suppressed(source_line: str, rule_id: str) -> bool:
    m = _IGNORE.search(source_line)
    if not m:
        return False
    codes = m.group("codes")
    if codes is None:
        return True
    return rule_id.upper() in {c.strip().upper() for c in codes.split(",") if c.strip()}
