"""The result cache (DESIGN §4): one entry point's findings, keyed by everything they depend on.

Key = sha256 of the analyzer version, a hash of the analyzer's own source files (models included,
so editing a model invalidates everything), the entry point's path, the content hash of every file
in its import closure (and the candidate paths that do not exist), and its analysis options. Never
mtimes. Entries are JSON files written atomically; corrupt or foreign-format entries are misses.
The cache folder also holds the solver cache (`solver/`), the replay records (`replay/`), what installed
packages' imports left (`packages/`, packages/disk.py), the environment's answers (`environment/`), the import
cache and the last run's figures.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
from typing import Any

from pytea_ci import __version__
from pytea_ci.diagnostics import Diagnostic, Frame, Related, Severity, Span
from pytea_ci.diagnostics.modshapes import ModuleShapes
from pytea_ci.diagnostics.result import EntryResult, EntryStats
from pytea_ci.driver.identity import analyzer_hash
from pytea_ci.driver.imports_graph import Closure
from pytea_ci.diagnostics.budgets import CANCELLED, WALL_CLOCK
from pytea_ci.diagnostics.rules import INCOMPLETE
from pytea_ci.fsio import BINARY_LIMIT, atomic_write, files_unchanged, read_json

FORMAT = 2
SUBDIRS = ("results", "solver", "replay", "packages", "environment")
_README = "Cache of pytea-ci (https://pypi.org/project/pytea-ci). Safe to delete.\n"


def entry_key(entry_rel: str, root: str, closure: Closure, options: dict[str, Any]) -> str:
    prefix = os.path.abspath(root) + os.sep

    def rel(p: str) -> str:  # closure paths are absolute and normalized: most are under the root
        r = p[len(prefix):] if p.startswith(prefix) else os.path.relpath(p, root)
        return r.replace(os.sep, "/")

    doc = {
        "format": FORMAT, "version": __version__, "analyzer": analyzer_hash(), "entry": entry_rel,
        "files": sorted((rel(p), h) for p, h in closure.files.items()),
        "absent": sorted(rel(p) for p in closure.absent),
        "options": options,
    }
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=repr).encode()).hexdigest()


# ----- (de)serialization -----------------------------------------------------------------------------
def _span(s: Span) -> list[Any]:
    return [s.path, s.line, s.col, s.end_line, s.end_col]


def _diag(d: Diagnostic) -> dict[str, Any]:
    return {"rule": d.rule, "severity": d.severity.value, "span": _span(d.span), "message": d.message,
            "notes": list(d.notes), "related": [[_span(r.span), r.message, r.label, r.value] for r in d.related],
            "trace": [[_span(f.span), f.message] for f in d.trace], "counterexample": d.counterexample,
            "entry": d.entry, "sizes": [list(x) for x in d.sizes]}


def _load_diag(d: dict[str, Any]) -> Diagnostic:
    return Diagnostic(d["rule"], Severity(d["severity"]), Span(*d["span"]), d["message"], tuple(d["notes"]),
                      tuple(Related(Span(*r[0]), *r[1:]) for r in d["related"]),
                      tuple(Frame(Span(*s), m) for s, m in d["trace"]),
                      {str(k): int(v) for k, v in d["counterexample"].items()}, d["entry"],
                      sizes=tuple((str(k), int(v)) for k, v in d.get("sizes", ())))


def dump_entry(e: EntryResult) -> dict[str, Any]:
    doc = {"entry": e.entry, "status": e.status, "error": e.error, "stats": dataclasses.asdict(e.stats),
           "diagnostics": [_diag(d) for d in e.diagnostics]}
    if e.shapes is not None:
        doc["shapes"] = e.shapes.as_dict()
    if e.inputs:
        doc["inputs"] = e.inputs
    return doc


def load_entry(doc: dict[str, Any]) -> EntryResult:
    shapes = ModuleShapes.from_dict(doc["shapes"]) if doc.get("shapes") is not None else None
    return EntryResult(doc["entry"], [_load_diag(d) for d in doc["diagnostics"]], EntryStats(**doc["stats"]),
                       doc["status"], doc["error"], cached=True, shapes=shapes,
                       inputs={str(k): str(v) for k, v in doc.get("inputs", {}).items()})


def cacheable(e: EntryResult) -> bool:
    """Internal errors and wall-clock safety-net cut-offs depend on the machine: never cached (every
    other budget counts deterministic units, so its cut-off is the same on every machine)."""
    if e.status == "internal-error":
        return False
    return not any(d.rule == INCOMPLETE.id and (WALL_CLOCK in d.message or CANCELLED in d.message) for d in e.diagnostics)


class ResultCache:
    """Entry results under `folder/results/<2 hex>/<key>.json`."""

    def __init__(self, folder: str, root: str = ".") -> None:
        self.folder = folder
        self.root = root  # the analysis root: data files a result read are named relative to it
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> str:
        return os.path.join(self.folder, "results", key[:2], key + ".json")

    def get(self, key: str) -> EntryResult | None:
        doc = read_json(self._path(key))
        try:
            if isinstance(doc, dict) and doc.get("format") == FORMAT and doc.get("key") == key:
                found = load_entry(doc["result"])
                # the data files it read (a text one is at most DATA_FILE_LIMIT bytes, a binary one BINARY_LIMIT)
                if files_unchanged(self.root, found.inputs, BINARY_LIMIT):
                    self.hits += 1
                    return found
        except (KeyError, TypeError, ValueError):
            pass
        self.misses += 1
        return None

    def put(self, key: str, result: EntryResult) -> None:
        if not cacheable(result):
            return
        ensure_folder(self.folder)
        doc = {"format": FORMAT, "key": key, "result": dump_entry(result)}
        try:
            atomic_write(self._path(key), json.dumps(doc, sort_keys=True))
        except OSError:
            pass  # a read-only cache only costs speed


def ensure_folder(folder: str) -> None:
    """Create the cache folder with a .gitignore (so it is never committed) and a CACHEDIR.TAG."""
    if os.path.isfile(os.path.join(folder, ".gitignore")):
        return
    try:
        os.makedirs(folder, exist_ok=True)
        atomic_write(os.path.join(folder, ".gitignore"), "# created by pytea-ci\n*\n")
        atomic_write(os.path.join(folder, "CACHEDIR.TAG"), "Signature: 8a477f597d28d172789f06886806bc55\n# " + _README)
    except OSError:
        pass


# ----- figures, info and clear -----------------------------------------------------------------------
def write_last_run(folder: str, figures: dict[str, Any]) -> None:
    ensure_folder(folder)
    try:
        atomic_write(os.path.join(folder, "last_run.json"), json.dumps(figures, indent=2, sort_keys=True))
    except OSError:
        pass


def _usage(path: str) -> tuple[int, int]:
    count = size = 0
    for dirpath, _, files in os.walk(path):
        for f in files:
            if not f.startswith(".tmp-"):
                count += 1
                try:
                    size += os.path.getsize(os.path.join(dirpath, f))
                except OSError:
                    pass
    return count, size


def info(folder: str) -> dict[str, Any]:
    """Entries and bytes per part of the cache, and the figures of the last run."""
    out: dict[str, Any] = {"cache_dir": folder, "exists": os.path.isdir(folder)}
    for sub in SUBDIRS:
        out[sub] = dict(zip(("entries", "bytes"), _usage(os.path.join(folder, sub))))
    imports = os.path.join(folder, "imports.json")
    out["imports_bytes"] = os.path.getsize(imports) if os.path.isfile(imports) else 0
    last = read_json(os.path.join(folder, "last_run.json"))
    out["last_run"] = last if isinstance(last, dict) else None
    return out


def clear(folder: str) -> bool:
    """Remove the cache folder; only when it looks like ours (never an arbitrary directory)."""
    if not os.path.isdir(folder):
        return False
    marker = os.path.join(folder, "CACHEDIR.TAG")
    if not os.path.isfile(marker) and any(n not in (*SUBDIRS, "imports.json", "last_run.json", ".gitignore")
                                          for n in os.listdir(folder)):
        raise OSError(f"{folder} does not look like a pytea-ci cache; not removing it")
    shutil.rmtree(folder, ignore_errors=True)
    return True


def format_info(data: dict[str, Any]) -> str:
    """`pytea-ci cache info` as text."""
    lines = [f"cache dir: {data['cache_dir']}" + ("" if data["exists"] else " (does not exist)")]
    for sub in SUBDIRS:
        lines.append(f"{sub}: {data[sub]['entries']} entries, {data[sub]['bytes'] / 1024:.1f} KiB")
    lines.append(f"imports: {data['imports_bytes'] / 1024:.1f} KiB")
    last = data.get("last_run")
    if last:
        lines.append(f"last run: {last.get('analyzed', 0)} analyzed, {last.get('cached', 0)} from cache "
                     f"(result hit rate {last.get('result_hit_rate', 0):.0%}); {last.get('solver_queries', 0)} "
                     f"solver queries, {last.get('z3_calls', 0)} to z3 "
                     f"(solver cache hit rate {last.get('solver_hit_rate', 0):.0%}); {last.get('seconds', 0):.2f}s")
    else:
        lines.append("last run: none recorded")
    return "\n".join(lines) + "\n"
