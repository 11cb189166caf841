"""One analysis run for the language server: `driver.check` on a file, exactly as `pytea-ci check FILE`
selects and filters (entry points importing it, library mode, severity overrides, ignore comments), with
the open buffers standing in for the files on disk and the shape of every tensor-valued binding recorded;
then the contracts of the file's nn.Module classes (as `pytea-ci shapes FILE` computes them)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pytea_ci.diagnostics import Diagnostic, Fix, Severity, Span, sources
from pytea_ci.diagnostics.modshapes import ModuleShapes
from pytea_ci.diagnostics.result import RunResult
from pytea_ci.diagnostics.rules import INCOMPLETE
from pytea_ci.driver.resident import Resident
from pytea_ci.interp.observe import Editor


class Superseded(Exception):
    """A newer edit arrived: this run's results would be stale."""


@dataclass
class Binding:
    """A name bound to tensors at one place, with the shapes seen there on every path that reached it."""

    line: int  # 1-based
    col: int  # 0-based (UTF-8 bytes, as `ast`)
    end_col: int
    name: str
    shapes: list[str]
    origins: list[str]


@dataclass
class Analysis:
    target: str  # absolute path of the file the run was for
    root: str
    versions: dict[str, int] = field(default_factory=dict)  # open buffers' versions the run saw
    diagnostics: dict[str, list[Diagnostic]] = field(default_factory=dict)  # absolute path -> findings
    bindings: dict[str, list[Binding]] = field(default_factory=dict)  # absolute path -> bindings
    contracts: dict[str, ModuleShapes] = field(default_factory=dict)  # class name -> contract (target file)
    messages: list[str] = field(default_factory=list)  # warnings and failures, one line each
    seconds: float = 0.0
    result: RunResult | None = None  # what `check` returned (for `explain`)
    fixes: dict[tuple[str, str, int, int], Fix | None] = field(default_factory=dict)  # proven on request (fixes.py)

    @property
    def files(self) -> set[str]:
        return set(self.diagnostics) | set(self.bindings)


class _Recorder:
    def __init__(self) -> None:
        self.seen: dict[tuple[str, int, int, int, str], tuple[set[str], set[str]]] = {}

    def __call__(self, span: Span, name: str, text: str, origins: tuple[str, ...]) -> None:
        key = (span.path, span.line, span.col, span.end_col or span.col + len(name), name)
        shapes, where = self.seen.setdefault(key, (set(), set()))
        shapes.add(text)
        where.update(origins)

    def bindings(self, root: str) -> dict[str, list[Binding]]:
        out: dict[str, list[Binding]] = {}
        for (path, line, col, end, name), (shapes, where) in self.seen.items():
            out.setdefault(_absolute(root, path), []).append(
                Binding(line, col, end, name, sorted(shapes), sorted(where)))
        for items in out.values():
            items.sort(key=lambda b: (b.line, b.col))
        return out


def _absolute(root: str, path: str) -> str:
    return os.path.normpath(os.path.join(root, path))


class _Overlay:
    """The buffers installed for the driver's file questions (`driver/fs.py`) for the duration of a run;
    the interpreter gets them, the recorder and the cancel test as an `Editor` in the request."""

    def __init__(self, buffers: dict[str, bytes]) -> None:
        self.buffers = buffers

    def __enter__(self) -> None:
        sources.install(self.buffers)

    def __exit__(self, *exc: object) -> None:
        pass


def analyze(target: str, buffers: dict[str, tuple[bytes, int]], resident: Resident, args: dict[str, object],
            superseded: Callable[[], bool]) -> Analysis:
    """Findings and bindings of the run for `target`; raises Superseded when a newer edit came in."""
    from pytea_ci.driver.check import CheckRequest, check
    from pytea_ci.driver.project import project_root

    t0 = time.monotonic()
    root = project_root(None, os.path.dirname(target))
    out = Analysis(target, root, {p: v for p, (_, v) in buffers.items()})
    recorder = _Recorder()

    def progress(done: int, total: int, entry: str) -> None:
        if superseded():
            raise Superseded()

    texts = {p: t for p, (t, _) in buffers.items()}
    req = CheckRequest(paths=[target], root=root, no_cache=True, args=dict(args), progress=progress,
                       resident=resident, editor=Editor.of(texts, recorder, superseded))
    with _Overlay(texts):
        try:
            outcome = check(req)
        except Superseded:
            raise
        except Exception as e:  # a bad configuration, an unreadable project: one line on the file, no crash
            text = f"pytea-ci: {type(e).__name__}: {e}"
            out.messages.append(text)
            rel = os.path.relpath(target, root)
            out.diagnostics = {target: [Diagnostic(INCOMPLETE.id, Severity.NOTE, Span(rel, 1, 0),
                                                   f"analysis failed: {text}", entry=rel)]}
            return out
    if superseded():  # stopped midway (the interpreter's cancel test): its results are not the file's
        raise Superseded()
    resident.runs += 1
    out.result = outcome.result
    out.messages += outcome.messages
    out.diagnostics = {target: []}
    for d in outcome.result.diagnostics:
        out.diagnostics.setdefault(_absolute(root, d.span.path), []).append(d)
    out.bindings = recorder.bindings(root)
    for entry in outcome.result.entries:
        if entry.shapes is not None and _absolute(root, entry.shapes.path) == target:
            out.contracts[entry.shapes.module.rpartition("::")[2]] = entry.shapes
    out.seconds = time.monotonic() - t0
    return out


def add_contracts(run: Analysis, buffers: dict[str, tuple[bytes, int]], resident: Resident,
                  superseded: Callable[[], bool]) -> None:
    """The contracts of the target file's module classes that the run did not check in library mode
    (those an entry point constructs), computed as `pytea-ci shapes FILE` does; stops early when a newer
    edit came in (the worker then moves on to it)."""
    from pytea_ci.driver import discover
    from pytea_ci.library import run as library_run
    from pytea_ci.library import targets as lib
    from pytea_ci.driver.project import CheckRequest, load_config, options

    recorder = _Recorder()
    contracts = dict(run.contracts)  # built apart, then swapped in: hovers read the run meanwhile
    texts = {p: t for p, (t, _) in buffers.items()}
    with _Overlay(texts):
        try:
            cfg = load_config(run.root, None, {})
            if cfg.library_mode == "never":
                return
            found = lib.targets([run.target], discover.python_files(run.root, run.root, cfg.exclude), run.root)
            todo = [t for t in found.targets if t.cls not in contracts]
            opts = options(cfg, run.root, [], CheckRequest(no_cache=True, resident=resident,
                                                           editor=Editor.of(texts, recorder, superseded)))
            for t in todo:
                if superseded():
                    break
                for shapes, _stats in library_run.run_targets([t], opts, cfg.library_time_budget):
                    contracts.setdefault(shapes.module.rpartition("::")[2], shapes)
        except Exception as e:  # contracts are a convenience: never fail the session for them
            run.messages.append(f"pytea-ci: contracts not computed: {type(e).__name__}: {e}")
    bindings = {path: list(items) for path, items in run.bindings.items()}
    for path, items in recorder.bindings(run.root).items():  # shapes inside forward, as library mode saw them
        have = {(b.line, b.col, b.name) for b in bindings.get(path, [])}
        merged = bindings.get(path, []) + [b for b in items if (b.line, b.col, b.name) not in have]
        bindings[path] = sorted(merged, key=lambda b: (b.line, b.col))
    run.contracts, run.bindings = contracts, bindings
