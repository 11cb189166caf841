"""Applying proven fixes: the new text of each file (edits of one file applied from its end, overlapping or
repeated edits once), written back (`check --fix`) or shown as a unified diff (`check --show-fixes`)."""

from __future__ import annotations

import difflib
import os

from pytea_ci.diagnostics import Edit
from pytea_ci.diagnostics.result import RunResult
from pytea_ci.fixes.source import Sources, replace


def chosen_edits(result: RunResult, unsafe: bool) -> dict[str, list[Edit]]:
    """The edits to apply per file (root-relative path as the findings name it): the safe fixes, and with
    `unsafe` the others too; an edit overlapping one already chosen is left for the next run."""
    out: dict[str, list[Edit]] = {}
    for e in result.entries:
        for d in e.diagnostics:
            if d.fix is None or not (d.fix.safe or unsafe):
                continue
            for edit in d.fix.edits:
                taken = out.setdefault(edit.span.path, [])
                if edit not in taken and not any(_overlap(edit, t) for t in taken):
                    taken.append(edit)
    return out


def _overlap(a: Edit, b: Edit) -> bool:
    def bounds(x: Edit) -> tuple[tuple[int, int], tuple[int, int]]:
        s = x.span
        return (s.line, s.col), (s.end_line or s.line, s.end_col if s.end_col is not None else s.col)
    (a0, a1), (b0, b1) = bounds(a), bounds(b)
    return a0 < b1 and b0 < a1 or a0 == b0


def new_texts(result: RunResult, root: str, unsafe: bool) -> dict[str, tuple[str, str]]:
    """path -> (old text, new text) for every file a chosen fix edits."""
    src = Sources(root)
    out: dict[str, tuple[str, str]] = {}
    for path, edits in chosen_edits(result, unsafe).items():
        old = src.text(path)
        if old is None:
            continue
        new = old
        for edit in sorted(edits, key=lambda x: (x.span.line, x.span.col), reverse=True):
            new = replace(new, edit.span, edit.text)
        out[path] = (old, new)
    return out


def apply_fixes(result: RunResult, root: str, unsafe: bool) -> list[str]:
    """Write the fixed files; returns their paths."""
    written = []
    for path, (_, new) in new_texts(result, root, unsafe).items():
        full = path if os.path.isabs(path) else os.path.join(root, path)
        with open(full, "w", encoding="utf-8") as f:
            f.write(new)
        written.append(path)
    return written


def unified_diff(result: RunResult, root: str, unsafe: bool) -> str:
    parts: list[str] = []
    for path, (old, new) in new_texts(result, root, unsafe).items():
        rel = os.path.relpath(path, root) if os.path.isabs(path) else path
        parts.extend(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                          f"a/{rel}", f"b/{rel}"))
    return "".join(parts)
