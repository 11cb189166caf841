"""Proof before offer: a candidate becomes a `Fix` only when its entry point, re-analyzed with the edited
text as an editor overlay (same options, same solver), no longer has the finding, has no finding it did
not have before, on any path, understands the edited lines as well as before (no value the analyzer
does not understand born there), and has no path that ends in an exception where the original had none. Safe when the edit changes a literal only and the re-analysis followed
every path (nothing incomplete); unsafe otherwise. A candidate that fails is dropped, never shown."""

from __future__ import annotations

import dataclasses
import os

from pytea_ci.diagnostics import Diagnostic, Edit, Fix, Severity
from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.diagnostics.rules import INCOMPLETE
from pytea_ci.driver.run import Options, make_decider, run_one
from pytea_ci.fixes.candidates import candidates
from pytea_ci.fixes.source import Candidate, Sources, replace
from pytea_ci.interp.observe import Editor

Where = tuple[str, str, int]  # (rule, path, line): a finding, whatever column an edit on its line moves it to


def attach(result: RunResult, opts: Options, root: str, texts: dict[str, bytes] | None = None) -> int:
    """Give every finding of `result` that has a proven repair its `Fix` (in place); returns how many
    findings got one. `texts`: an editor's unsaved buffers (absolute path -> text), standing in for the
    files in the candidates and in every re-analysis. Library-mode targets (`file.py::Class`) are not
    re-run; their findings share the fix proven on an entry point for the same location."""
    prover = Prover(opts, root, texts or {})
    fixes: dict[tuple[str, str, int, int], Fix] = {}
    for e in result.entries:
        for d in _findings(e):
            if d.key() not in fixes:
                fix = prover.fix(d, e)
                if fix is not None:
                    fixes[d.key()] = fix
    for e in result.entries:
        e.diagnostics = [dataclasses.replace(d, fix=fixes[d.key()]) if d.key() in fixes else d
                         for d in e.diagnostics]
    return len(fixes)


class Prover:
    """Proves candidates for the findings of one run: one solver (and its cache) for every re-analysis."""

    def __init__(self, opts: Options, root: str, texts: dict[str, bytes]) -> None:
        self.opts = dataclasses.replace(opts, jobs=1)
        self.opts.decider = make_decider(self.opts)
        self.texts = texts
        self.src = Sources(root, {p: t.decode("utf-8", errors="replace") for p, t in texts.items()})

    def fix(self, d: Diagnostic, e: EntryResult) -> Fix | None:
        """The first candidate of `d` that its entry point `e` proves; None for library-mode targets."""
        if "::" in e.entry or e.status == "internal-error" or d.severity is Severity.NOTE:
            return None
        for c in candidates(d, self.src):
            fix = self.prove(c, d, e)
            if fix is not None:
                return fix
        return None

    def prove(self, c: Candidate, d: Diagnostic, e: EntryResult) -> Fix | None:
        text = self.src.text(c.edit.span.path)
        if text is None:
            return None
        edited = replace(text, c.edit.span, c.edit.text)
        editor = Editor.of({**self.texts, self.src.path(c.edit.span.path): edited.encode("utf-8")})
        again = run_one(self.src.path(e.entry), dataclasses.replace(self.opts, editor=editor), make_decider(self.opts))
        if again.status == "internal-error":
            return None
        before = {_where(x) for x in _findings(e)}
        after = {_where(x) for x in _findings(again)}
        if _where(d) in after or after - before or _less_understood(again, e, c.edit, d) or _raises(again, e):
            return None
        complete = again.status != "incomplete" and not any(x.rule == INCOMPLETE.id for x in again.diagnostics)
        return Fix(c.title, (c.edit,), c.literal and complete)


def _less_understood(again: EntryResult, e: EntryResult, edit: Edit, d: Diagnostic) -> bool:
    """Whether the edited program has a value the analyzer did not understand born on the edited lines, or
    on the finding's line or above it in its file, that the original had not (`(cls, x).flatten(1)` is an
    AttributeError, not a clean run; a `split` into sizes it cannot count, or a `while` loop's count of
    unknown kind, leaves the finding's check undone): "no finding" proves nothing there. Unknowns further
    on are fine: the repaired program runs past the old finding."""
    places = {(os.path.basename(edit.span.path), line)
              for line in range(edit.span.line, (edit.span.end_line or edit.span.line) + 1)}
    places.add((os.path.basename(d.span.path), d.span.line))

    here = os.path.basename(d.span.path)

    def born_here(r: EntryResult) -> set[tuple[str, int, str]]:
        return {(os.path.basename(str(o["location"][0])), int(o["location"][1]), str(o.get("what", "")))
                for o in r.stats.unknown_origins
                if (os.path.basename(str(o["location"][0])), int(o["location"][1])) in places
                or (os.path.basename(str(o["location"][0])) == here and int(o["location"][1]) <= d.span.line)}
    return bool(born_here(again) - born_here(e))


def _raises(again: EntryResult, e: EntryResult) -> bool:
    """Whether a path of the edited program ends in an exception where none of the original's did
    (`Transformer(..., batch_first=True)` on a class that takes no such argument is a TypeError, and the
    finding is gone only because its line is never reached)."""
    def raised(r: EntryResult) -> set[tuple[str, int]]:
        return {(os.path.basename(str(p["location"][0])), int(p["location"][1])) for p in r.stats.ended_paths
                if p.get("kind") == "exception"}
    return bool(raised(again) - raised(e))


def _findings(e: EntryResult) -> list[Diagnostic]:
    return [d for d in e.diagnostics if d.severity is not Severity.NOTE]


def _where(d: Diagnostic) -> Where:
    return (d.rule, d.span.path, d.span.line)
