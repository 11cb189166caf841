"""Where an installed package defines each of its names, read from its source (issue 36, item 1).

A package that exports its names lazily — a module `__getattr__` (PEP 562), a lazy-module object put in
`sys.modules`, an import structure computed by scanning its own files (transformers 5, diffusers) —
runs machinery the interpreter cannot follow to the end. What that machinery computes is simple: the
module of the package that defines the name. This module answers that from the package's files, never
importing them: an index of the names each module defines at its top level (`class`, `def`, an
assignment at column 0), the `__all__` literal of each, and the modules and names the package's
`if TYPE_CHECKING:` imports of its `__init__.py` files name (what type checkers are told the lazy
exports are).

The index is built once per package folder and version: read as text with a line regex (a package of
3,000 files is read in about a second), kept in the process and, with a cache folder, in
`index/<2 hex>/<key>.json` there (keyed by the package, its version and the hash of its `RECORD`).

`lookup` is unambiguous or nothing: one module defining the name under the module asked; several —
those the `TYPE_CHECKING` imports name, else those whose `__all__` lists it, if that leaves one;
otherwise the candidates are returned, to be named in the unknown's origin.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
from dataclasses import dataclass
from typing import Any

from pytea_ci.fsio import atomic_write, read_json, read_source

FORMAT = 1
_DEF = re.compile(r"^(?:class|def|async\s+def)\s+([A-Za-z]\w*)|^([A-Za-z]\w*)\s*(?::[^\n=]*)?=(?!=)", re.M)
_ALL = re.compile(r"^__all__\s*(?::[^\n=]*)?=\s*[\[(]([^\])]*)[\])]", re.M)
_STRING = re.compile(r"""["']([A-Za-z_]\w*)["']""")


@dataclass(frozen=True)
class Found:
    """The answer for one name: the module that defines it, or the candidates when not one."""

    module: str | None
    candidates: tuple[str, ...] = ()


# a package's index: name -> [(module, flags)]; flags: 1 = named by a TYPE_CHECKING import, 2 = in `__all__`
Table = dict[str, list[tuple[str, int]]]
_TABLES: dict[str, Table] = {}


def lookup(root: str, package: str, version: str, cache: str | None, under: str, name: str) -> Found | None:
    """Where `name`, asked of module `under`, is defined in `package` (whose folder is `root`); None
    when no module under `under` defines it."""
    table = _table(root, package, version, cache)
    prefix = under + "."
    rows = [(m, f) for m, f in _rows(table.get(name, ())) if m != under and m.startswith(prefix)]
    if not rows:
        return None
    for keep in (lambda f: True, lambda f: f & 1, lambda f: f & 2, lambda f: f == 3):
        chosen = sorted({m for m, f in rows if keep(f)})
        if len(chosen) == 1:
            return Found(chosen[0])
    return Found(None, tuple(sorted({m for m, _ in rows})))


def _table(root: str, package: str, version: str, cache: str | None) -> Table:
    if root in _TABLES:
        return _TABLES[root]
    path = _cache_path(cache, root, package, version) if cache else None
    doc = read_json(path) if path else None
    table: Table | None = None
    if isinstance(doc, dict) and doc.get("format") == FORMAT and isinstance(doc.get("names"), dict):
        table = doc["names"]  # its rows are read when asked (`_rows`): a run asks a few of its 10,000s of names
    if table is None:
        table = build(root, package)
        if path is not None:
            try:
                atomic_write(path, json.dumps({"format": FORMAT, "names": table}))
            except OSError:
                pass  # a read-only cache only costs the reading
    _TABLES[root] = table
    return table


def _rows(rows: Any) -> list[tuple[str, int]]:
    """The rows of one name as the index file has them (lists), checked: a damaged file answers nothing."""
    if isinstance(rows, (list, tuple)) and all(isinstance(r, (list, tuple)) and len(r) == 2 and isinstance(r[0], str)
                                               and isinstance(r[1], int) for r in rows):
        return [(m, f) for m, f in rows]
    return []


def _cache_path(cache: str, root: str, package: str, version: str) -> str:
    key = hashlib.sha256(f"{FORMAT}|{os.path.realpath(root)}|{package}|{version}".encode()).hexdigest()
    return os.path.join(cache, "index", key[:2], key + ".json")


def build(root: str, package: str) -> Table:
    """The index of the package whose folder is `root` (`package`: its import name)."""
    table: Table = {}
    typed: set[tuple[str, str]] = set()  # (module, name or "*")
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d.isidentifier())
        rel = os.path.relpath(folder, root)
        base = package if rel == "." else f"{package}.{rel.replace(os.sep, '.')}"
        for file in sorted(f for f in files if f.endswith(".py") and f[:-3].isidentifier()):
            text = read_source(os.path.join(folder, file))
            if text is None:
                continue
            dotted = base if file == "__init__.py" else f"{base}.{file[:-3]}"
            _add(table, dotted, text)
            if file == "__init__.py" and "TYPE_CHECKING" in text:  # where lazy exports are declared
                typed |= _typed(text, base)
    for name, rows in table.items():
        table[name] = [(m, f | (1 if (m, name) in typed or (m, "*") in typed else 0)) for m, f in rows]
    return table


def _add(table: Table, dotted: str, text: str) -> None:
    listed: set[str] = set()
    for m in _ALL.finditer(text):
        listed.update(_STRING.findall(m.group(1)))
    for name in dict.fromkeys(a or b for a, b in _DEF.findall(text)):
        if not name.startswith("_"):
            table.setdefault(name, []).append((dotted, 2 if name in listed else 0))


def _typed(text: str, package: str) -> set[tuple[str, str]]:
    """(module, name) pairs, and (module, "*") for star imports, of the `if TYPE_CHECKING:` imports
    of a file of package `package` (not in `except` handlers: those import placeholders)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set()
    out: set[tuple[str, str]] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.If) and is_type_checking(stmt.test):
            for node in type_checking_imports(stmt.body):
                dotted = absolute(package, node)
                out.update((dotted, a.name) for a in node.names)
    return out


def absolute(package: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - (node.level - 1)])
    return f"{base}.{node.module}" if node.module else base


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def type_checking_imports(body: list[ast.stmt]) -> list[ast.ImportFrom]:
    """The `from X import ...` statements of a block, into `try`'s body and `else` (not its handlers:
    those import the placeholders used when an optional dependency is missing) and nested `if`s."""
    out: list[ast.ImportFrom] = []
    for stmt in body:
        if isinstance(stmt, ast.ImportFrom):
            out.append(stmt)
        elif isinstance(stmt, ast.Try):
            out += type_checking_imports(stmt.body) + type_checking_imports(stmt.orelse)
        elif isinstance(stmt, ast.If):
            out += type_checking_imports(stmt.body) + type_checking_imports(stmt.orelse)
    return out


def origin_text(name: str, found: Any) -> str:
    """How an ambiguous name is described in an unknown's origin."""
    shown = ", ".join(found.candidates[:4]) + (", ..." if len(found.candidates) > 4 else "")
    return f"{name} is defined in several modules ({shown})"
