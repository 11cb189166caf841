"""What changed, according to git (GitPython): staged changes, a base revision or a PR range.

The result is a `ChangeSet`: absolute paths of every changed file (both sides of a rename, deleted
files included), the changed line ranges on the new side, the renames, and the commit the changes
are measured from (`base`: what `--new-only` analyzes to tell new findings from old ones).

Failures are one line each (`GitError`, exit code 2): a revision that does not exist (a typo, or
`HEAD~1` in a depth-1 clone), a git command that fails. The one tolerated gap is the CI case of a
shallow clone: a commit id that is not in it, or a merge-base beyond its depth, gives a change set
marked incomplete (every entry point is analyzed) or without a merge-base, with the fix in its message.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from pytea_ci.driver import fs

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)
_HEX = re.compile(r"^[0-9a-fA-F]{7,64}$")
SHALLOW_FIX = ("fetch the history: `fetch-depth: 0` on actions/checkout, or "
               "`git fetch --deepen=50 origin <base> <head>`")


class GitError(Exception):
    """git cannot answer a question that was explicitly asked (reported in one line, exit code 2)."""


@dataclass
class ChangeSet:
    changed: set[str] = field(default_factory=set)
    hunks: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # path -> [(first, last)] new side
    renames: dict[str, str] = field(default_factory=dict)  # new absolute path -> old absolute path
    complete: bool = True  # False: fall back to every entry point
    message: str = ""  # why it is incomplete (or has no merge-base), and how to fix it
    base: str | None = None  # the commit the changes are measured from; None: none (first commit, unknown)
    merge_base_missing: bool = False  # shallow clone: the hunks are measured from the base itself

    def in_hunks(self, path: str, line: int) -> bool:
        return any(a <= line <= b for a, b in self.hunks.get(os.path.abspath(path), []))


def one_line(e: BaseException) -> str:
    """A git failure as one line: git's own `fatal:`/`error:` line when there is one."""
    stderr = getattr(e, "stderr", None)
    text = stderr if isinstance(stderr, str) and stderr.strip() else str(e)
    lines = [ln.strip().strip("'").strip() for ln in text.splitlines() if ln.strip()]
    for ln in lines:
        for marker in ("fatal:", "error:"):
            if marker in ln:
                return ln[ln.index(marker):]
    return lines[0] if lines else type(e).__name__


def _git_errors() -> tuple[type[BaseException], ...]:
    import git

    return (git.GitError, git.BadName, git.BadObject, ValueError, OSError)


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


def _collect(repo: Any, diffs: Any, base: str | None) -> ChangeSet:
    root = repo_root(repo)
    cs = ChangeSet(base=base)
    for d in diffs:
        old = os.path.abspath(os.path.join(root, d.a_path)) if d.a_path else None
        new = os.path.abspath(os.path.join(root, d.b_path)) if d.b_path else None
        cs.changed.update(p for p in (old, new) if p)
        if new and not d.deleted_file:
            cs.hunks.setdefault(new, []).extend(parse_hunks(d.diff))
        if old and new and old != new:
            cs.renames[new] = old
    return cs


def _patch_args(context: int = 0) -> dict[str, Any]:
    # explicit prefixes: a user's `diff.noprefix=true` would otherwise yield no paths
    # (GitPython asks for renames, -M, by itself: a moved file keeps its findings' identity)
    return {"create_patch": True, "unified": context, "src_prefix": "a/", "dst_prefix": "b/"}


def _head(repo: Any) -> Any:
    return repo.head.commit if repo.head.is_valid() else None


def staged(repo: Any) -> ChangeSet:
    """The index against HEAD (against the empty tree before the first commit)."""
    import git

    try:
        head = _head(repo)
        base = head.tree if head is not None else repo.tree(EMPTY_TREE)
        return _collect(repo, base.diff(git.Diffable.INDEX, **_patch_args()), head.hexsha if head else None)
    except _git_errors() as e:
        raise GitError(f"git diff --staged failed: {one_line(e)}") from None


def worktree(repo: Any) -> ChangeSet:
    """The working tree against HEAD (what plain file arguments are compared with for --new-only)."""
    try:
        head = _head(repo)
        base = head.tree if head is not None else repo.tree(EMPTY_TREE)
        return _collect(repo, base.diff(None, **_patch_args()), head.hexsha if head else None)
    except _git_errors() as e:
        raise GitError(f"git diff HEAD failed: {one_line(e)}") from None


def is_shallow(repo: Any) -> bool:
    return os.path.exists(os.path.join(repo.git_dir, "shallow"))


def _resolve(repo: Any, rev: str) -> Any:
    """The commit `rev` names; None for a commit id missing from a shallow clone (the CI case);
    GitError for anything else that does not resolve (a typo, `HEAD~1` beyond a shallow clone)."""
    if not rev or rev.startswith("-"):
        raise GitError(f"--diff: {rev!r} is not a revision")
    try:
        return repo.commit(repo.git.rev_parse(f"{rev}^{{commit}}", "--").splitlines()[0])
    except _git_errors() as e:
        if is_shallow(repo) and _HEX.match(rev):
            return None
        if not repo.head.is_valid():
            raise GitError(f"--diff {rev}: the repository has no commit yet; commit once, or check without --diff"
                           ) from None
        hint = f" (this is a shallow clone; to fix: {SHALLOW_FIX})" if is_shallow(repo) else ""
        raise GitError(f"--diff: unknown revision {rev!r}: {one_line(e)}{hint}") from None


def _missing(what: str) -> ChangeSet:
    return ChangeSet(complete=False, message=f"cannot diff against {what}: this is a shallow clone; analyzing "
                                             f"every entry point. To fix: {SHALLOW_FIX}.")


def diff(repo: Any, spec: str, context: int = 0) -> ChangeSet:
    """`BASE` (against the working tree), `BASE..HEAD` (two commits) or `BASE...HEAD` (from the merge-base).
    `context`: lines of context around each hunk, which then count as its lines (3: the hunks of a pull
    request's diff on GitHub, the lines a review comment may be on)."""
    sep = "..." if "..." in spec else ".." if ".." in spec else ""
    base_rev, head_rev = spec.split(sep, 1) if sep else (spec, "")
    base = _resolve(repo, base_rev)
    if base is None:
        return _missing(repr(base_rev))
    head = None  # None: the working tree
    if sep:
        head = _resolve(repo, head_rev or "HEAD")
        if head is None:
            return _missing(repr(head_rev))
    try:
        missing = False
        if sep == "...":
            bases = repo.merge_base(base, head)
            if not bases and not is_shallow(repo):
                raise GitError(f"--diff: {base_rev!r} and {head_rev or 'HEAD'!r} have no common ancestor")
            missing = not bases
            base = bases[0] if bases else base
        cs = _collect(repo, base.diff(head, **_patch_args(context)), base.hexsha)
    except _git_errors() as e:
        raise GitError(f"git diff {spec} failed: {one_line(e)}") from None
    if missing:
        cs.merge_base_missing = True
        cs.message = (f"the merge-base of {base_rev!r} and {head_rev or 'HEAD'!r} is beyond this shallow clone: "
                      f"changes are measured from {base_rev!r} itself. To fix: {SHALLOW_FIX}.")
    return cs


def snapshot(repo: Any, commit: str, dest: str) -> None:
    """Write the tree of `commit` into `dest` (`git archive`: read-only for the repository, unlike a
    worktree, and safe inside a pre-commit hook where GIT_INDEX_FILE points at the commit's index)."""
    import tarfile
    import tempfile

    errors: tuple[type[BaseException], ...] = (*_git_errors(), tarfile.TarError)
    try:
        with tempfile.TemporaryFile() as tar:
            repo.archive(tar, commit, format="tar")
            tar.seek(0)
            with tarfile.open(fileobj=tar) as archive:
                archive.extractall(dest, filter="data")
    except errors as e:
        raise GitError(f"cannot read commit {commit[:12]}: {one_line(e)}") from None
