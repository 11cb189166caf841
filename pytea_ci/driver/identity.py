"""What identifies the analyzer in every cache key: its version and a hash of its own source files
(models, interpreter, solver, ...), so that editing any of them invalidates every cached answer.
Light on imports: the replay fast path checks it before anything else loads."""

from __future__ import annotations

import functools
import os

import pytea_ci
from pytea_ci import __version__
from pytea_ci.driver.fs import blake2b


@functools.lru_cache(maxsize=1)
def analyzer_hash() -> str:
    """Hash of every .py file of the pytea_ci package, with the version."""
    pkg = os.path.dirname(os.path.abspath(pytea_ci.__file__))
    h = blake2b(__version__.encode())
    for dirpath, dirnames, files in os.walk(pkg):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                h.update(os.path.relpath(path, pkg).encode() + b"\0")
                with open(path, "rb") as fh:
                    h.update(blake2b(fh.read()).digest())
    return h.hexdigest()
