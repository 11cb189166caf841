"""Pay once (issue 21, item 2): what the import of an installed package leaves, kept in the process.

See `interp/packages.py` for the rules. An import entering a package from outside it is kept when
its side effects are replayable: no finding, no decision recorded (a fork), no budget note, no model
fact, and no change to the modules loaded before it (no name bound there, no
container bound there grown or shrunk: a registry filled in another module could not be replayed)
but the binding of a new submodule in its package. A kept import is reused when the same modules are
loaded (by name), when everything the copy refers to in them is found at the same place on the path
(module, name), when the path's symbol counter has not passed where the kept one started (its symbols
cannot clash with the path's), and when the steps it ran fit in what is left of the path's, the
entry point's and the package's budgets — as the cold import would have, so a restored import ends
exactly where a cold one would.

Key: the module imported, the site (folders, followed packages with their versions and RECORD
hashes, the package budget), the recursion, unroll and loop budgets (the options import-time code
depends on) and the names of the modules already loaded.
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
    refs: list[tuple[str, str | None, Any]]  # what the copy refers to of the modules loaded before it
    budgets: dict[str, Any]  # soft budgets the import reached (noted once per entry point)
    ended: dict[Any, int]  # paths ended inside it (launchers handed code)
    callbacks: list[Any]  # functions it handed to code not followed (which may call them later)


_IMPORTS: dict[str, Kept] = {}
STATS = {"kept": 0, "reused": 0}  # for benchmarks/installed_packages.py


def enter_import(interp: "Interpreter", dotted: str, package: str, run: Callable[[], Any]) -> Any:
    key = _key(interp, dotted)
    kept = _IMPORTS.get(key)
    if kept is not None and _fits(interp, kept, package):
        seeds = _resolve(interp, kept.refs)
        if seeds is not None:
            return _restore(interp, kept, package, seeds)
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
        self.budgets = dict(sh.budgets)
        self.ended = dict(sh.coverage.ended)
        self.facts = dict(interp.facts)
        self.callbacks = len(interp.callbacks)
        self.unmodeled = dict(sh.unmodeled)
        self.ops = dict(sh.coverage.ops)
        self.skipped = dict(sh.coverage.skipped)
        self.checks = (sh.coverage.checks_decided, sh.coverage.checks_skipped)
        self.machine = len(interp.machine.choices)
        self.sizes = _sizes(interp)
        self.refs = _refs(interp, self.modules)  # before the import: it binds its submodules in their packages

    def replayable(self, interp: "Interpreter") -> bool:
        sh = interp.shared
        new = set(interp.modules) - self.modules
        return (_same(self.sizes, _sizes(interp, self.modules), {n.rpartition(".")[2] for n in new})
                and len(interp.trail) == self.trail
                and len(sh.findings) == self.findings and interp.facts == self.facts
                and len(interp.machine.choices) == self.machine
                and interp.budget_note is None)

    def keep(self, interp: "Interpreter", out: ModuleVal) -> Kept:
        from pytea_ci.interp.snapshot import _Copier

        sh = interp.shared
        new = {n: m for n, m in interp.modules.items() if n not in self.modules}
        memo = _Copier(interp)
        refs = self.refs
        for _, _, obj in refs:  # what was there before is the path's own: referred to, never copied
            memo.seen[id(obj)] = obj
        modules = memo.copy(new)
        callbacks = memo.copy(interp.callbacks[self.callbacks:])
        ids = _copy_ids(interp, memo)
        unmodeled = {k: v - self.unmodeled.get(k, 0) for k, v in sh.unmodeled.items() if v != self.unmodeled.get(k, 0)}
        cov = sh.coverage
        return Kept(modules, ids, interp.steps - self.steps, self.sym, interp.sym_count,
                    frozenset(interp.sym_names - self.names), unmodeled,
                    {k: v for k, v in cov.ops.items() if self.ops.get(k, 0) != v},
                    {k: v for k, v in cov.skipped.items() if k not in self.skipped},
                    (cov.checks_decided - self.checks[0], cov.checks_skipped - self.checks[1]), cov.library_used,
                    out.name if out.name in new else None, refs,
                    {k: v for k, v in sh.budgets.items() if k not in self.budgets},
                    {k: v - self.ended.get(k, 0) for k, v in cov.ended.items() if v != self.ended.get(k, 0)},
                    callbacks)


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


def _restore(interp: "Interpreter", kept: Kept, package: str, seeds: dict[int, Any]) -> Any:
    from pytea_ci.interp.snapshot import _Copier

    memo = _Copier(interp)
    memo.seen.update(seeds)  # what the copy refers to of the modules loaded before: this path's own
    modules = memo.copy(kept.modules)
    interp.callbacks.extend(memo.copy(kept.callbacks))
    for k in _ID_SETS:
        getattr(interp, k).update(id(memo.seen[i]) for i in kept.ids[k] if i in memo.seen)
    for k in _ID_KEYS:
        getattr(interp, k).update({id(memo.seen[i]): memo.copy(v) for i, v in kept.ids[k].items() if i in memo.seen})
    interp.keepalive.append(list(memo.seen.values()))
    interp.modules.update(modules)
    for name, mod in modules.items():  # a submodule is an attribute of its package (as `run_module` binds it)
        parent = interp.modules.get(name.rpartition(".")[0]) if "." in name else None
        if isinstance(parent, ModuleVal):
            parent.globals.setdefault(name.rpartition(".")[2], mod)
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
    for name, span in kept.budgets.items():
        sh.budgets.setdefault(name, span)
    for key, n in kept.ended.items():
        sh.coverage.ended[key] = sh.coverage.ended.get(key, 0) + n
    STATS["reused"] += 1
    return modules[kept.result] if kept.result is not None else None


def _refs(interp: "Interpreter", names: set[str]) -> list[tuple[str, str | None, Any]]:
    """The modules loaded so far, their globals and the objects bound in them: (module, name, object)."""
    out: list[tuple[str, str | None, Any]] = []
    for n in sorted(names):
        m = interp.modules.get(n)
        if not isinstance(m, ModuleVal):
            continue
        out += [(n, None, m), (n, "__globals__", m.globals)]
        out += [(n, k, v) for k, v in m.globals.items() if isinstance(k, str) and _shared_kind(v)]
    return out


def _shared_kind(v: Any) -> bool:
    from pytea_ci.interp.snapshot import _ATOMS

    return not isinstance(v, _ATOMS)


def _resolve(interp: "Interpreter", refs: list[tuple[str, str | None, Any]]) -> dict[int, Any] | None:
    """id of what the kept copy refers to -> this path's object at the same place; None when one is missing."""
    out: dict[int, Any] = {}
    for n, k, obj in refs:
        m = interp.modules.get(n)
        if not isinstance(m, ModuleVal):
            return None
        found = m if k is None else m.globals if k == "__globals__" else m.globals.get(k, _ABSENT)
        if found is _ABSENT or type(found) is not type(obj):
            return None
        out.setdefault(id(obj), found)
    return out


_ABSENT = object()


def _sizes(interp: "Interpreter", names: set[str] | None = None) -> dict[str, Any]:
    """The names bound in the modules loaded (before an import) and the sizes of the containers bound there:
    an import that changes them (a registry filled in another module) cannot be replayed from a copy."""
    out: dict[str, Any] = {}
    for n, m in interp.modules.items():
        if not isinstance(m, ModuleVal) or (names is not None and n not in names):
            continue
        out[n] = {k for k in m.globals if isinstance(k, str)}
        for k, v in m.globals.items():
            if isinstance(v, (dict, list, set)):
                out[f"{n}:{k}"] = len(v)
    return out


def _same(before: dict[str, Any], after: dict[str, Any], children: set[str]) -> bool:
    """Equal but for the names of new submodules bound in their packages."""
    for key in before.keys() | after.keys():
        a, b = before.get(key), after.get(key)
        if isinstance(a, set) and isinstance(b, set):
            if (a ^ b) - children:
                return False
        elif a != b:
            return False
    return True
