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
from typing import TYPE_CHECKING, Any

from pytea_ci.fsio import atomic_write, read_json

if TYPE_CHECKING:
    from pytea_ci.solver.decide import Cached

FORMAT = 2  # 2: entries record the z3 resource units the answer cost


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


class DiskQueryCache:
    """Solver answers under `folder/<2 hex>/<key>.json`, with an in-memory layer in front."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.memory: dict[str, Cached] = {}
        self.hits = 0
        self.misses = 0
        self.writes = 0

    def _file_key(self, key: str) -> str:
        return hashlib.sha256(f"{key}|z3 {z3_version()}|fmt {FORMAT}".encode()).hexdigest()

    def _path(self, key: str) -> str:
        fk = self._file_key(key)
        return os.path.join(self.folder, fk[:2], fk + ".json")

    def get(self, key: str) -> Cached | None:
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

    def put(self, key: str, value: Cached) -> None:
        self.memory[key] = value
        status, model, cost = value
        doc = {"format": FORMAT, "z3": z3_version(), "key": key, "status": status, "model": model, "cost": cost}
        try:
            atomic_write(self._path(key), json.dumps(doc, sort_keys=True))
            self.writes += 1
        except OSError:
            pass  # a read-only or full disk only costs speed


def _decode(doc: Any, key: str) -> Cached | None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("key") != key:
        return None
    if doc.get("z3") != z3_version():
        return None
    status, model, cost = doc.get("status"), doc.get("model"), doc.get("cost")
    if status not in ("sat", "unsat") or not isinstance(model, dict) or not isinstance(cost, int):
        return None
    if not all(isinstance(k, str) and isinstance(v, int) for k, v in model.items()):
        return None
    return status, dict(model), cost
