"""Findings in notebooks, placed where each output wants them (the analysis itself sees a notebook as
the module of its code cells, diagnostics/notebook.py):

* `to_file`: on the `.ipynb` file's own text (line and column of the JSON string holding the code),
  with a note naming the cell — what SARIF, JSON, fingerprints, baselines and changed hunks use, since
  they all speak of the file as it is on disk. Done once, right after the analysis.
* `to_cells`: `train.ipynb:cell 4` with the line and column inside the cell — what the text output
  shows (as ruff does).
"""

from __future__ import annotations

import dataclasses
import functools
import os

from pytea_ci.diagnostics import Diagnostic, Frame, Related, Span
from pytea_ci.diagnostics.notebook import Notebook, NotebookError, is_notebook, parse
from pytea_ci.diagnostics.result import EntryResult, RunResult

CELL_NOTE = "notebook: cell {cell}, line {line}, column {col}"


@functools.lru_cache(maxsize=32)
def _parsed(data: bytes) -> Notebook | None:
    try:
        return parse(data)
    except NotebookError:
        return None


def load(path: str) -> Notebook | None:
    """The notebook at `path` (memoized by content), or None when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return _parsed(f.read())
    except OSError:
        return None


def _file_span(span: Span, root: str) -> Span:
    nb = load(os.path.join(root, span.path)) if is_notebook(span.path) else None
    start = nb.in_file(span.line, span.col) if nb else None
    if nb is None or start is None:
        return span
    end = nb.in_file(span.end_line, span.end_col) if span.end_line is not None and span.end_col is not None else None
    return Span(span.path, start[0], start[1], end[0] if end else None, end[1] if end else None)


def _cell_note(span: Span, root: str) -> str | None:
    nb = load(os.path.join(root, span.path)) if is_notebook(span.path) else None
    where = nb.in_cell(span.line, span.col) if nb else None
    return None if where is None else CELL_NOTE.format(cell=where[0], line=where[1], col=where[2] + 1)


def _map_diagnostic(d: Diagnostic, root: str) -> Diagnostic:
    note = _cell_note(d.span, root)
    return dataclasses.replace(
        d, span=_file_span(d.span, root),
        notes=(note, *d.notes) if note else d.notes,
        related=tuple(Related(_file_span(r.span, root), r.message) for r in d.related),
        trace=tuple(Frame(_file_span(f.span, root), f.message) for f in d.trace))


def _touches_notebook(d: Diagnostic) -> bool:
    return any(is_notebook(s.path) for s in (d.span, *(r.span for r in d.related), *(f.span for f in d.trace)))


def to_file(result: EntryResult, root: str) -> EntryResult:
    """An entry point's findings with notebook positions on the notebook file (after the analysis)."""
    if not any(_touches_notebook(d) for d in result.diagnostics):
        return result
    return dataclasses.replace(result, diagnostics=[_map_diagnostic(d, root) if _touches_notebook(d) else d
                                                    for d in result.diagnostics])


def _cell_span(span: Span, root: str) -> Span:
    nb = load(os.path.join(root, span.path)) if is_notebook(span.path) else None
    where = nb.from_file(span.line, span.col) if nb else None
    if nb is None or where is None:
        return span
    cell, line, col = where
    end = None
    if span.end_line is not None and span.end_col is not None:
        end = nb.from_file(span.end_line, span.end_col)
    same = end is not None and end[0] == cell
    # the text output cannot read "x.ipynb:cell 4", so its columns are taken as given: characters
    return Span(f"{span.path}:cell {cell}", line, col, end[1] if same and end else None,
                end[2] if same and end else None)


def to_cells(result: RunResult, root: str) -> RunResult:
    """The run with notebook positions as `file.ipynb:cell N`, line and column in the cell (text output)."""
    def one(d: Diagnostic) -> Diagnostic:
        if not _touches_notebook(d):
            return d
        return dataclasses.replace(
            d, span=_cell_span(d.span, root), notes=tuple(n for n in d.notes if not n.startswith("notebook: cell ")),
            related=tuple(Related(_cell_span(r.span, root), r.message) for r in d.related),
            trace=tuple(Frame(_cell_span(f.span, root), f.message) for f in d.trace))

    entries = [dataclasses.replace(e, diagnostics=[one(d) for d in e.diagnostics]) for e in result.entries]
    return dataclasses.replace(result, entries=entries)
