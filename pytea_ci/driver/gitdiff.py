"""What changed, according to git (GitPython): staged changes, a base revision or a PR range.

The result is a `ChangeSet`: absolute paths of every changed file (both sides of a rename, deleted
files included) and the changed line ranges on the new side (for `--new-only`). When git cannot
answer (no repository, a shallow clone without the base, an unknown revision) the change set is
marked incomplete with a message saying how to fix it, and the caller analyzes every entry point.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from pytea_ci.driver import fs

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)
SHALLOW_FIX = ("fetch the history: `fetch-depth: 0` on actions/checkout, or "
               "`git fetch --deepen=50 origin <base> <head>`")


class GitError(Exception):
    """git cannot answer a question that was explicitly asked (e.g. --staged outside a repository)."""


@dataclass
class ChangeSet:
    changed: set[str] = field(default_factory=set)
    hunks: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # path -> [(first, last)] new side
    complete: bool = True  # False: fall back to every entry point
    message: str = ""  # why it is incomplete, and how to fix it

    def in_hunks(self, path: str, line: int) -> bool:
        return any(a <= line <= b for a, b in self.hunks.get(os.path.abspath(path), []))


def open_repo(path: str) -> Any:
    """The git repository containing `path`, or None (not a repository, or git is missing)."""
    fs.untracked("git was asked")  # what git answers is not re-asked by a replay
    try:
        import git
    except ImportError:  # GitPython refuses to import when no git executable is found
        return None
    try:
        return git.Repo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, git.GitCommandNotFound):
        return None


def work_tree(path: str) -> str | None:
    """The top folder of the git work tree containing `path`, or None; without importing GitPython
    (slow to import) when the answer is plain: the nearest folder with a `.git` entry."""
    if any(v in os.environ for v in ("GIT_DIR", "GIT_WORK_TREE")):
        repo = open_repo(path)
        return repo_root(repo) if repo is not None and repo.working_tree_dir else None
    return next((folder for folder in fs.ancestors(path) if fs.exists(os.path.join(folder, ".git"))), None)


def repo_root(repo: Any) -> str:
    return os.path.abspath(repo.working_tree_dir)


def parse_hunks(patch: bytes | str | None) -> list[tuple[int, int]]:
    """New-side line ranges of a unified diff (`@@ -a,b +c,d @@`); pure deletions add nothing."""
    if not patch:
        return []
    data = patch.encode() if isinstance(patch, str) else patch
    out = []
    for m in _HUNK.finditer(data):
        start, count = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
        if count > 0:
            out.append((start, start + count - 1))
    return out


def _collect(repo: Any, diffs: Any) -> ChangeSet:
    root = repo_root(repo)
    cs = ChangeSet()
    for d in diffs:
        old = os.path.join(root, d.a_path) if d.a_path else None
        new = os.path.join(root, d.b_path) if d.b_path else None
        for p in (old, new):
            if p:
                cs.changed.add(os.path.abspath(p))
        if new and not d.deleted_file:
            cs.hunks.setdefault(os.path.abspath(new), []).extend(parse_hunks(d.diff))
    return cs


def _patch_args() -> dict[str, Any]:
    # explicit prefixes: a user's `diff.noprefix=true` would otherwise yield no paths
    return {"create_patch": True, "unified": 0, "src_prefix": "a/", "dst_prefix": "b/"}


def staged(repo: Any) -> ChangeSet:
    """The index against HEAD (against the empty tree before the first commit)."""
    import git

    base = repo.head.commit.tree if repo.head.is_valid() else repo.tree(EMPTY_TREE)
    return _collect(repo, base.diff(git.Diffable.INDEX, **_patch_args()))


def worktree(repo: Any) -> ChangeSet:
    """The working tree against HEAD (what plain file arguments are compared with for --new-only)."""
    base = repo.head.commit.tree if repo.head.is_valid() else repo.tree(EMPTY_TREE)
    return _collect(repo, base.diff(None, **_patch_args()))


def _is_shallow(repo: Any) -> bool:
    return os.path.exists(os.path.join(repo.git_dir, "shallow"))


def _resolve(repo: Any, rev: str) -> Any:
    import git

    try:
        return repo.commit(rev)
    except (git.BadName, git.GitCommandError, ValueError):
        return None


def _missing(repo: Any, what: str) -> ChangeSet:
    why = "this is a shallow clone" if _is_shallow(repo) else "it is not in this clone"
    return ChangeSet(complete=False, message=f"cannot diff against {what}: {why}; analyzing every entry point. "
                                             f"To fix: {SHALLOW_FIX}.")


def diff(repo: Any, spec: str) -> ChangeSet:
    """`BASE` (against the working tree), `BASE..HEAD` (two commits) or `BASE...HEAD` (from the merge-base)."""
    sep = "..." if "..." in spec else ".." if ".." in spec else ""
    base_rev, head_rev = spec.split(sep, 1) if sep else (spec, "")
    base = _resolve(repo, base_rev)
    if base is None:
        return _missing(repo, repr(base_rev))
    head = None  # None: the working tree
    if sep:
        head = _resolve(repo, head_rev or "HEAD")
        if head is None:
            return _missing(repo, repr(head_rev))
    if sep == "...":
        bases = repo.merge_base(base, head)
        if not bases:
            return _missing(repo, f"the merge-base of {base_rev!r} and {head_rev or 'HEAD'!r}")
        base = bases[0]
    return _collect(repo, base.diff(head, **_patch_args()))
