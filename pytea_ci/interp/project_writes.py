"""Files another script of the project writes (issue 32: a `prepro.py` that `torch.save`s the tensors a
`train.py` `torch.load`s). When a program loads a file its own run did not write, the scripts of the
project that may write it are found by their text (a string literal ending the file's name, beside a call
of `save`), each is analyzed as `__main__` on its own (its defaults: no command line; a small part of the
entry's steps; never recursively), and what its paths saved at the same path is handed to the model that
asked (models/saved.py joins it). A path is the same when both scripts name it alike and run from the
same folder, or name the same file relative to their own folders.

What the reader's result then depends on is recorded like a data file it read (`Shared.inputs`, with
content hashes): the writer and every project file its analysis parsed, so a cached result is used again
only while they are unchanged. Nothing is taken from the files on disk.
"""

from __future__ import annotations

import ast
import dataclasses
import os
import re
import time
from typing import TYPE_CHECKING, Any

from pytea_ci.fsio import BINARY_LIMIT
from pytea_ci.interp.project_files import record_input
from pytea_ci.models.saved import SAVED

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

MAX_WRITERS = 3  # scripts analyzed per file read
MAX_FILES = 3000  # project files whose text is searched for writers
MAX_TEXT = 400_000  # larger files are not searched
STEP_SHARE = 8  # a writer's analysis gets this part of the reader's entry steps
WRITER_PATHS = 8
WRITER_SECONDS = 20.0
_SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", "venv", "env", "build", "dist"}
_LITERAL = re.compile(r"""(['"])([^'"\n\\]{1,200})\1""")

Record = tuple[str, Any]  # (library, value) as models/saved.py records a file saved


def written_elsewhere(interp: "Interpreter", key: tuple[str, ...]) -> list[Record]:
    """What the project's other scripts save at the path `key` (relative to the folder the program runs
    in), one record per path of theirs that saved it; empty when none is known to."""
    shared = interp.shared
    if shared.writer_of is not None:  # inside a writer's own analysis: never recursively
        return []
    here = os.path.dirname(os.path.realpath(interp.config.entry))
    target = os.path.normpath(os.path.join(here, *key))
    memo: dict[str, list[Record]] = shared.facts_of_writers
    if target in memo:
        return memo[target]
    out: list[Record] = []
    for writer in _candidates(interp, key[-1]):
        for saved_key, record in _saves_of(interp, writer).items():
            folder = os.path.dirname(writer)
            if saved_key == key and folder == here or os.path.normpath(os.path.join(folder, *saved_key)) == target:
                out.extend(record)
    memo[target] = out
    return out


def _candidates(interp: "Interpreter", name: str) -> list[str]:
    """Project scripts whose text may save a file called `name`: a string literal whose last path part
    ends the name and holds its extension (`'1989.pt'` for `train1989.pt`, `'data/x.pt'` for `x.pt`), and a
    call of `save`; longest first, then the reader's own folder."""
    if "." not in name:
        return []
    ext = name[name.rindex("."):]
    here = os.path.dirname(os.path.realpath(interp.config.entry))
    entry = os.path.realpath(interp.config.entry)
    found: list[tuple[int, bool, str]] = []
    listed = interp.shared.project_files
    for path in ([os.path.realpath(p) for p in listed()[:MAX_FILES]] if listed is not None
                 else _project_files(interp.config.root)):
        if path == entry:
            continue
        try:
            if os.path.getsize(path) > MAX_TEXT:
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        if "save" not in text:
            continue
        tails = (m.group(2).replace("\\", "/").rsplit("/", 1)[-1] for m in _LITERAL.finditer(text))
        best = max((len(t) for t in tails if name.endswith(t) and t.endswith(ext)), default=0)
        if best:
            found.append((-best, os.path.dirname(path) != here, path))
    return [p for *_, p in sorted(found)[:MAX_WRITERS]]


def _project_files(root: str) -> list[str]:
    """Every project `.py` file under `root`, when no driver handed in the run's list (`Shared.project_files`)."""
    out: list[str] = []
    for folder, dirs, files in os.walk(os.path.realpath(root)):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        out.extend(os.path.join(folder, f) for f in sorted(files) if f.endswith(".py"))
        if len(out) >= MAX_FILES:
            return out[:MAX_FILES]
    return out


def _saves_of(interp: "Interpreter", writer: str) -> dict[tuple[str, ...], list[Record]]:
    """The files `writer` saves at known paths, over its paths (analyzed once per entry point)."""
    shared = interp.shared
    if writer in shared.writers_run:
        return shared.writers_run[writer]
    from pytea_ci.interp.explore import explore, run_path
    from pytea_ci.interp.interpreter import Shared

    sub = Shared(shared.display_root, shared.installed)
    sub.writer_of = interp.config.entry
    sub.max_file_bytes = shared.max_file_bytes
    saves: dict[tuple[str, ...], list[Record]] = {}
    shared.writers_run[writer] = saves
    tree = sub.parse(writer)
    if isinstance(tree, SyntaxError):
        return saves
    parent = interp.config.budget
    budget = dataclasses.replace(parent, entry_steps=max(1, parent.entry_steps // STEP_SHARE), paths=WRITER_PATHS,
                                 wall_seconds=min(parent.wall_seconds, WRITER_SECONDS))
    options = {k: v for k, v in interp.config.options.items() if k not in ("args", "symbolic_args")}

    def run(w: "Interpreter", body: ast.Module, name: str) -> None:
        run_path(w, body, name)
        for key, record in (w.facts.get(SAVED) or {}).items():
            if key is not None and all(isinstance(p, str) for p in key) and record is not None:
                saves.setdefault(key, []).append(record)

    _, steps, _ = explore(writer, interp.config.root, tree, interp.config.decider, budget, options, sub,
                          time.monotonic(), False, run=run)
    interp.charge_work(steps)  # the first path that asks pays for it, as for a parse
    for path, parsed in sub.asts.items():  # the reader's result depends on these files now
        if interp.inside_project(path) and not isinstance(parsed, SyntaxError):
            try:
                with open(path, "rb") as f:  # as much as the result cache rereads (fsio.files_unchanged)
                    record_input(interp, path, f.read(BINARY_LIMIT + 1))  # as the result cache rereads it
            except OSError:
                continue
    shared.inputs.update(sub.inputs)
    return saves
