"""Entry points: from the configuration (paths or globs), or discovered.

A discovered entry point is a project `.py` file with an `if __name__ == "__main__":` block or a
top-level script body (calls or loops at module level) that imports torch, directly or through
project modules. Hidden folders, virtual environments and `exclude` globs are skipped.
"""

from __future__ import annotations

import fnmatch
import glob
import os

from pytea_ci.driver import fs
from pytea_ci.driver.imports_graph import ImportGraph

SKIP_DIRS = frozenset({"venv", "env", "node_modules", "__pycache__", "build", "dist", "site-packages"})
TORCH_ROOTS = ("torch", "torchvision", "torchaudio", "torchtext")


def rel(path: str, root: str) -> str:
    return os.path.relpath(os.path.abspath(path), os.path.abspath(root)).replace(os.sep, "/")


def excluded(path: str, root: str, patterns: list[str]) -> bool:
    r = rel(path, root)
    parts = r.split("/")
    for pat in patterns:
        pat = pat.rstrip("/")
        if fnmatch.fnmatch(r, pat) or any(fnmatch.fnmatch(p, pat) for p in parts):
            return True
        if r.startswith(pat + "/"):
            return True
    return False


def python_files(folder: str, root: str, exclude: list[str]) -> list[str]:
    """Sorted project `.py` files under `folder`."""
    out: list[str] = []
    real_root = fs.realpath(root)
    for dirpath, dirnames, files in fs.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS
                             and not excluded(os.path.join(dirpath, d), root, exclude))
        for f in sorted(files):
            full = os.path.join(dirpath, f)
            if f.endswith(".py") and not excluded(full, root, exclude) and _inside(full, real_root):
                out.append(os.path.abspath(full))
    return out


def _inside(path: str, real_root: str) -> bool:
    """Symlinks that leave the project are not followed."""
    real = fs.realpath(path)
    return real == real_root or real.startswith(real_root + os.sep)


def looks_like_entry(path: str, graph: ImportGraph) -> bool:
    """A `__main__` block, or module-level calls or loops (a script)."""
    return graph.cache.facts(path)[2]


def uses_torch(path: str, graph: ImportGraph) -> bool:
    """Whether `path` or a project module it imports imports torch (or a torch library)."""
    for f in graph.closure(path).files:
        _, imports = graph.cache.imports(f)
        if any(name.split(".")[0] in TORCH_ROOTS for level, name in imports if level == 0):
            return True
    return False


def discover(folder: str, root: str, exclude: list[str], graph: ImportGraph) -> list[str]:
    """Entry points under `folder`, sorted."""
    return [p for p in python_files(folder, root, exclude) if looks_like_entry(p, graph) and uses_torch(p, graph)]


def configured(patterns: list[str], root: str, exclude: list[str], graph: ImportGraph) -> list[str]:
    """Files named by `entry-points` (paths, globs, or folders searched for entry points)."""
    out: list[str] = []
    for pat in patterns:
        full = os.path.join(root, pat)
        matches = fs.glob(full) if glob.has_magic(pat) else [full]
        for m in matches:
            if fs.isdir(m):
                out += [p for p in python_files(m, root, exclude) if looks_like_entry(p, graph)]
            elif fs.isfile(m) and m.endswith(".py") and not excluded(m, root, exclude):
                out.append(os.path.abspath(m))
    return sorted(dict.fromkeys(out))


def unmatched(patterns: list[str], root: str) -> list[str]:
    """The `entry-points` patterns that name no existing file or folder."""
    out = []
    for pat in patterns:
        full = os.path.join(root, pat)
        if not (fs.glob(full) if glob.has_magic(pat) else fs.exists(full)):
            out.append(pat)
    return out
