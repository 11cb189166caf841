"""Baselines: the adoption path for a project that already has findings.

`pytea-ci baseline write` records the current findings; `check --baseline FILE` then reports only the
findings that are not in it, so new code is held to the rule while old findings are fixed at leisure.

A finding is recorded by its identity — rule, file (relative to the project root) and the
`partialFingerprints` SARIF carries (the hash of its line and what follows it, and its column within
the line) — never by line number, so it stays matched when lines above it are added or removed. The
file is JSON, sorted, one finding per line, so it diffs well in review; the message is kept as a note
for the reader and is not compared. Matching counts: two identical findings in the baseline suppress
two, a third one is reported.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from pytea_ci.diagnostics.result import RunResult
from pytea_ci.driver import fs
from pytea_ci.driver.newonly import Identity, identities

FORMAT = 1
DEFAULT_FILE = "pytea-ci-baseline.json"


class BaselineError(Exception):
    """A baseline file that cannot be read (one line, exit code 2)."""


@dataclass
class Applied:
    suppressed: int  # findings found in the baseline (not reported)
    recorded: int  # findings the baseline holds


def render(result: RunResult, root: str) -> str:
    diagnostics = result.diagnostics
    rows = sorted((*ident, d.message.splitlines()[0] if d.message else "")
                  for d, ident in zip(diagnostics, identities(diagnostics, root), strict=True))
    lines = [json.dumps({"rule": rule, "file": path, "fingerprint": line_hash, "column": column, "message": message},
                        ensure_ascii=False) for rule, path, line_hash, column, message in rows]
    body = ",\n    ".join(lines)
    return (f'{{\n  "format": {FORMAT},\n  "tool": "pytea-ci",\n  "findings": [\n    {body}\n  ]\n}}\n' if lines
            else f'{{\n  "format": {FORMAT},\n  "tool": "pytea-ci",\n  "findings": []\n}}\n')


def load(path: str) -> Counter[Identity]:
    try:  # through fs: a replayed check re-reads the baseline by content
        doc = json.loads(fs.read(path).decode("utf-8"))
    except OSError as e:
        raise BaselineError(f"{path}: cannot read the baseline: {e.strerror}") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise BaselineError(f"{path}: not a pytea-ci baseline (invalid JSON: {e})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("findings"), list):
        raise BaselineError(f"{path}: not a pytea-ci baseline (format {FORMAT}); write one with `pytea-ci baseline write`")
    out: Counter[Identity] = Counter()
    for item in doc["findings"]:
        try:
            out[(str(item["rule"]), str(item["file"]), str(item["fingerprint"]), str(item["column"]))] += 1
        except (KeyError, TypeError):
            raise BaselineError(f"{path}: a finding without rule, file, fingerprint and column: {item!r}") from None
    return out


def apply(result: RunResult, recorded: Counter[Identity], root: str) -> Applied:
    """Drop the findings the baseline holds from `result` (in place)."""
    budget = Counter(recorded)
    diagnostics = result.diagnostics
    known = set()
    for d, ident in zip(diagnostics, identities(diagnostics, root), strict=True):
        if budget[ident] > 0:
            budget[ident] -= 1
            known.add(d.key())
    for e in result.entries:
        e.diagnostics = [d for d in e.diagnostics if d.key() not in known]
    return Applied(len(known), sum(recorded.values()))
