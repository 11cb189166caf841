"""Proven fixes as pull-request review comments with a GitHub "suggested change" (```suggestion block on
the changed lines), one comment per fix, posted through the REST API (`POST /repos/{repo}/pulls/{n}/comments`)
with the workflow's token. Findings without a fix get no comment, and neither does a fix whose lines are
outside the pull request's diff (GitHub rejects a review comment there): the caller counts those. Paths are
relative to the repository root (the caller rebases the run there, as for SARIF)."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from pytea_ci.diagnostics import Diagnostic, rule_by_id
from pytea_ci.diagnostics.result import RunResult
from pytea_ci.fixes.source import Sources, replace


@dataclass(frozen=True)
class Target:
    """Where comments go: the API base (`GITHUB_API_URL`), `owner/name`, the pull request and its head."""

    api_url: str
    repo: str
    number: int
    commit: str
    token: str


def comments(result: RunResult, root: str) -> list[dict[str, Any]]:
    """The review comments of a run: one per finding with a fix (a finding reported by several entry
    points once), each replacing the lines its edits touch by the fixed lines."""
    src = Sources(root)
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str, int, int]] = set()
    for d in result.diagnostics:
        if d.fix is None or d.key() in seen or len({e.span.path for e in d.fix.edits}) != 1:
            continue
        seen.add(d.key())
        comment = _comment(d, src)
        if comment is not None:
            out.append(comment)
    return out


def _comment(d: Diagnostic, src: Sources) -> dict[str, Any] | None:
    assert d.fix is not None
    path = d.fix.edits[0].span.path
    text = src.text(path)
    if text is None:
        return None
    first = min(e.span.line for e in d.fix.edits)
    last = max(e.span.end_line or e.span.line for e in d.fix.edits)
    fixed = text
    for e in sorted(d.fix.edits, key=lambda x: (x.span.line, x.span.col), reverse=True):
        fixed = replace(fixed, e.span, e.text)
    old_lines, new_lines = text.splitlines(), fixed.splitlines()
    changed = new_lines[first - 1:last + len(new_lines) - len(old_lines)]
    rule = rule_by_id(d.rule)
    kind = "" if d.fix.safe else " (unsafe: it changes more than a literal — check it is what you meant)"
    body = (f"**pytea-ci** {d.rule} [{rule.slug if rule else ''}] {d.message.splitlines()[0]}\n\n"
            f"Fix, proven by re-analysis: `{d.fix.title}`{kind}\n\n```suggestion\n" + "\n".join(changed) + "\n```")
    comment: dict[str, Any] = {"path": path.replace("\\", "/"), "line": last, "side": "RIGHT", "body": body}
    if first != last:
        comment.update(start_line=first, start_side="RIGHT")
    return comment


Lines = dict[str, list[tuple[int, int]]]  # repository-relative path -> right-side line ranges of the hunks


def pull_request_lines(repo: str, base: str, head: str) -> Lines | None:
    """The lines of the pull request's diff on its right side, as GitHub shows it (`base...head` from the
    merge-base, 3 lines of context around each change), by path relative to `repo`; None when git cannot
    tell (no repository, a commit missing from the clone)."""
    from pytea_ci.driver import gitdiff

    git_repo = gitdiff.open_repo(repo)
    if git_repo is None:
        return None
    try:
        changes = gitdiff.diff(git_repo, f"{base}...{head}", context=3)
    except gitdiff.GitError:
        return None
    if not changes.complete:
        return None
    top = os.path.realpath(repo)
    return {os.path.relpath(os.path.realpath(p), top).replace(os.sep, "/"): ranges
            for p, ranges in changes.hunks.items()}


def in_diff(items: list[dict[str, Any]], lines: Lines) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The comments whose lines (`start_line`..`line`) lie within one hunk of the diff, and the others."""
    inside: list[dict[str, Any]] = []
    outside: list[dict[str, Any]] = []
    for item in items:
        first, last = item.get("start_line", item["line"]), item["line"]
        ok = any(a <= first and last <= b for a, b in lines.get(item["path"], []))
        (inside if ok else outside).append(item)
    return inside, outside


def post(items: list[dict[str, Any]], target: Target, timeout: float = 30.0) -> list[str]:
    """Post each comment; returns one line per comment that failed (the others are on the pull request)."""
    failed = []
    url = f"{target.api_url.rstrip('/')}/repos/{target.repo}/pulls/{target.number}/comments"
    for item in items:
        data = json.dumps({**item, "commit_id": target.commit}).encode("utf-8")
        request = urllib.request.Request(url, data=data, method="POST", headers={
            "Authorization": f"Bearer {target.token}", "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (the API's URL)
                response.read()
        except (urllib.error.URLError, OSError) as e:
            failed.append(f"{item['path']}:{item['line']}: {e}")
    return failed
