"""The static import graph of a project, with reverse edges.

Each file's imports are read from its AST (absolute, relative and package imports, and
`importlib.import_module("constant")` as a best effort) and cached by the hash of its content.
Names are resolved the way the interpreter resolves them (`interp/imports.py`): against the entry
point's home (its folder, or the folder its top package sits in: `interp/search_path.py`), then the
project root. A module that does not exist still leaves its candidate
paths in the closure, so creating or deleting it changes what depends on it.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pytea_ci.diagnostics.notebook import NotebookError, is_notebook
from pytea_ci.diagnostics.notebook import parse as parse_notebook
from pytea_ci.driver import fs
from pytea_ci.fsio import atomic_write, read_json
from pytea_ci.interp.search_path import search_roots
from pytea_ci.diagnostics import sources

FORMAT = 3  # 3: a file whose only top-level calls warn is no program (`_is_script`)
Import = tuple[int, str]  # (relative level, dotted name); level 0 = absolute


def _dynamic_import(node: ast.Call) -> str | None:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name in ("import_module", "__import__") and node.args:
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
    return None


def _imports_of(tree: ast.Module) -> list[Import]:
    out: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((0, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            out.append((node.level, base))
            # `from pkg import name` may name a submodule
            out.extend((node.level, f"{base}.{a.name}" if base else a.name) for a in node.names if a.name != "*")
        elif isinstance(node, ast.Call):
            dyn = _dynamic_import(node)
            if dyn:
                out.append((0, dyn))
    return out


def _is_main_guard(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    names = [node.test.left, *node.test.comparators]
    return any(isinstance(n, ast.Name) and n.id == "__name__" for n in names) and any(
        isinstance(n, ast.Constant) and n.value == "__main__" for n in names)


def _is_script(tree: ast.Module) -> bool:
    """A `__main__` block, or module-level calls or loops. A call to the `warnings` module is no program's
    work: a module that only warns and re-exports (pytorch-ignite's `contrib/metrics/regression/*.py`,
    moved elsewhere and kept as deprecation shims) is imported by its users, never run."""
    warners = _warnings_names(tree)
    for node in tree.body:
        if _is_main_guard(node) or isinstance(node, (ast.For, ast.While, ast.With, ast.AsyncFor)):
            return True
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and not _warns(node.value, warners):
            return True
    return False


def _warnings_names(tree: ast.Module) -> set[str]:
    """The names the module binds to the `warnings` module or its functions at its top level."""
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            out.update(a.asname or a.name for a in node.names if a.name == "warnings")
        elif isinstance(node, ast.ImportFrom) and node.module == "warnings" and not node.level:
            out.update(a.asname or a.name for a in node.names)
    return out


def _warns(call: ast.Call, warners: set[str]) -> bool:
    """`warnings.warn(...)`, `warn(...)` (from warnings), `warnings.simplefilter(...)`."""
    func = call.func.value if isinstance(call.func, ast.Attribute) else call.func
    return isinstance(func, ast.Name) and func.id in warners


def parse_facts(source: bytes) -> tuple[list[Import], bool]:
    """(every module a file may import, whether it reads like a program); ([], False) if it does not parse."""
    return facts_of(_parse(source))


def facts_of(tree: ast.Module | None) -> tuple[list[Import], bool]:
    return ([], False) if tree is None else (_imports_of(tree), _is_script(tree))


def _parse(source: bytes, path: str = "<unknown>") -> ast.Module | None:
    try:  # the interpreter's parse (kept for the run: the analyses of the files selected reuse it)
        return sources.parse(source, path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def parse_imports(source: bytes) -> list[Import]:
    return parse_facts(source)[0]


def _python_of(path: str, source: bytes) -> bytes:
    """A notebook's code cells as one module (diagnostics/notebook.py); b"" when it cannot be read."""
    if not is_notebook(path):
        return source
    try:
        return parse_notebook(source).python.encode("utf-8")
    except NotebookError:
        return b""


MAX_TREES = 256  # parsed files kept for the run (library mode's targets and call sites need a few of them)


class ImportCache:
    """Per-file facts (imports, looks like a program) by content hash, kept in one JSON file of the
    cache dir (memory only when `folder` is None). Concurrent writers: the last one wins, nothing breaks.
    Also the run's parsed files (`tree`), so the driver parses a file at most once per run."""

    def __init__(self, folder: str | None) -> None:
        self.path = os.path.join(folder, "imports.json") if folder else None
        self.data: dict[str, dict[str, Any]] = {}
        self.dirty = False
        self.trees: dict[str, ast.Module | None] = {}  # content hash -> its AST (None: does not parse)
        self.parses = 0  # files parsed by the driver in this run (benchmarks/tests count them)
        if self.path:
            doc = read_json(self.path)
            if isinstance(doc, dict) and doc.get("format") == FORMAT and isinstance(doc.get("files"), dict):
                self.data = doc["files"]

    def facts(self, path: str) -> tuple[str | None, list[Import], bool]:
        """(content hash, imports, looks like a program) of a file; (None, [], False) when unreadable."""
        try:
            source = fs.read(path)
        except OSError:
            return None, [], False
        digest = hashlib.sha256(source).hexdigest()
        hit = self.data.get(digest)
        try:
            if isinstance(hit, dict):
                return digest, [(int(a), str(b)) for a, b in hit["i"]], bool(hit["e"])
        except (KeyError, TypeError, ValueError):
            pass
        found, script = facts_of(self._tree(path, source, digest))
        self.data[digest] = {"i": [list(x) for x in found], "e": script}
        self.dirty = True
        return digest, found, script

    def tree(self, path: str) -> ast.Module | None:
        """The file's AST (a notebook's code cells), parsed at most once per content while it is kept;
        None when it cannot be read or does not parse."""
        try:
            source = fs.read(path)
        except OSError:
            return None
        return self._tree(path, source, hashlib.sha256(source).hexdigest())

    def _tree(self, path: str, source: bytes, digest: str) -> ast.Module | None:
        if digest in self.trees:
            return self.trees[digest]
        tree = _parse(_python_of(path, source), path)
        self.parses += 1
        if len(self.trees) >= MAX_TREES:
            self.trees.pop(next(iter(self.trees)))
        self.trees[digest] = tree
        return tree

    def imports(self, path: str) -> tuple[str | None, list[Import]]:
        digest, found, _ = self.facts(path)
        return digest, found

    def save(self) -> None:
        if self.path and self.dirty:
            try:
                atomic_write(self.path, json.dumps({"format": FORMAT, "files": self.data}))
            except OSError:
                pass
            self.dirty = False


def _candidates(dotted: str, roots: list[str]) -> list[str]:
    parts = [p for p in dotted.split(".") if p]
    out: list[str] = []
    for i in range(1, len(parts) + 1):  # `import a.b.c` runs a and a.b first
        for root in roots:
            base = os.path.join(root, *parts[:i])
            out += [base + ".py", os.path.join(base, "__init__.py")]
    return out


def _base(importer: str, level: int) -> str:
    """The folder a relative import of `level` dots in `importer` is resolved from."""
    base = os.path.dirname(importer)
    for _ in range(level - 1):
        base = os.path.dirname(base)
    return base


@dataclass
class Closure:
    """What an entry point may read: existing files (path -> content hash) and absent candidates."""

    files: dict[str, str] = field(default_factory=dict)
    absent: set[str] = field(default_factory=set)
    edges: dict[str, set[str]] = field(default_factory=dict)  # file -> project files it imports

    def touches(self, paths: set[str], realpath: Callable[[str], str] = os.path.realpath) -> bool:
        """Whether a path of `paths` (real paths: symlinked folders, e.g. macOS /tmp) is in the closure."""
        return any(realpath(p) in paths for p in (*self.files, *self.absent))


class ImportGraph:
    """Import closures of entry points and the reverse edges between project files."""

    def __init__(self, root: str, cache: ImportCache) -> None:
        self.root = os.path.abspath(root)
        self.cache = cache
        self.closures: dict[str, Closure] = {}
        self._real: dict[str, str] = {}  # os.path.realpath, memoized: the closures share most paths
        self._isfile: dict[str, bool] = {}  # likewise for the candidate modules (one answer per run)
        self._facts: dict[str, tuple[str | None, list[tuple[Import, str]]]] = {}  # path -> (hash, imports)
        self._paths: dict[tuple[str, ...], tuple[list[str], list[str]]] = {}  # import -> (existing, absent) (see _found)
        self._resolved: dict[tuple[str, str], tuple[list[str], list[str]]] = {}  # (path, entry folder) -> edges

    def realpath(self, path: str) -> str:
        real = self._real.get(path)
        if real is None:
            real = self._real[path] = fs.realpath(path)
        return real

    def isfile(self, path: str) -> bool:
        found = self._isfile.get(path)
        if found is None:
            found = self._isfile[path] = fs.isfile(path)
        return found

    def _inside(self, path: str, home: str) -> bool:
        return path in (self.root, home) or path.startswith((self.root + os.sep, home + os.sep))

    def _resolve(self, imp: Import, importer: str, roots: list[str]) -> list[str]:
        level, dotted = imp
        if level == 0:
            return _candidates(dotted, roots)
        base = _base(importer, level)
        return _candidates(dotted, [base]) if dotted else []

    def _found(self, imp: Import, base: str, importer: str, roots: list[str],
               home: str) -> tuple[list[str], list[str]]:
        """(existing, absent) candidates of one import for an entry point whose home is `home`, once per run
        for each (name, home) or, relative, (name, folder it is resolved from): most imports recur."""
        level, dotted = imp
        key = (dotted, home) if level == 0 else (dotted, base, "" if self._inside(base, self.root) else home)
        found = self._paths.get(key)
        if found is None:
            existing: list[str] = []
            absent: list[str] = []
            for cand in self._resolve(imp, importer, roots):
                if self._inside(cand, home):
                    (existing if self.isfile(cand) else absent).append(cand)
            found = self._paths[key] = (existing, absent)
        return found

    def _imports(self, path: str) -> tuple[str | None, list[tuple[Import, str]]]:
        """The file's content hash and imports (each with the folder a relative one is resolved from), read
        once per run: every closure of a big project shares them."""
        found = self._facts.get(path)
        if found is None:
            digest, imports = self.cache.imports(path)
            found = self._facts[path] = (digest, [(imp, _base(path, imp[0])) for imp in imports])
        return found

    def _edges(self, path: str, home: str, roots: list[str]) -> tuple[list[str], list[str]]:
        """(project files `path` imports, absent candidates), resolved for an entry point whose home is
        `home`; once per (file, home) per run, so a closure costs its size, not its size times the imports."""
        key = (path, home)
        found = self._resolved.get(key)
        if found is None:
            edges: list[str] = []
            absent: list[str] = []
            for imp, base in self._imports(path)[1]:
                existing, missing = self._found(imp, base, path, roots, home)
                edges += existing
                absent += missing
            found = self._resolved[key] = (edges, absent)
        return found

    def _roots(self, path: str) -> list[str]:
        """Where the absolute imports of a program started at `path` are looked up: its home first."""
        return list(search_roots(path, self.root, self.isfile))

    def closure(self, entry: str) -> Closure:
        """Every project file `entry` may import, transitively (cached per entry point)."""
        entry = os.path.abspath(entry)
        if entry in self.closures:
            return self.closures[entry]
        roots = self._roots(entry)
        home = roots[0]  # the entry's home: with the root, what its imports may reach
        out = Closure()
        todo = [entry]
        queued = {entry}
        while todo:
            path = todo.pop()
            out.files[path] = self._imports(path)[0] or "unreadable"
            edges, absent = self._edges(path, home, roots)
            out.edges[path] = set(edges)
            out.absent.update(absent)
            for cand in edges:
                if cand not in queued:
                    queued.add(cand)
                    todo.append(cand)
        self.closures[entry] = out
        return out

    def direct_imports(self, path: str) -> set[str]:
        """The project files `path` imports directly (resolved from its home, then the root)."""
        path = os.path.abspath(path)
        roots = self._roots(path)
        here = roots[0]
        _, imports = self.cache.imports(path)
        return {c for imp in imports for c in self._resolve(imp, path, roots)
                if c != path and self._inside(c, here) and self.isfile(c)}

    def reverse(self, entries: list[str]) -> dict[str, set[str]]:
        """file -> the project files that import it directly (over the closures of `entries`)."""
        rev: dict[str, set[str]] = {}
        for e in entries:
            for src, targets in self.closure(e).edges.items():
                for t in targets:
                    rev.setdefault(t, set()).add(src)
        return rev

    def affected(self, entries: list[str], changed: set[str]) -> list[str]:
        """The entry points whose closure contains (or would contain) a changed path."""
        changed = {self.realpath(p) for p in changed}
        return [e for e in entries if self.closure(e).touches(changed, self.realpath)]
