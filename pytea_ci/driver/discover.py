"""Entry points: from the configuration (paths or globs), or discovered.

A discovered entry point uses torch (directly or through project modules) and is
* a `.py` file with an `if __name__ == "__main__":` block, or
* a script — top-level calls or loops — that no other project file imports (a module with
  top-level statements that others import, like `utils/general.py`, is not a program), or
* a Jupyter notebook (`.ipynb`: always a program).
Test files (`test_*.py`, `*_test.py` holding tests — a `def test…`, a `class Test…` or a pytest/unittest
import —, `conftest.py`, anything under `tests/` or `test/`) are not entry points unless configured; a
training script named `add_test.py` with none of them (TCN's experiment folders) is a program. Hidden folders, virtual environments and `exclude` globs are skipped.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import re

from pytea_ci.diagnostics.notebook import SUFFIX as NOTEBOOK, is_notebook
from pytea_ci.driver import fs
from pytea_ci.driver.imports_graph import ImportGraph

SKIP_DIRS = frozenset({"venv", "env", "node_modules", "__pycache__", "build", "dist", "site-packages"})
TORCH_ROOTS = ("torch", "torchvision", "torchaudio", "torchtext")
TEST_DIRS = frozenset({"tests", "test"})
_MAIN_GUARD = re.compile(rb"^if\s+(?:__name__\s*==\s*['\"]__main__['\"]|['\"]__main__['\"]\s*==\s*__name__)\s*:",
                         re.MULTILINE)


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


def python_files(folder: str, root: str, exclude: list[str], suffixes: tuple[str, ...] = (".py",)) -> list[str]:
    """Sorted project `.py` files (or other `suffixes`) under `folder`."""
    out: list[str] = []
    real_root = fs.realpath(root)
    for dirpath, dirnames, files in fs.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS
                             and not excluded(os.path.join(dirpath, d), root, exclude))
        for f in sorted(files):
            full = os.path.join(dirpath, f)
            if f.endswith(suffixes) and not excluded(full, root, exclude) and _inside(full, real_root):
                out.append(os.path.abspath(full))
    return out


def _inside(path: str, real_root: str) -> bool:
    """Symlinks that leave the project are not followed."""
    real = fs.realpath(path)
    return real == real_root or real.startswith(real_root + os.sep)


def looks_like_entry(path: str, graph: ImportGraph) -> bool:
    """A notebook, a `__main__` block, or module-level calls or loops (a script)."""
    return is_notebook(path) or graph.cache.facts(path)[2]


def has_main_guard(path: str) -> bool:
    try:
        return _MAIN_GUARD.search(fs.read(path)) is not None
    except OSError:
        return False


def is_test_file(path: str, root: str) -> bool:
    parts = rel(path, root).split("/")
    name = parts[-1]
    if name == "conftest.py" or any(p in TEST_DIRS for p in parts[:-1]):
        return True
    return (name.startswith("test_") or name.endswith("_test.py")) and holds_tests(path)


_TESTS = re.compile(rb"^[ \t]*(?:(?:async[ \t]+)?def[ \t]+test|class[ \t]+Test|(?:import|from)[ \t]+(?:pytest|unittest|nose)\b)",
                    re.MULTILINE)


def holds_tests(path: str) -> bool:
    """Whether a file named like a test holds tests a runner collects (or imports a test framework);
    an unreadable one is taken as a test file."""
    try:
        return _TESTS.search(fs.read(path)) is not None
    except OSError:
        return True


def imported_files(root: str, exclude: list[str], graph: ImportGraph) -> set[str]:
    """Every project file that another project file imports directly."""
    out: set[str] = set()
    for f in python_files(root, root, exclude, (".py", NOTEBOOK)):
        out |= graph.direct_imports(f)
    return out


def importers(path: str, root: str, exclude: list[str], graph: ImportGraph,
              texts: dict[str, bytes] | None = None) -> set[str]:
    """The project files (of `texts`, file -> content, default all) that import `path` directly. Only
    files whose text holds the module's name (the folder's, for a package `__init__`) can name it in an
    import, so only those are parsed."""
    path = os.path.abspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    name = (os.path.basename(os.path.dirname(path)) if stem == "__init__" else stem).encode()
    if texts is None:
        texts = project_texts(root, exclude)
    return {f for f, text in texts.items() if f != path and name in text and path in graph.direct_imports(f)}


def project_texts(root: str, exclude: list[str]) -> dict[str, bytes]:
    out = {}
    for f in python_files(root, root, exclude, (".py", NOTEBOOK)):
        try:
            out[f] = fs.read(f)
        except OSError:
            continue
    return out


def entries_importing(path: str, root: str, exclude: list[str], graph: ImportGraph) -> list[str]:
    """The discovered entry points that import `path`, directly or transitively, found by walking the
    imports backwards from it (only the files that may import what is walked are parsed)."""
    texts = project_texts(root, exclude)
    seen: dict[str, set[str]] = {}
    todo = [os.path.abspath(path)]
    while todo:
        f = todo.pop()
        if f not in seen:
            seen[f] = importers(f, root, exclude, graph, texts)
            todo += sorted(seen[f] - set(seen))
    found = [f for f, users in seen.items() if f != os.path.abspath(path) and not is_test_file(f, root)
             and looks_like_entry(f, graph) and (is_notebook(f) or has_main_guard(f) or not users)]
    return sorted(f for f in found if uses_torch(f, graph))


def is_entry(path: str, root: str, exclude: list[str], graph: ImportGraph, imported: set[str] | None = None) -> bool:
    """Whether `path` is a program by the rules above (torch use not included). `imported`: the
    result of `imported_files`, when the caller has it (else only the files that may import `path`
    are read)."""
    if is_test_file(path, root) or not looks_like_entry(path, graph):
        return False
    if is_notebook(path) or has_main_guard(path):
        return True
    if imported is None:
        return not importers(path, root, exclude, graph)
    return os.path.abspath(path) not in imported


def uses_torch(path: str, graph: ImportGraph) -> bool:
    """Whether `path` or a project module it imports imports torch (or a torch library)."""
    for f in graph.closure(path).files:
        _, imports = graph.cache.imports(f)
        if any(name.split(".")[0] in TORCH_ROOTS for level, name in imports if level == 0):
            return True
    return False


def discover(folder: str, root: str, exclude: list[str], graph: ImportGraph) -> list[str]:
    """Entry points under `folder`, sorted."""
    candidates = [p for p in python_files(folder, root, exclude, (".py", NOTEBOOK)) if looks_like_entry(p, graph)]
    imported = imported_files(root, exclude, graph) if candidates else set()
    return [p for p in candidates if is_entry(p, root, exclude, graph, imported) and uses_torch(p, graph)]


def configured(patterns: list[str], root: str, exclude: list[str], graph: ImportGraph) -> list[str]:
    """Files named by `entry-points` (paths, globs, or folders searched for entry points)."""
    out: list[str] = []
    for pat in patterns:
        full = os.path.join(root, pat)
        matches = fs.glob(full) if glob.has_magic(pat) else [full]
        for m in matches:
            if fs.isdir(m):
                out += [p for p in python_files(m, root, exclude, (".py", NOTEBOOK)) if looks_like_entry(p, graph)]
            elif fs.isfile(m) and m.endswith((".py", NOTEBOOK)) and not excluded(m, root, exclude):
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
