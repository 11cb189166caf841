"""The on-disk solver cache (DESIGN §4): one small JSON file per canonical query.

It implements the `QueryCache` protocol of `decide.py`. The Decider's key already holds the
canonical query, the solver options and the analyzer version; this cache adds the z3 version and
its own format version, so an entry written by another z3 or another layout is simply not found.
Writes go through a temporary file and `os.replace` (atomic on POSIX and Windows), so concurrent
runs never see half an entry; an unreadable, corrupt or foreign entry is a miss, never a crash.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from typing import Any

FORMAT = 1


@functools.lru_cache(maxsize=1)
def z3_version() -> str:
    """The installed z3's version, read from package metadata (importing z3 costs a lot more)."""
    from importlib import metadata

    for dist in ("z3-solver", "z3_solver"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return "unknown"


@functools.lru_cache(maxsize=1)
def _file_mode() -> int:
    """What `open()` would create: 0o666 less the umask (0644 usually). mkstemp's 0600 would keep
    the cache and reports from other users, e.g. a CI step that saves the cache (actions/cache)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write(path: str, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder, then rename it."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        if hasattr(os, "fchmod"):  # POSIX; on Windows the mode bits do not apply
            os.fchmod(fd, _file_mode())
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
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


class DiskQueryCache:
    """Solver answers under `folder/<2 hex>/<key>.json`, with an in-memory layer in front."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.memory: dict[str, tuple[str, dict[str, int]]] = {}
        self.hits = 0
        self.misses = 0
        self.writes = 0

    def _file_key(self, key: str) -> str:
        return hashlib.sha256(f"{key}|z3 {z3_version()}|fmt {FORMAT}".encode()).hexdigest()

    def _path(self, key: str) -> str:
        fk = self._file_key(key)
        return os.path.join(self.folder, fk[:2], fk + ".json")

    def get(self, key: str) -> tuple[str, dict[str, int]] | None:
        if key in self.memory:
            self.hits += 1
            return self.memory[key]
        doc = read_json(self._path(key))
        value = _decode(doc, key)
        if value is None:
            self.misses += 1
            return None
        self.hits += 1
        self.memory[key] = value
        return value

    def put(self, key: str, value: tuple[str, dict[str, int]]) -> None:
        self.memory[key] = value
        status, model = value
        doc = {"format": FORMAT, "z3": z3_version(), "key": key, "status": status, "model": model}
        try:
            atomic_write(self._path(key), json.dumps(doc, sort_keys=True))
            self.writes += 1
        except OSError:
            pass  # a read-only or full disk only costs speed


def _decode(doc: Any, key: str) -> tuple[str, dict[str, int]] | None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("key") != key:
        return None
    if doc.get("z3") != z3_version():
        return None
    status, model = doc.get("status"), doc.get("model")
    if status not in ("sat", "unsat") or not isinstance(model, dict):
        return None
    if not all(isinstance(k, str) and isinstance(v, int) for k, v in model.items()):
        return None
    return status, dict(model)
