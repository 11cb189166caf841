"""The proven fix of a finding as the preferred quick fix (issue 34): computed on the first code-action
request for it (`pytea_ci/fixes/` re-analyzes the edited buffers in memory), kept with the analysis it
belongs to, and offered only while that analysis matches the buffer the user sees."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lsprotocol import types as T

from pytea_ci.diagnostics import Diagnostic, Fix
from pytea_ci.lsp.analysis import Analysis
from pytea_ci.lsp.convert import to_range, uri_of

if TYPE_CHECKING:
    from pytea_ci.lsp.server import PyteaServer


def fix_actions(ls: PyteaServer, path: str, wanted: list[T.Diagnostic]) -> list[T.CodeAction]:
    out = []
    for run in ls.session.analyses_covering(path):
        if not _current(ls, run):
            continue
        for lsp_diag in wanted:
            d = _finding(run, path, lsp_diag)
            fix = _fix_of(ls, run, d) if d is not None else None
            if fix is not None:
                out.append(_action(ls, run, fix, lsp_diag))
        if out:
            break
    return out


def _current(ls: PyteaServer, run: Analysis) -> bool:
    """Whether every buffer the run saw is still at the version it saw."""
    buffers = ls.session.buffers()
    return all(buffers.get(p, (b"", v))[1] == v for p, v in run.versions.items())


def _finding(run: Analysis, path: str, lsp_diag: T.Diagnostic) -> Diagnostic | None:
    data = lsp_diag.data if isinstance(lsp_diag.data, dict) else {}
    for d in run.diagnostics.get(path, []):
        if d.rule == data.get("rule", lsp_diag.code) and d.span.line == data.get("line", lsp_diag.range.start.line + 1):
            return d
    return None


def _fix_of(ls: PyteaServer, run: Analysis, d: Diagnostic) -> Fix | None:
    key = d.key()
    if key not in run.fixes:
        run.fixes[key] = _prove(ls, run, d)
    return run.fixes[key]


def _prove(ls: PyteaServer, run: Analysis, d: Diagnostic) -> Fix | None:
    """Prove `d`'s fix on the entry point whose run reported it, with the open buffers standing in for
    the files; a fresh solver (the worker thread may be using the resident one)."""
    from pytea_ci.diagnostics import sources
    from pytea_ci.driver.project import CheckRequest, load_config, options
    from pytea_ci.fixes import Prover

    if run.result is None:
        return None
    entry = next((e for e in run.result.entries if "::" not in e.entry
                  and any(x.key() == d.key() for x in e.diagnostics)), None)
    if entry is None:
        return None
    texts = {p: t for p, (t, _) in ls.session.buffers().items()}
    sources.install(texts)
    try:
        cfg = load_config(run.root, None, {})
        opts = options(cfg, run.root, [os.path.join(run.root, entry.entry)],
                       CheckRequest(no_cache=True, args=dict(ls.session.settings.args)))
        return Prover(opts, run.root, texts).fix(d, entry)
    except Exception:  # a fix is a convenience: never fail the request for it
        return None


def _action(ls: PyteaServer, run: Analysis, fix: Fix, lsp_diag: T.Diagnostic) -> T.CodeAction:
    changes: dict[str, list[T.TextEdit]] = {}
    for e in fix.edits:
        full = os.path.normpath(os.path.join(run.root, e.span.path))
        changes.setdefault(uri_of(full), []).append(T.TextEdit(to_range(e.span, ls.lines(full)), e.text))
    title = f"Fix: {fix.title}" + ("" if fix.safe else " (unsafe)")
    return T.CodeAction(title=title, kind=T.CodeActionKind.QuickFix, diagnostics=[lsp_diag], is_preferred=True,
                        edit=T.WorkspaceEdit(changes=changes))
