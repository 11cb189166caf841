"""Source texts that stand in for files on disk (an editor's unsaved buffers), and parsed files kept
between runs.

A long-lived process (the language server) installs the texts of the files open in an editor;
every reader of project sources — the driver's file questions (`driver/fs.py`) and the
interpreter's parser (`interp/interpreter.py`) — asks here first, so a run analyzes what the user
sees, not what was last saved. Empty (and free) in every other run. Keys are absolute paths.
The same process may ask to keep parsed files (`keep_parsed`): the interpreter's parses are then
memoized by file name and content, so a run after an edit parses only what changed.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterator
import os
from collections import OrderedDict

from pytea_ci.diagnostics import grammar

_texts: dict[str, bytes] = {}
_parsed: OrderedDict[str, tuple[bytes, ast.Module]] | None = None  # file name -> (digest of its text, tree)
_KEEP = 2000  # files kept, the least recently used dropped past this


def absolute(texts: dict[str, bytes]) -> dict[str, bytes]:
    """`texts` keyed by absolute and by resolved path (both spellings are kept)."""
    out: dict[str, bytes] = {}
    for path, data in texts.items():
        out[os.path.abspath(path)] = data
        out[os.path.realpath(path)] = data
    return out


def install(texts: dict[str, bytes]) -> None:
    """Replace the overlay the driver's file questions see (`driver/fs.py`); the interpreter is handed
    the same buffers as an object (`interp/observe.Editor`)."""
    global _texts
    _texts = absolute(texts)


def text(path: str) -> bytes | None:
    """The stand-in text of `path`, or None when the file on disk is the source."""
    if not _texts:
        return None
    return _texts.get(os.path.abspath(path))


def unsaved_in(folder: str) -> list[str]:
    """Names of the buffers in `folder` whose file is not on disk (a new file the editor has not saved)."""
    here = os.path.abspath(folder)
    return sorted({os.path.basename(p) for p in _texts if os.path.dirname(p) == here and not os.path.exists(p)})


def keeping_parsed() -> bool:
    return _parsed is not None


def keep_parsed(on: bool = True) -> None:
    """Keep parsed files between runs (the language server); off: parse every time (a one-shot run)."""
    global _parsed
    _parsed = OrderedDict() if on else None


@contextlib.contextmanager
def parsed_kept() -> Iterator[None]:
    """Keep parsed files while inside (nothing changes where a resident process keeps them already): one
    run reads each file once, for selecting its entry points, each entry point and each module checked."""
    if keeping_parsed():
        yield
        return
    keep_parsed()
    try:
        yield
    finally:
        keep_parsed(False)


def parse(source: bytes, filename: str) -> ast.Module:
    """`grammar.parse(source, filename=filename)`, memoized while `keep_parsed` is on: the newest text of each
    file (an edit replaces its file's tree, so memory follows the number of files, not of edits). The
    analyzer never changes a tree, so one tree serves every run of the same text. Raises SyntaxError
    like ast.parse."""
    if _parsed is None:
        return grammar.parse(source, filename=filename)
    from hashlib import blake2b

    digest = blake2b(source, digest_size=16).digest()
    hit = _parsed.get(filename)
    if hit is not None and hit[0] == digest:
        _parsed.move_to_end(filename)
        return hit[1]
    tree = grammar.parse(source, filename=filename)
    _parsed[filename] = (digest, tree)
    _parsed.move_to_end(filename)
    while len(_parsed) > _KEEP:
        _parsed.popitem(last=False)
    return tree
