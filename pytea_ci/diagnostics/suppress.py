"""Suppression comments: `# pytea: ignore`, or `# pytea: ignore[PT001, possible-shape-mismatch]` on the
reported line — rules named by id or by slug, as everywhere else. A name that is no rule suppresses
nothing and is reported (`unknown_names`), as ruff reports unknown codes in `# noqa`."""

from __future__ import annotations

import re

from pytea_ci.diagnostics.rules import rule_by_id

_IGNORE = re.compile(r"#\s*pytea:\s*ignore(?:\[(?P<codes>[A-Za-z0-9_,\s-]*)\])?")


def _names(source_line: str) -> list[str] | None:
    """The rule names of the line's suppression comment; None: no comment; []: a bare `ignore`."""
    m = _IGNORE.search(source_line)
    if not m:
        return None
    codes = m.group("codes")
    return [] if codes is None else [c.strip() for c in codes.split(",") if c.strip()]


def is_suppressed(source_line: str, rule_id: str) -> bool:
    names = _names(source_line)
    if names is None:
        return False
    if not names:
        return True
    return any((r := rule_by_id(n)) is not None and r.id == rule_id.upper() for n in names)


def unknown_names(source_line: str) -> list[str]:
    """Names in the line's `# pytea: ignore[...]` that are no rule's id or slug."""
    return [n for n in _names(source_line) or [] if rule_by_id(n) is None]


def unknown_in_file(path: str, text: str) -> list[str]:
    """One warning per suppression comment of a file that names no rule."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if "pytea" in line:
            bad = unknown_names(line)
            if bad:
                out.append(f"{path}:{number}: # pytea: ignore[{', '.join(bad)}] names no rule (see `pytea-ci rules`); "
                           "it suppresses nothing")
    return out
