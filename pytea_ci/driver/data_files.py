"""Which entry points read a data file of the project (a YAML config, a `config.json`, a label map),
so that a change to one selects them like a change to a module they import (`--staged`,
`--affected-only`, and data files passed as paths, as pre-commit does).

Two sources, united (selecting too many costs time; too few misses findings):

* *recorded*: the data files each entry point's last analysis read (`EntryResult.inputs`), kept in
  the cache folder (`inputs.json`, entry path -> files, both relative to the root);
* *named*: a string literal in a file of the entry point's import closure names the data file — its
  path relative to that file's folder or to the root, a folder holding it (Hydra's `config_path`,
  `from_pretrained("./model")`), or its file name (`os.path.join(DATA, "labels.json")`).

A file read only through a path built at run time from other data (a name inside a YAML file) is
found by the recorded source once an analysis has read it.
"""

from __future__ import annotations

import ast
import json
import os
from collections.abc import Iterable

from pytea_ci.diagnostics.result import EntryResult
from pytea_ci.driver import fs
from pytea_ci.driver.imports_graph import ImportGraph
from pytea_ci.fsio import atomic_write, read_json
from pytea_ci.diagnostics import grammar

INDEX = "inputs.json"
_MAX_LITERAL = 300  # longer strings are text, not paths


def is_data_file(path: str) -> bool:
    """A changed file that is not a module: anything but Python source and notebooks."""
    return not path.endswith((".py", ".pyw", ".pyi", ".ipynb"))


def record(cache_dir: str | None, root: str, results: Iterable[EntryResult]) -> None:
    """Remember the data files each analyzed entry point read (merged into the index)."""
    if not cache_dir:
        return
    path = os.path.join(cache_dir, INDEX)
    old = read_json(path)
    index: dict[str, list[str]] = old if isinstance(old, dict) else {}
    changed = False
    for r in results:
        rel = r.entry.replace(os.sep, "/")  # already relative to the root
        now = sorted(r.inputs)
        if index.get(rel, []) != now:
            index[rel], changed = now, True
    if changed and os.path.isdir(cache_dir):
        try:
            atomic_write(path, _dumps({k: v for k, v in index.items() if v}))
        except OSError:
            pass  # a read-only cache only costs precision of the next selection


def readers(changed: set[str], entries: list[str], graph: ImportGraph, root: str,
            cache_dir: str | None) -> list[str]:
    """The entry points of `entries` that read (or may read) one of the changed data files."""
    data = {os.path.abspath(p) for p in changed if is_data_file(p)}
    if not data:
        return []
    recorded = _recorded(cache_dir, root, data)
    named = _Named(data, root)
    return [e for e in entries if _rel(e, root) in recorded or any(named.by(f) for f in graph.closure(e).files)]


def _recorded(cache_dir: str | None, root: str, data: set[str]) -> set[str]:
    index = read_json(os.path.join(cache_dir, INDEX)) if cache_dir else None
    if not isinstance(index, dict):
        return set()
    wanted = {_rel(p, root) for p in data}
    return {str(e) for e, files in index.items() if isinstance(files, list) and wanted & set(map(str, files))}


class _Named:
    """Whether a file's string literals name one of the data files: its path (relative to the file's
    folder or to the root, or absolute), a folder holding it, or its file name. One answer per file;
    set lookups, so thousands of changed files cost no more than a few."""

    def __init__(self, data: set[str], root: str) -> None:
        self.root = os.path.abspath(root)
        self.names = {os.path.basename(d) for d in data if "." in os.path.basename(d)}
        self.holders: set[str] = set()
        for d in data:
            while d not in self.holders and d not in (self.root, os.path.dirname(d)):  # up to the root
                self.holders.add(d)
                d = os.path.dirname(d)
        self.answers: dict[str, bool] = {}

    def by(self, path: str) -> bool:
        if path not in self.answers:
            here = os.path.dirname(path)
            self.answers[path] = any(self._names(s, here) for s in _string_literals(path))
        return self.answers[path]

    def _names(self, literal: str, here: str) -> bool:
        s = literal.strip().replace("\\", "/")
        if not s or not s.strip("./") or "\n" in s:
            return False
        if os.path.basename(s.rstrip("/")) in self.names:
            return True  # the file's name, joined to a folder at run time
        bases = ("",) if os.path.isabs(s) else (here, self.root)
        return any(os.path.normpath(os.path.join(b, s)) in self.holders for b in bases)


def _string_literals(path: str) -> set[str]:
    try:
        tree = grammar.parse(fs.read(path))
    except (OSError, SyntaxError, ValueError):
        return set()
    return {n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and 0 < len(n.value) <= _MAX_LITERAL}


def _rel(path: str, root: str) -> str:
    return os.path.relpath(os.path.abspath(path), os.path.abspath(root)).replace(os.sep, "/")


def _dumps(index: dict[str, list[str]]) -> str:
    return json.dumps(index, sort_keys=True, indent=1)
