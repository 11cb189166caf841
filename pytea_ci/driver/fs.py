"""The file-system questions the driver asks before any analysis: which configuration applies, where
the project root is, which entry points exist, what each file imports and which candidate modules are
absent. Every such question goes through this module, which answers it and, while a journal is open,
remembers a digest of the answer (file contents are digested, never their mtimes).

The journal is what makes an unchanged `check` replayable (`driver/replay.py`): if asking every
remembered question again gives the same digests, the driver would select the same entry points with
the same import closures and configuration, so the result cache would answer every one of them the
same way. A question this module cannot re-ask (GitPython reading a repository, say) marks the journal
`untracked`, and such a run is never replayed.

Kept free of heavy imports: the replay fast path re-asks the questions before anything else loads.
"""

from __future__ import annotations

import os
import sys

try:  # the built-in module: hashlib would load OpenSSL first (3 ms of a 40 ms replayed run)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a CPython built without it
    from hashlib import blake2b

TYPE_CHECKING = False  # as typing's, without importing typing on the fast path
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    Answer = tuple[object, str]  # (the value the caller gets, the digest of the answer in the journal)


def digest(data: bytes) -> str:
    return blake2b(data, digest_size=16).hexdigest()


def _overlay(path: str) -> bytes | None:
    """An editor's unsaved buffer that stands in for the file (diagnostics/sources.py). Looked up only
    once some caller (the language server) loaded that module: the fast path imports nothing for it."""
    mod = sys.modules.get("pytea_ci.diagnostics.sources")
    return None if mod is None else mod.text(path)  # type: ignore[no-any-return]


def _read(path: str) -> Answer:
    data = _overlay(path)
    if data is not None:
        return data, digest(data)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return e, f"error:{e.errno}"
    return data, digest(data)


def _flag(test: Callable[[str], bool], buffered: bool = False) -> Callable[[str], Answer]:
    """`test` answered from disk; with `buffered`, an editor's buffer of a file not yet saved counts too."""
    def ask(path: str) -> Answer:
        value = test(path) or (buffered and _overlay(path) is not None)
        return value, "1" if value else "0"

    return ask


def _buffered_names(folder: str) -> list[str]:
    """Names of the files an editor holds in `folder` that are not on disk yet (a new, unsaved file)."""
    mod = sys.modules.get("pytea_ci.diagnostics.sources")
    return [] if mod is None else mod.unsaved_in(folder)  # type: ignore[no-any-return]


def _realpath(path: str) -> Answer:
    real = os.path.realpath(path)
    return real, real


def _listing(folder: str) -> Answer:
    """(sub-folders, files, symlinked sub-folders) of a folder, as `os.walk` sorts them out."""
    dirs: list[str] = []
    files: list[str] = []
    linked: set[str] = set()
    try:
        with os.scandir(folder) as it:
            for entry in it:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                (dirs if is_dir else files).append(entry.name)
                if is_dir and entry.is_symlink():
                    linked.add(entry.name)
    except OSError as e:
        return ([], [], linked), f"error:{e.errno}"
    files += [name for name in _buffered_names(folder) if name not in files]
    dirs.sort()
    files.sort()
    text = "\0".join(["d", *dirs, "f", *files, "l", *sorted(linked)])
    return (dirs, files, linked), digest(text.encode("utf-8", "surrogateescape"))


def _glob(pattern: str) -> Answer:
    import glob

    found = sorted(glob.glob(pattern, recursive=True))
    return found, digest("\0".join(found).encode("utf-8", "surrogateescape"))


KINDS: dict[str, Callable[[str], Answer]] = {
    "read": _read,
    "isfile": _flag(os.path.isfile, buffered=True),
    "isdir": _flag(os.path.isdir),
    "exists": _flag(os.path.exists, buffered=True),
    "realpath": _realpath,
    "list": _listing,
    "glob": _glob,
}


class Journal:
    """The questions asked while it was open, with the digest of each answer."""

    def __init__(self) -> None:
        self.facts: dict[tuple[str, str], str] = {}
        self.untracked: list[str] = []  # why this run cannot be replayed, if it cannot

    def note(self, kind: str, path: str, answer: str) -> None:
        seen = self.facts.setdefault((kind, path), answer)
        if seen != answer:  # the file changed while we were looking at it
            self.untracked.append(f"{path} changed during the run")

    @property
    def replayable(self) -> bool:
        return not self.untracked


_journal: Journal | None = None


def open_journal() -> Journal:
    global _journal
    _journal = Journal()
    return _journal


def close_journal() -> Journal | None:
    global _journal
    journal, _journal = _journal, None
    return journal


def untracked(reason: str) -> None:
    """Something the run depends on that this module cannot re-ask: the run is not replayable."""
    if _journal is not None:
        _journal.untracked.append(reason)


def _ask(kind: str, path: str) -> object:
    value, answer = KINDS[kind](path)
    if _journal is not None:
        _journal.note(kind, path, answer)
    return value


def answer(kind: str, path: str) -> str:
    """The digest of the answer to a question, asked now (what a replay compares)."""
    return KINDS[kind](path)[1]


def unchanged(facts: list[list[str]]) -> bool:
    """Whether every `[kind, path, digest]` still has the same answer."""
    return all(kind in KINDS and answer(kind, path) == seen for kind, path, seen in facts)


def ancestors(path: str) -> Iterator[str]:
    """`path` (made absolute) and every folder above it, up to the file-system root (asks nothing)."""
    here = os.path.abspath(path)
    while True:
        yield here
        parent = os.path.dirname(here)
        if parent == here:
            return
        here = parent


# ----- the questions ---------------------------------------------------------------------------------
def read(path: str) -> bytes:
    """A file's bytes; raises OSError like `open`."""
    value = _ask("read", os.path.abspath(path))
    if isinstance(value, OSError):
        raise value
    assert isinstance(value, bytes)
    return value


def isfile(path: str) -> bool:
    return bool(_ask("isfile", os.path.abspath(path)))


def isdir(path: str) -> bool:
    return bool(_ask("isdir", os.path.abspath(path)))


def exists(path: str) -> bool:
    return bool(_ask("exists", os.path.abspath(path)))


def realpath(path: str) -> str:
    return str(_ask("realpath", os.path.abspath(path)))


def glob(pattern: str) -> list[str]:
    """`glob.glob(pattern, recursive=True)`, sorted."""
    return list(_ask("glob", pattern))  # type: ignore[call-overload]


def walk(top: str) -> Iterator[tuple[str, list[str], list[str]]]:
    """`os.walk(top)` (top-down, the caller may prune the folder list in place, symlinked folders are
    listed but not entered), each folder's listing remembered."""
    listing: tuple[list[str], list[str], set[str]] = _ask("list", os.path.abspath(top))  # type: ignore[assignment]
    dirs, files, linked = list(listing[0]), listing[1], listing[2]
    yield top, dirs, list(files)
    for d in dirs:
        if d not in linked:
            yield from walk(os.path.join(top, d))
