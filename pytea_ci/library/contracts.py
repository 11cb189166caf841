"""Library mode in a diff (`--diff BASE`, `--staged`): each module of a changed file, checked alone on
both sides, and a PT014 `contract-changed` note where its accepted input or its output shape changed.

The head's modules are the run's own library results (`run.changed_results`); the base's are
checked from a snapshot of the base commit (`git archive` into a temporary folder, never a checkout),
with the same options and result cache, so an unchanged module costs a cache lookup. A module is
compared when both sides ran `forward` to its end and the run reports no error or warning inside its
class (a module that fails, for every input or for its callers', is reported by that finding instead).
A change that makes a caller of the project fail is an error already (callers are evidence,
`library/verdict.py`).
"""

from __future__ import annotations

import ast
import dataclasses
import os
import tempfile
from typing import TYPE_CHECKING, Any

from pytea_ci.diagnostics import Diagnostic, Related, Severity, Span
from pytea_ci.diagnostics.modshapes import InputShape, ModuleShapes
from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.diagnostics.rules import CONTRACT_CHANGED
from pytea_ci.driver import discover as disc
from pytea_ci.driver import fs, gitdiff
from pytea_ci.driver.imports_graph import ImportCache, ImportGraph
from pytea_ci.library import run as library_run
from pytea_ci.library import targets as lib

if TYPE_CHECKING:
    from pytea_ci.driver.run import Options

MAX_MODULES = 20  # compared per run (the modules of the changed files, in file order)
_RAN = ("determined", "partial")


def compare(result: RunResult, modules: list[EntryResult], changes: gitdiff.ChangeSet, repo: Any, seconds: float,
            opts: Options, graph: ImportGraph) -> list[str]:
    """Add a PT014 note to `result` for each changed module (`modules`: their head results, from
    `run.changed_results`) whose contract or output changed; returns warnings (the base could
    not be read)."""
    if changes.base is None or not changes.complete:
        return []
    root = os.path.abspath(opts.root)
    head = [m for m in modules if m.shapes is not None and m.shapes.status in _RAN]
    if not head:
        return []
    renamed = {_rel(new, root): _rel(old, root) for new, old in changes.renames.items()}
    wanted = sorted({renamed.get(m.shapes.path, m.shapes.path) for m in head if m.shapes is not None})
    try:
        base = _base_shapes(repo, changes.base, root, wanted, seconds, opts)
    except gitdiff.GitError as e:
        return [f"contract changes not compared: {e}"]
    for m in head:
        s = m.shapes
        assert s is not None
        old = base.get(f"{renamed.get(s.path, s.path)}::{s.module.split('::')[-1]}")
        if old is not None and old.status in _RAN and not _has_finding(result, s, root, graph):
            d = _note(old, s, changes, root, graph)
            if d is not None:
                _attach(result, m, d)
    return []


def _rel(path: str, root: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def _base_shapes(repo: Any, commit: str, root: str, files: list[str], seconds: float,
                 opts: Options) -> dict[str, ModuleShapes]:
    """module name -> its shapes on the base (the first construction that ran, else the first)."""
    fs.untracked("the base revision was checked in library mode")
    with tempfile.TemporaryDirectory(prefix="pytea-ci-base-") as tmp:
        gitdiff.snapshot(repo, commit, tmp)
        base_root = os.path.normpath(os.path.join(tmp, _rel(root, gitdiff.repo_root(repo))))
        present = [os.path.join(base_root, f) for f in files if fs.isfile(os.path.join(base_root, f))]
        graph = ImportGraph(base_root, ImportCache(None))
        project = disc.python_files(base_root, base_root, [])
        targets = lib.targets(present, project, base_root, parse=graph.cache.tree).targets
        results = library_run.check_targets(targets, dataclasses.replace(opts, root=base_root), seconds, graph)
    out: dict[str, ModuleShapes] = {}
    for r in results:
        if r.shapes is not None and (r.shapes.module not in out or out[r.shapes.module].status not in _RAN):
            out[r.shapes.module] = r.shapes
    return out


def _shown(inp: InputShape) -> str:
    """`x: [N, 1, 28, 28]`: the smallest accepted input, its leading (batch) symbol kept."""
    if inp.shape is None:
        return f"{inp.name}: not a tensor"
    if inp.example is None or len(inp.example) != len(inp.shape):
        return f"{inp.name}: [{', '.join(inp.shape)}]"
    dims = [inp.shape[0] if i == 0 and len(inp.shape) >= 2 and inp.shape[0].isidentifier() else str(v)
            for i, v in enumerate(inp.example)]
    return f"{inp.name}: [{', '.join(dims)}]"


def _output(s: ModuleShapes) -> str:
    if s.output_example is None:
        return s.output
    first = s.output.strip("[]").split(", ")[0] if s.output.startswith("[") else ""
    dims = [first if i == 0 and len(s.output_example) >= 2 and first.isidentifier() else str(v)
            for i, v in enumerate(s.output_example)]
    return f"[{', '.join(dims)}]"


def _note(old: ModuleShapes, new: ModuleShapes, changes: gitdiff.ChangeSet, root: str,
          graph: ImportGraph) -> Diagnostic | None:
    cls = new.module.split("::")[-1]
    was, now = "; ".join(_shown(i) for i in old.inputs), "; ".join(_shown(i) for i in new.inputs)
    parts = []
    if was != now:
        parts.append(f"input changed from {was} to {now}")
    elif old.contract != new.contract:
        parts.append(f"input contract changed (smallest input still {now})")
    if _output(old) != _output(new):
        parts.append(f"output changed from {_output(old)} to {_output(new)}")
    if not parts:
        return None
    notes = (f"base contract: {' and '.join(old.contract) or 'none'}", f"new contract: {' and '.join(new.contract) or 'none'}")
    return Diagnostic(CONTRACT_CHANGED.id, Severity.NOTE, Span(new.path, new.line, 0), f"{cls}: {'; '.join(parts)}",
                      notes=notes, related=_changed_lines(new, changes, root, graph), entry=new.module)


def _class_lines(s: ModuleShapes, root: str, graph: ImportGraph) -> tuple[int, int] | None:
    tree = graph.cache.tree(os.path.join(root, s.path))
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.lineno == s.line), None) if tree else None
    return None if cls is None else (cls.lineno, cls.end_lineno or cls.lineno)


def _changed_lines(s: ModuleShapes, changes: gitdiff.ChangeSet, root: str, graph: ImportGraph) -> tuple[Related, ...]:
    """The changed hunks inside the module's class, on the new side (the statements that changed)."""
    lines = _class_lines(s, root, graph)
    if lines is None:
        return ()
    hunks = changes.hunks.get(os.path.abspath(os.path.join(root, s.path)), [])
    return tuple(Related(Span(s.path, max(a, lines[0]), 0), "changed here") for a, b in hunks
                 if a <= lines[1] and b >= lines[0])[:5]


def _has_finding(result: RunResult, s: ModuleShapes, root: str, graph: ImportGraph) -> bool:
    """Whether the run reports an error or warning inside the module's class: the change is reported
    by it already (one mistake, one finding)."""
    lines = _class_lines(s, root, graph)
    return lines is not None and any(
        d.severity is not Severity.NOTE and os.path.normpath(d.span.path) == os.path.normpath(s.path)
        and lines[0] <= d.span.line <= lines[1] for d in result.diagnostics)


def _attach(result: RunResult, module: EntryResult, d: Diagnostic) -> None:
    """On the module's library-mode result; a module an entry point ran gets its own result, with only
    the note (its findings are the entry point's)."""
    for e in result.entries:
        if e.shapes is not None and module.shapes is not None and e.shapes.module == module.shapes.module:
            e.diagnostics.append(d)
            return
    result.entries.append(dataclasses.replace(module, diagnostics=[d], status="ok"))
