"""Generic file I/O shared by every layer: atomic writes (temporary file + `os.replace`, with the
mode `open()` would give), tolerant JSON reads (missing, unreadable or corrupt is None) and content
hashes of files (the data files a cached result depends on). The
caches, the baseline and the reports store through here; nothing else writes files in place."""

from __future__ import annotations

import functools
import json
import hashlib
import os
import tempfile
from typing import Any


@functools.lru_cache(maxsize=1)
def _file_mode() -> int:
    """What `open()` would create: 0o666 less the umask (0644 usually). mkstemp's 0600 would keep
    the cache and reports from other users, e.g. a CI step that saves the cache (actions/cache)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write(path: str, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder, then rename it."""
    _atomic(path, "w", text)


def atomic_write_bytes(path: str, data: bytes) -> None:
    """`atomic_write` for binary content (the package-import cache)."""
    _atomic(path, "wb", data)


def _atomic(path: str, mode: str, data: str | bytes) -> None:
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        if hasattr(os, "fchmod"):  # POSIX; on Windows the mode bits do not apply
            os.fchmod(fd, _file_mode())
        with os.fdopen(fd, mode, encoding=None if "b" in mode else "utf-8") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_json(path: str) -> Any:
    """The JSON document at `path`, or None when it is missing, unreadable or corrupt."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError, UnicodeDecodeError):
        return None


DATA_FILE_LIMIT = 256_000  # bytes: larger data files of a project are never read (interp/project_files.py)
BINARY_LIMIT = 64_000_000  # bytes: a larger pickled / NumPy / torch data file is never read (models/pickled.py)


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def files_unchanged(root: str, hashes: dict[str, str], limit: int) -> bool:
    """Whether every file of `hashes` (paths relative to `root`, content hashes of at most `limit`
    bytes read) still has that content."""
    for rel, digest in hashes.items():
        try:
            with open(os.path.join(root, rel), "rb") as f:
                if content_hash(f.read(limit + 1)) != digest:
                    return False
        except OSError:
            return False
    return True


def read_bytes(path: str) -> bytes | None:
    """The content of `path`, or None when it is missing or unreadable."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def read_source(path: str) -> str | None:
    """The text of a source file (undecodable bytes replaced), or None when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None
