"""Source texts that stand in for files on disk: an editor's unsaved buffers.

A long-lived process (the language server) installs the texts of the files open in an editor;
every reader of project sources — the driver's file questions (`driver/fs.py`) and the
interpreter's parser (`interp/interpreter.py`) — asks here first, so a run analyzes what the user
sees, not what was last saved. Empty (and free) in every other run. Keys are absolute paths.
"""

from __future__ import annotations

import os

_texts: dict[str, bytes] = {}


def install(texts: dict[str, bytes]) -> None:
    """Replace the overlay (paths are made absolute and resolved; both spellings are kept)."""
    global _texts
    out: dict[str, bytes] = {}
    for path, data in texts.items():
        out[os.path.abspath(path)] = data
        out[os.path.realpath(path)] = data
    _texts = out


def text(path: str) -> bytes | None:
    """The stand-in text of `path`, or None when the file on disk is the source."""
    if not _texts:
        return None
    return _texts.get(os.path.abspath(path))
