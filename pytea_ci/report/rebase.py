"""Re-base finding paths from the project root to the repository root.

GitHub resolves SARIF artifact URIs and annotation `file=` values against the repository root,
while findings are relative to the project root (the folder of the `pyproject.toml` holding
`[tool.pytea-ci]`), which may be a sub-folder of the repository.
"""

from __future__ import annotations

import dataclasses
import os

from pytea_ci.diagnostics import Diagnostic, Span
from pytea_ci.diagnostics.result import RunResult


def rebase(result: RunResult, prefix: str) -> RunResult:
    """A copy of `result` whose paths are `prefix/path` (no copy when the prefix is empty)."""
    if prefix in ("", "."):
        return result

    def span(s: Span) -> Span:
        return s if os.path.isabs(s.path) else dataclasses.replace(s, path=os.path.join(prefix, s.path))

    def diag(d: Diagnostic) -> Diagnostic:
        return dataclasses.replace(
            d, span=span(d.span), entry=os.path.join(prefix, d.entry) if d.entry else d.entry,
            related=tuple(dataclasses.replace(r, span=span(r.span)) for r in d.related),
            trace=tuple(dataclasses.replace(f, span=span(f.span)) for f in d.trace))

    entries = [dataclasses.replace(e, entry=os.path.join(prefix, e.entry), diagnostics=[diag(d) for d in e.diagnostics])
               for e in result.entries]
    return dataclasses.replace(result, entries=entries)

