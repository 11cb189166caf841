"""Pay once (issue 21, item 2): what the import of an installed package leaves, kept in the process.

See `interp/packages.py` for the rules. An import is kept when it is the path's first import of an
installed package (no module of one is loaded yet, so what it leaves refers to nothing else of the
path but the project's modules and the models, which it may refer to and which stay shared), and
when its side effects are replayable: no finding, no decision recorded (a fork), no budget note, no
model fact, no launcher end. A kept import is reused when the path's symbol counter has not passed
where the kept one started (its symbols cannot clash with the path's) and when the steps it ran fit
in what is left of the path's, the entry point's and the package's budgets — as the cold import
would have, so a restored import ends exactly where a cold one would.

Key: the module imported, the site (folders, followed packages with their versions and RECORD
hashes, the package budget), the recursion, unroll and loop budgets (the options import-time code
depends on) and the modules already loaded (by name): a restored copy refers to this path's modules
of those names (module objects only: a package that keeps a project's class is rare and not handled).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pytea_ci.interp import packages
from pytea_ci.interp.runtime import ModuleVal

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

_MAX_KEPT = 16
_ID_SETS = ("inexact", "escaped")
_ID_KEYS = ("known_len", "rep_positions", "star_namespaces")


@dataclass
class Kept:
    modules: dict[str, Any]  # name -> module value, as the import left it (a private copy)
    ids: dict[str, Any]  # the interpreter's id-keyed records about objects of those modules
    steps: int
    sym_start: int
    sym_end: int
    sym_names: frozenset[str]
    unmodeled: dict[str, int]
    ops: dict[Any, Any]
    skipped: dict[Any, Any]
    checks: tuple[int, int]
    library_used: bool
    result: str | None  # the name of the module value `import_module` returned (None: not a module)
    before: dict[str, Any]  # the modules loaded before the import (the kept copy refers to them as they were)


_IMPORTS: dict[str, Kept] = {}
STATS = {"kept": 0, "reused": 0}  # for benchmarks/installed_packages.py


def enter_import(interp: "Interpreter", dotted: str, package: str, run: Callable[[], Any]) -> Any:
    site = interp.site
    assert site is not None
    first = not any(site.package_of(getattr(m, "path", "") or "") for m in interp.modules.values()
                    if isinstance(m, ModuleVal))
    key = _key(interp, dotted) if first else None
    kept = _IMPORTS.get(key) if key is not None else None
    if kept is not None and _fits(interp, kept, package):
        return _restore(interp, kept, package)
    if key is None:
        return packages.enter(interp, package, run, importing=dotted)
    before = _Before(interp)
    out = packages.enter(interp, package, run, importing=dotted)
    if before.replayable(interp) and isinstance(out, ModuleVal) and len(_IMPORTS) < _MAX_KEPT:
        _IMPORTS[key] = before.keep(interp, out)
        STATS["kept"] += 1
    return out


def _key(interp: "Interpreter", dotted: str) -> str:
    site = interp.site
    assert site is not None
    loaded = sorted(n for n, m in interp.modules.items() if isinstance(m, ModuleVal))
    doc = [dotted, list(site.folders), sorted(site.follow), sorted(site.skip), site.steps, site.versions,
           interp.budget.recursion, interp.budget.unroll, interp.budget.loop_iterations, loaded]
    return json.dumps(doc, sort_keys=True, default=repr)


class _Before:
    """What the path looked like before the import: to tell what the import added, and whether it can be replayed."""

    def __init__(self, interp: "Interpreter") -> None:
        sh = interp.shared
        self.modules = set(interp.modules)
        self.steps = interp.steps
        self.sym = interp.sym_count
        self.names = set(interp.sym_names)
        self.trail = len(interp.trail)
        self.findings = len(sh.findings)
        self.budgets = len(sh.budgets)
        self.ended = dict(sh.coverage.ended)
        self.facts = dict(interp.facts)
        self.callbacks = len(interp.callbacks)
        self.unmodeled = dict(sh.unmodeled)
        self.ops = dict(sh.coverage.ops)
        self.skipped = dict(sh.coverage.skipped)
        self.checks = (sh.coverage.checks_decided, sh.coverage.checks_skipped)
        self.machine = len(interp.machine.choices)

    def replayable(self, interp: "Interpreter") -> bool:
        sh = interp.shared
        return (len(interp.trail) == self.trail and len(sh.findings) == self.findings and len(sh.budgets) == self.budgets
                and sh.coverage.ended == self.ended and interp.facts == self.facts
                and len(interp.callbacks) == self.callbacks and len(interp.machine.choices) == self.machine
                and interp.budget_note is None)

    def keep(self, interp: "Interpreter", out: ModuleVal) -> Kept:
        from pytea_ci.interp.snapshot import _Copier

        sh = interp.shared
        new = {n: m for n, m in interp.modules.items() if n not in self.modules}
        memo = _Copier(interp)
        for n, m in interp.modules.items():  # what was there before stays shared: never copied
            if n in self.modules:
                memo.seen[id(m)] = m
        modules = memo.copy(new)
        ids = _copy_ids(interp, memo)
        unmodeled = {k: v - self.unmodeled.get(k, 0) for k, v in sh.unmodeled.items() if v != self.unmodeled.get(k, 0)}
        cov = sh.coverage
        return Kept(modules, ids, interp.steps - self.steps, self.sym, interp.sym_count,
                    frozenset(interp.sym_names - self.names), unmodeled,
                    {k: v for k, v in cov.ops.items() if self.ops.get(k, 0) != v},
                    {k: v for k, v in cov.skipped.items() if k not in self.skipped},
                    (cov.checks_decided - self.checks[0], cov.checks_skipped - self.checks[1]), cov.library_used,
                    out.name if out.name in new else None,
                    {n: m for n, m in interp.modules.items() if n in self.modules})


def _copy_ids(interp: "Interpreter", memo: Any) -> dict[str, Any]:
    """The id-keyed records of the interpreter about objects the copy holds, re-keyed to the copies."""
    out: dict[str, Any] = {}
    for k in _ID_SETS:
        out[k] = {id(memo.seen[i]) for i in getattr(interp, k) if i in memo.seen and memo.seen[i] is not None}
    for k in _ID_KEYS:
        out[k] = {id(memo.seen[i]): memo.copy(v) for i, v in getattr(interp, k).items() if i in memo.seen}
    return out


def _fits(interp: "Interpreter", kept: Kept, package: str) -> bool:
    site = interp.site
    assert site is not None
    b = interp.budget
    return (interp.sym_count <= kept.sym_start and kept.result is not None
            and interp.steps + kept.steps <= b.steps
            and interp.shared.steps_done + interp.steps + kept.steps <= b.entry_steps
            and interp.pkg_used.get(package, 0) + kept.steps <= site.steps
            and not interp.sym_names & kept.sym_names)


def _restore(interp: "Interpreter", kept: Kept, package: str) -> Any:
    from pytea_ci.interp.snapshot import _Copier

    memo = _Copier(interp)
    for n, m in kept.before.items():  # the modules loaded before the import are this path's own
        if n in interp.modules:
            memo.seen[id(m)] = interp.modules[n]
    modules = memo.copy(kept.modules)
    for k in _ID_SETS:
        getattr(interp, k).update(id(memo.seen[i]) for i in kept.ids[k] if i in memo.seen)
    for k in _ID_KEYS:
        getattr(interp, k).update({id(memo.seen[i]): memo.copy(v) for i, v in kept.ids[k].items() if i in memo.seen})
    interp.keepalive.append(list(memo.seen.values()))
    interp.modules.update(modules)
    interp.steps += kept.steps
    interp.pkg_used[package] = interp.pkg_used.get(package, 0) + kept.steps
    interp.sym_count = kept.sym_end
    interp.sym_names |= kept.sym_names
    sh = interp.shared
    for k, v in kept.unmodeled.items():
        sh.unmodeled[k] = sh.unmodeled.get(k, 0) + v
    for span, origin in kept.ops.items():
        sh.coverage.op(span, origin)
    for span, origin in kept.skipped.items():
        sh.coverage.skipped.setdefault(span, origin)
    sh.coverage.checks_decided += kept.checks[0]
    sh.coverage.checks_skipped += kept.checks[1]
    sh.coverage.library_used |= kept.library_used
    STATS["reused"] += 1
    return modules[kept.result] if kept.result is not None else None
