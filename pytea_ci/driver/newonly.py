"""Which findings a change introduced (`--new-only`, and the Action's "new in this pull request").

A finding is *new* when no finding with the same identity exists on the base revision: the same rule,
file and `partialFingerprints` (the ones SARIF carries: the hash of the finding's line and what follows
it, and its column within the line), so moving an old bug is not new, while a bug the change causes
at an unchanged call site is. The base is analyzed from a snapshot of its commit (`git archive` into a
temporary folder) with the same options and result cache as the head, so an unchanged base costs a
cache lookup.

When the base cannot be analyzed (its merge-base is beyond a shallow clone, its commit cannot be
read), the fallback rule applies: a finding is new when any of its locations — primary, related (where
a dim was born), or on its call path — lies in a changed hunk. The verdict says which rule was used.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pytea_ci.diagnostics import Diagnostic
from pytea_ci.diagnostics.result import RunResult
from pytea_ci.driver import fs, gitdiff
from pytea_ci.driver.run import Options, run_with_figures

Identity = tuple[str, str, str, str]  # rule, root-relative file, line hash, column fingerprint
FINGERPRINT_RULE = "fingerprint"
HUNK_RULE = "changed-lines"


@dataclass
class Verdict:
    """`is_new(d)` for each finding, and a one-line statement of the rule used."""

    rule: str  # FINGERPRINT_RULE or HUNK_RULE
    message: str
    new_keys: set[tuple[str, str, int, int]]  # Diagnostic.key() of the new findings

    def is_new(self, d: Diagnostic) -> bool:
        return d.key() in self.new_keys


def identities(diagnostics: list[Diagnostic], root: str) -> list[Identity]:
    """The identity of each finding, from the files under `root` (a finding whose file cannot be read
    falls back to its line number)."""
    from pytea_ci.report.sarif import partial_fingerprints

    out = []
    for d, fp in zip(diagnostics, partial_fingerprints(diagnostics, root), strict=True):
        path = d.span.path.replace(os.sep, "/")
        if fp is None:
            out.append((d.rule, path, f"line {d.span.line}", str(d.span.col)))
        else:
            out.append((d.rule, path, fp["primaryLocationLineHash"], fp["primaryLocationStartColumnFingerprint"]))
    return out


def locations(d: Diagnostic) -> list[tuple[str, int]]:
    return [(s.path, s.line) for s in (d.span, *(r.span for r in d.related), *(f.span for f in d.trace))]


def by_hunks(diagnostics: list[Diagnostic], changes: gitdiff.ChangeSet, root: str, why: str) -> Verdict:
    new = {d.key() for d in diagnostics
           if any(changes.in_hunks(os.path.join(root, p), line) for p, line in locations(d))}
    message = (f"--new-only: {why}; new = any of a finding's locations (primary, related or on its call path) "
               "lies on a changed line (fallback rule)")
    return Verdict(HUNK_RULE, message, new)


def _rel(path: str, root: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def base_entries(entries: list[str], root: str, base_root: str, changes: gitdiff.ChangeSet) -> list[str]:
    """The head's entry points as they were on the base (renamed ones under their old name)."""
    out = []
    for e in entries:
        old = changes.renames.get(os.path.abspath(e), os.path.abspath(e))
        candidate = os.path.join(base_root, _rel(old, root))
        if os.path.isfile(candidate):
            out.append(candidate)
    return out


def base_identities(repo: Any, changes: gitdiff.ChangeSet, root: str, entries: list[str],
                    make_options: Callable[[str, list[str]], Options]) -> set[Identity]:
    """Identities of the base's findings, with their files renamed as the change renamed them."""
    assert changes.base is not None
    renamed = {_rel(old, root): _rel(new, root) for new, old in changes.renames.items()}
    fs.untracked("the base revision was analyzed")
    with tempfile.TemporaryDirectory(prefix="pytea-ci-base-") as tmp:
        gitdiff.snapshot(repo, changes.base, tmp)
        base_root = os.path.normpath(os.path.join(tmp, _rel(root, gitdiff.repo_root(repo))))
        todo = base_entries(entries, root, base_root, changes)
        result, _ = run_with_figures(todo, make_options(base_root, todo))
        found = identities(result.diagnostics, base_root)
    return {(rule, renamed.get(path, path), h, c) for rule, path, h, c in found}


def classify(result: RunResult, changes: gitdiff.ChangeSet, repo: Any, root: str, entries: list[str],
             make_options: Callable[[str, list[str]], Options]) -> Verdict:
    diagnostics = result.diagnostics
    if changes.base is None and not changes.merge_base_missing:  # before the first commit: all is new
        return Verdict(FINGERPRINT_RULE, "--new-only: no base commit: every finding is new",
                       {d.key() for d in diagnostics})
    if changes.merge_base_missing:
        return by_hunks(diagnostics, changes, root, "the merge-base is beyond this shallow clone")
    try:
        old = base_identities(repo, changes, root, entries, make_options)
    except gitdiff.GitError as e:
        return by_hunks(diagnostics, changes, root, f"the base cannot be analyzed ({e})")
    new = {d.key() for d, ident in zip(diagnostics, identities(diagnostics, root), strict=True) if ident not in old}
    short = (changes.base or "")[:12]
    return Verdict(FINGERPRINT_RULE, f"--new-only: new = no finding with the same fingerprint on the base "
                                     f"({short}, {len(old)} finding(s) there)", new)


def with_cache(opts: Options, cache_dir: str | None) -> Options:
    """The base's options share the head's cache: unchanged entry points are answered from it."""
    return dataclasses.replace(opts, cache_dir=cache_dir)
