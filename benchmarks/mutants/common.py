"""Shared plumbing of the mutation benchmark: work folders, generated drivers, applying recipes.

A mutant's work folder is a copy of its subject's `root` folder (from the extracted source, see
fetch.py) with the recipe's edits applied to one file, plus, for a Module subject, the generated
driver `mutant_driver.py` (imports, build, one line per labelled input).
"""
from __future__ import annotations

import fnmatch
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from fetch import CACHE, source_dir  # noqa: E402
from subjects import SUBJECTS, Module, Script  # noqa: E402,F401 (re-exported)

DRIVER = "mutant_driver.py"
MUTANTS_JSON = os.path.join(HERE, "mutants.json")
STANDIN = os.environ.get("PYTEA_MUTANTS_STANDIN", "/work/shared/acceptance/_oracle")


def subject_root(subject: Module | Script) -> str:
    return os.path.join(source_dir(subject.source), subject.root)


def subject_files(subject: Module | Script) -> list[str]:
    """The files (relative to the root) mutants may be drawn from."""
    root = subject_root(subject)
    out: list[str] = []
    for dirpath, _dirs, names in os.walk(root):
        for n in names:
            rel = os.path.relpath(os.path.join(dirpath, n), root)
            if n.endswith(".py") and any(fnmatch.fnmatch(rel, g) for g in subject.files):
                out.append(rel)
    return sorted(out)


def inputs(subject: Module) -> list[tuple[int, int]]:
    return [(b, s) for s in subject.sizes for b in subject.batches]


def call_text(subject: Module, b: int, s: int) -> str:
    return subject.call.format(b=b, s=s)


def driver_text(subject: Module, ins: list[tuple[int, int]]) -> str:
    lines = ["import torch", subject.imports, subject.build, ""]
    lines += [call_text(subject, b, s) for b, s in ins]
    return "\n".join(lines) + "\n"


def apply_edits(text: bytes, edits: list[dict]) -> bytes:
    """Replace each edit's (line, col)-(end_line, end_col) span (1-based lines, UTF-8 byte
    columns as `ast` gives them); checks the old text is there."""
    starts = [0]
    for i, ch in enumerate(text):
        if ch == 10:
            starts.append(i + 1)
    spans = []
    for e in edits:
        a = starts[e["line"] - 1] + e["col"]
        z = starts[e["end_line"] - 1] + e["end_col"]
        if text[a:z].decode() != e["old"]:
            raise ValueError(f"recipe does not match the source at {e['line']}:{e['col']}")
        spans.append((a, z, e["new"].encode()))
    for a, z, new in sorted(spans, reverse=True):
        text = text[:a] + new + text[z:]
    return text


def make_workdir(subject: Module | Script, tag: str, mutant: dict | None, ins: list | None = None,
                 driver: bool = True) -> str:
    """A fresh copy of the subject's root with the mutant applied (and, with `driver`, a driver for a
    Module: library mode is checked without it, or `check FILE` would run it as an importer of FILE)."""
    work = os.path.join(CACHE, "work", subject.name, tag)
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(subject_root(subject), work, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    if mutant is not None:
        path = os.path.join(work, mutant["file"])
        with open(path, "rb") as f:
            text = f.read()
        with open(path, "wb") as f:
            f.write(apply_edits(text, mutant["edits"]))
    if isinstance(subject, Module) and driver:
        with open(os.path.join(work, DRIVER), "w") as f:
            f.write(driver_text(subject, ins if ins is not None else inputs(subject)))
    return work


def load_mutants() -> dict:
    with open(MUTANTS_JSON) as f:
        return json.load(f)


def save_json(path: str, doc: dict) -> None:
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
