"""Replaying an unchanged `check`: the fast path of a warm run.

A `check` whose entry points all came from the result cache, and whose output went only to the
terminal (text, json or sarif on stdout), leaves a record in `<cache dir>/replay/`: the exact
invocation (arguments, working directory, the environment variables and terminal facts the output
depends on), the analyzer's identity, every file-system question the driver asked (`driver/fs.py`:
contents by digest, folder listings, absent modules) and what it printed. The next identical
invocation looks for that record before parsing its arguments or loading anything else; when the
analyzer and every answer are unchanged, the full run would select the same entry points, build the
same cache keys and print the same report, so the record's output and exit code are given instead.

No record, a changed answer, an unreadable or foreign record, any error at all: the full run, which
never depends on this module. Not recorded: runs that analyzed something (their results are cached
now, so the next identical run records), runs that asked git (`--staged`, `--diff`, `--new-only`),
wrote files (`--output`, the github format) or ran without the cache (`--no-cache`). A replay does
not update `last_run.json` (`pytea-ci cache info` shows the last full run).

Records are found at `.pytea_cache/` of the `--root` given, of the working directory or of one of its
parents, or in the `--cache-dir` given on the command line; a `cache-dir` set only in the configuration is not searched
here (such projects always take the full run, which is correct, only slower).
"""

from __future__ import annotations

import os
import sys

from pytea_ci import __version__
from pytea_ci.driver import DEFAULT_CACHE_DIR, fs

TYPE_CHECKING = False  # as typing's, without importing typing on the fast path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any

    from pytea_ci.diagnostics.result import RunResult

FORMAT = 1
MAGIC = f"pytea-ci replay {FORMAT}"
ENV = ("CI", "NO_COLOR", "GIT_DIR", "GIT_WORK_TREE", "HOME")  # every variable the run's output reads
REPLAYABLE_FORMATS = frozenset({"text", "json", "sarif"})


def _tty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def key(argv: Sequence[str]) -> str:
    """The invocation: arguments, working directory, environment and terminals, with the version."""
    doc = [FORMAT, __version__, os.getcwd(), list(argv), [os.environ.get(k) for k in ENV],
           _tty(sys.stdout), _tty(sys.stderr)]
    return fs.digest(repr(doc).encode("utf-8", "surrogateescape"))


# ----- the record: a few tab-separated header lines, then stderr and stdout by length --------------
# (not JSON: the json module and the `re` it loads are a tenth of a replayed run)
def _dump(doc: dict[str, Any]) -> str | None:
    facts = doc["facts"]
    if any(("\t" in x or "\n" in x) for _, p, a in facts for x in (p, a)):
        return None  # a path that cannot be written on one line: never replayed
    lines = [MAGIC, f"key\t{doc['key']}", f"analyzer\t{doc['analyzer']}", f"code\t{doc['code']}",
             *(f"fact\t{k}\t{p}\t{a}" for k, p, a in facts)]
    return "\n".join([*lines, f"stderr\t{len(doc['stderr'])}", doc["stderr"] + f"stdout\t{len(doc['stdout'])}",
                      doc["stdout"]])


def _load(text: str) -> dict[str, Any] | None:
    """The record, or None when it is not one (truncated, foreign, another format)."""
    doc: dict[str, Any] = {"facts": []}
    pos = 0
    for name in ("stderr", "stdout"):
        while True:
            end = text.find("\n", pos)
            if end < 0:
                return None
            head, pos = text[pos:end].split("\t"), end + 1
            if head == [MAGIC]:
                continue
            if head[0] == "fact" and len(head) == 4:
                doc["facts"].append(head[1:])
            elif head[0] in ("key", "analyzer", "code") and len(head) == 2:
                doc[head[0]] = head[1]
            elif head[0] == name and len(head) == 2 and head[1].isdigit():
                doc[name] = text[pos:pos + int(head[1])]
                pos += int(head[1])
                break
            else:
                return None
    if pos != len(text) or not text.startswith(MAGIC + "\n") or not doc.get("code", "").lstrip("-").isdigit():
        return None
    doc["code"] = int(doc["code"])
    return doc


def _option(argv: Sequence[str], name: str) -> str | None:
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(name + "="):
            return a[len(name) + 1:]
    return None


def _folders(argv: Sequence[str]) -> list[str]:
    """Where a record may be: the `--cache-dir` of the command line, else `.pytea_cache/` of the
    `--root` given, or of the working directory or a folder above it (where the root usually is)."""
    explicit = _option(argv, "--cache-dir")
    if explicit:
        return [os.path.abspath(explicit)]
    root = _option(argv, "--root")
    out = [os.path.join(os.path.abspath(root), DEFAULT_CACHE_DIR)] if root else []
    return out + [os.path.join(here, DEFAULT_CACHE_DIR) for here in fs.ancestors(os.getcwd())]


def _record(folder: str, k: str) -> str:
    return os.path.join(folder, "replay", k[:2], k + ".replay")


def replay(argv: Sequence[str]) -> int | None:
    """Print the recorded output of this exact, unchanged invocation and return its exit code;
    None when the full run is needed."""
    try:
        k = key(argv)
        for folder in _folders(argv):
            try:
                with open(_record(folder, k), encoding="utf-8", errors="surrogateescape", newline="") as f:
                    doc = _load(f.read())
            except FileNotFoundError:
                continue
            if doc is None or not _valid(doc, k):
                return None
            sys.stderr.write(doc["stderr"])
            sys.stdout.write(doc["stdout"])
            return int(doc["code"])
    except Exception:  # noqa: BLE001 - anything unexpected: the full run decides
        return None
    return None


def _valid(doc: dict[str, Any], k: str) -> bool:
    from pytea_ci.driver.identity import analyzer_hash

    return doc.get("key") == k and doc.get("analyzer") == analyzer_hash() and fs.unchanged(
        doc["facts"])


def eligible(ns: argparse.Namespace) -> bool:
    """Whether this `check` invocation can be recorded (before it runs)."""
    formats = set(ns.format or ["text"])
    return (formats <= REPLAYABLE_FORMATS and not ns.output and not ns.staged and not ns.diff
            and not ns.new_only and not ns.no_cache
            and not (getattr(ns, "suggest_fixes", False) or getattr(ns, "fix", False) or getattr(ns, "show_fixes", False)))


def _span_files(result: RunResult, root: str) -> set[str]:
    """The files the reporters read for the findings' source lines (as `report.source` locates them:
    relative to the root, else to the working directory)."""
    paths = set()
    for d in result.diagnostics:
        for span in (d.span, *(r.span for r in d.related), *(f.span for f in d.trace)):
            paths.add(os.path.join(root, span.path))
            paths.add(os.path.abspath(span.path))
    return paths


def save(argv: Sequence[str], folder: str, journal: fs.Journal, result: RunResult, root: str, analyzed: int,
         stdout: str, stderr: str, code: int) -> bool:
    """Record a finished run if it can be replayed; whether it was recorded."""
    if analyzed or not journal.replayable:
        return False
    from pytea_ci.driver.identity import analyzer_hash
    from pytea_ci.fsio import atomic_write

    for path in sorted(_span_files(result, root)):
        journal.note("read", path, fs.answer("read", path))
    if not journal.replayable:
        return False
    k = key(argv)
    text = _dump({"key": k, "analyzer": analyzer_hash(), "code": code, "stdout": stdout, "stderr": stderr,
                  "facts": [[kind, path, seen] for (kind, path), seen in sorted(journal.facts.items())]})
    if text is None:
        return False
    try:
        atomic_write(_record(folder, k), text)
    except (OSError, UnicodeEncodeError):
        return False  # a read-only cache only costs speed
    return True
