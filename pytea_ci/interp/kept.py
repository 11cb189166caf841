"""What an import left, kept and given to another path (issues 21 and 31): the modules it loaded (a
private copy), the interpreter's records about their objects, the decisions it made, what it added to
modules loaded before it, and what it counted (coverage, unmodeled names, budgets). Which imports are
kept, under which key, and what a restored one is charged is the caller's: `packages/kept.py` for
installed packages (charged as the cold import, so a cache never changes a result) and
`project_imports.py` for the project's own packages (paid once per run).

An import is kept when its side effects are replayable (`Before.replayable`): no finding, no budget
note, no path fact changed (new ones are replayed), and no change to the modules loaded before it (no
name bound there, no container bound there shrunk or changed) but the binding of a new submodule in its
package and containers there that only grew (a registry its classes filled: what was added is added
again on restore). An import that makes decisions (a fork on a fact about the machine, a guess; up to
`MAX_CHOICES`) is kept once per sequence of its choices (`with_choices`), and restored on a path that
would make the same ones (`candidates`): the trail, the path-condition conjuncts, the machine choices
and the solver counts are replayed.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.runtime import ModuleVal
from pytea_ci.interp.snapshot import _ATOMS, _Copier
from pytea_ci.models.registry import REGISTRY, get, load_all
from pytea_ci.models.values import ClassVal, Instance
from pytea_ci.shapes.dim import WORK

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

MAX_CHOICES = 4  # decisions an import may make and still be kept
_ID_SETS = ("inexact", "escaped", "unordered")
_ID_KEYS = ("known_len", "rep_positions", "star_namespaces", "cursors")


@dataclass
class Kept:
    modules: dict[str, Any]  # name -> module value, as the import left it (a private copy)
    ids: dict[str, Any]  # the interpreter's id-keyed records about objects of those modules (by object)
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
    pending: int  # symbolic work done since the import's last step, charged at the next step
    files: set[str]  # the source files it read (their hashes key its disk form, disk.py)
    natives: list[tuple[str, str, Any]]  # attributes it set on modeled classes: (registry name, name, value)
    decided: Decided | None = None  # the branches it forked on (None: none)
    grown: list[tuple[Any, Any]] = dataclasses.field(default_factory=list)  # (container of a module loaded
    # before it, what the import added to it): a registry it filled, refilled by a restored import
    new_facts: dict[str, Any] = dataclasses.field(default_factory=dict)  # facts of the path it set
    objects: int = 0  # the objects its copy made (what a restore copies: `project_imports.py` charges that)


@dataclass
class Decided:
    """The decisions a kept import made (a fork on a fact about the machine, a guess): one kept form per
    sequence of them, restored on a path whose replayed choices agree, as the cold import would go."""

    choices: tuple[bool, ...]
    pc: list[Any]  # the path-condition conjuncts they added
    made: list[tuple[int, str, bool, frozenset[str]]]  # machine choices and guesses, at positions from the import's start
    pc_before: list[str]  # the path condition they were decided under (another may decide them otherwise)
    solver: tuple[int, ...] = ()  # the solver's counts spent deciding them (charged again, as coverage is)


def with_choices(key: str, choices: tuple[bool, ...] | list[bool]) -> str:
    return key if not choices else f"{key} {json.dumps(list(choices))}"


def candidates(interp: "Interpreter", key: str) -> list[str]:
    """The keys of the kept forms this path could take: with no decision, then with the first 1, 2, ...
    decisions the path makes from here (the replayed ones, then first sides, as `Interpreter.choose`)."""
    forced, at = interp.config.forced, len(interp.trail)
    ahead = [forced[j] if j < len(forced) else True for j in range(at, at + MAX_CHOICES)]
    return [with_choices(key, ahead[:m]) for m in range(MAX_CHOICES + 1)]


class Before:
    """What the path looked like before the import: to tell what the import added, and whether it can be replayed."""

    def __init__(self, interp: "Interpreter") -> None:
        sh = interp.shared
        self.modules = set(interp.modules)
        self.steps = interp.steps
        self.sym = interp.sym_count
        self.names = set(interp.sym_names)
        self.trail = len(interp.trail)
        self.pc = len(interp.pc)
        self.per_run = (len(interp.per_run), len(interp.blind_cases))
        self.made = list(interp.machine.choices)
        self.solver = _solver_counts(interp)
        self.findings = len(sh.findings)
        self.budgets = dict(sh.budgets)
        self.ended = dict(sh.coverage.ended)
        self.facts = dict(interp.facts)
        self.callbacks = len(interp.callbacks)
        self.unmodeled = dict(sh.unmodeled)
        self.ops = dict(sh.coverage.ops)
        self.skipped = dict(sh.coverage.skipped)
        self.checks = (sh.coverage.checks_decided, sh.coverage.checks_skipped)
        self.parsed = set(sh.asts)
        self.natives = _natives()
        self.sizes = _sizes(interp)
        self.containers = _containers(interp)
        self.refs = _refs(interp, self.modules)  # before the import: it binds its submodules in their packages

    def replayable(self, interp: "Interpreter") -> bool:
        sh = interp.shared
        new = set(interp.modules) - self.modules
        after = _sizes(interp, self.modules)
        return (_same(self.sizes, after, {n.rpartition(".")[2] for n in new}, self.containers, _late(interp, self.sizes, after))
                and len(interp.trail) - self.trail <= MAX_CHOICES
                and interp.machine.choices[:len(self.made)] == self.made
                and (len(interp.per_run), len(interp.blind_cases)) == self.per_run
                and len(sh.findings) == self.findings and all(interp.facts.get(k, _ABSENT) is v for k, v in self.facts.items())
                and interp.budget_note is None and _native_changes(self.natives) is not None)

    def decided(self, interp: "Interpreter") -> Decided | None:
        """The decisions the import made (None: none)."""
        if len(interp.trail) == self.trail:
            return None
        made = [(at - self.trail, text, side, facts) for at, text, side, facts in interp.machine.choices[len(self.made):]]
        return Decided(tuple(d.choice for d in interp.trail[self.trail:]), list(interp.pc[self.pc:]),
                       made, [repr(c) for c in interp.pc[:self.pc]],
                       tuple(x - y for x, y in zip(_solver_counts(interp), self.solver)))

    def keep(self, interp: "Interpreter", out: ModuleVal) -> Kept:
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
        kept = Kept(modules, ids, interp.steps - self.steps, self.sym, interp.sym_count,
                    frozenset(interp.sym_names - self.names), unmodeled,
                    {k: v for k, v in cov.ops.items() if self.ops.get(k, 0) != v},
                    {k: v for k, v in cov.skipped.items() if k not in self.skipped},
                    (cov.checks_decided - self.checks[0], cov.checks_skipped - self.checks[1]), cov.library_used,
                    out.name if out.name in new else None, refs,
                    {k: v for k, v in sh.budgets.items() if k not in self.budgets},
                    {k: v - self.ended.get(k, 0) for k, v in cov.ended.items() if v != self.ended.get(k, 0)},
                    callbacks, WORK[0] - interp.work_seen, _files(new, set(sh.asts) - self.parsed),
                    [(n, k, memo.copy(v)) for n, k, v in _native_changes(self.natives) or ()], self.decided(interp),
                    [(c, memo.copy(added)) for c, added in _additions(self.containers)],
                    memo.copy({k: v for k, v in interp.facts.items() if k not in self.facts}))
        kept.objects = len(memo.seen) - len(refs)
        return kept


def _natives() -> list[tuple[str, Any, dict[str, Any]]]:
    """The modeled classes and instances of the registry with their attributes: an import may set one
    (transformers: `logging.Logger.warning_once = warning_once`), and a restored import sets it again."""
    load_all()  # a model loaded during the import would look as if the import had set its attributes
    seen: set[int] = set()
    out = []
    for name, v in REGISTRY.items():
        if isinstance(v, (ClassVal, Instance)) and id(v) not in seen:
            seen.add(id(v))
            out.append((name, v, dict(v.ns if isinstance(v, ClassVal) else v.attrs)))
    return out


def _native_changes(before: list[tuple[str, Any, dict[str, Any]]]) -> list[tuple[str, str, Any]] | None:
    """(registry name, attribute, value) set since `before`; None when one was removed (not replayable)."""
    out = []
    for name, v, attrs in before:
        now = v.ns if hasattr(v, "ns") else v.attrs
        if any(k not in now for k in attrs):
            return None
        out += [(name, k, x) for k, x in now.items() if attrs.get(k, _ABSENT) is not x]
    return out


def _files(modules: dict[str, Any], parsed: set[str]) -> set[str]:
    """The source files an import read: those of the modules it ran, and any other it parsed."""
    return {m.path for m in modules.values() if isinstance(m, ModuleVal)} | parsed


def _copy_ids(interp: "Interpreter", memo: Any) -> dict[str, Any]:
    """The id-keyed records of the interpreter about objects the copy holds, keyed by the copies."""
    out: dict[str, Any] = {}
    for k in _ID_SETS:
        out[k] = [memo.seen[i] for i in getattr(interp, k) if i in memo.seen and memo.seen[i] is not None]
    for k in _ID_KEYS:
        out[k] = [(memo.seen[i], memo.copy(v)) for i, v in getattr(interp, k).items() if i in memo.seen]
    return out


def restore(interp: "Interpreter", kept: Kept, seeds: dict[int, Any]) -> tuple[Any, int]:
    """Give the path a copy of the kept import (`seeds`: this path's objects for those the copy refers
    to); return what the import returned and how many objects the copy made (the caller charges steps)."""
    memo = _Copier(interp)
    memo.seen.update(seeds)  # what the copy refers to of the modules loaded before: this path's own
    modules = memo.copy(kept.modules)
    callbacks = memo.copy(kept.callbacks)
    interp.keepalive.append(list(memo.seen.values()))
    made = len(memo.seen) - len(seeds)
    return apply(interp, kept, modules, callbacks, lambda obj: memo.seen.get(id(obj)), memo.copy), made


def apply(interp: "Interpreter", kept: Kept, modules: dict[str, Any], callbacks: list[Any],
          mine: Callable[[Any], Any], copy: Callable[[Any], Any]) -> Any:
    """Give the path the modules of a kept import (`mine`: the path's object for one of the kept ones)
    and what the cold import left besides: symbols, coverage records, unmodeled counts (not its steps:
    the caller charges what its cache stands for)."""
    interp.callbacks.extend(callbacks)
    if kept.decided is not None:
        _replay(interp, kept.decided)
    for container, added in kept.grown:
        _grow(copy(container), copy(added))
    interp.facts.update(copy(kept.new_facts))
    for name, attr, v in kept.natives:
        target = get(name)
        (target.ns if hasattr(target, "ns") else target.attrs)[attr] = copy(v)
    for k in _ID_SETS:
        getattr(interp, k).update(id(o) for o in map(mine, kept.ids[k]) if o is not None)
    for k in _ID_KEYS:
        getattr(interp, k).update({id(mine(o)): copy(v) for o, v in kept.ids[k] if mine(o) is not None})
    interp.modules.update(modules)
    for name, mod in modules.items():  # a submodule is an attribute of its package (as `run_module` binds it)
        parent = interp.modules.get(name.rpartition(".")[0]) if "." in name else None
        if isinstance(parent, ModuleVal):
            parent.globals.setdefault(name.rpartition(".")[2], mod)
    interp.work_seen = WORK[0] - kept.pending
    interp.sym_count = kept.sym_end
    interp.sym_names |= kept.sym_names
    _charge(interp, kept)
    return modules[kept.result] if kept.result is not None else None


def _replay(interp: "Interpreter", d: Decided) -> None:
    """The path makes the kept import's decisions: its trail (a side not replayed leaves the other to
    follow, as `Interpreter.choose`), path condition and machine choices, as the cold import left them."""
    from pytea_ci.interp.interpreter import Decision

    at, n = len(interp.trail), len(interp.config.forced)
    interp.trail.extend(Decision(c, at + i >= n) for i, c in enumerate(d.choices))
    interp.pc.extend(d.pc)
    interp.machine.choices.extend((at + i, text, side, facts) for i, text, side, facts in d.made)
    stats = interp.config.decider.stats
    for name, n in zip(_SOLVER_COUNTS, d.solver):
        setattr(stats, name, getattr(stats, name) + n)


_SOLVER_COUNTS = ("concrete", "z3_calls", "cache_hits", "undecided", "unknown")


def _solver_counts(interp: "Interpreter") -> tuple[int, ...]:
    return tuple(getattr(interp.config.decider.stats, name) for name in _SOLVER_COUNTS)


def _charge(interp: "Interpreter", kept: Kept) -> None:
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
    return not isinstance(v, _ATOMS)


def table(refs: list[tuple[str, str | None, Any]]) -> list[tuple[str, str | None, str]]:
    """What the kept copy refers to of the modules loaded before it, as places: (module, name, type)."""
    return [(n, k, _type_name(obj)) for n, k, obj in refs]


def _type_name(obj: Any) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}"


def resolve(interp: "Interpreter", table: list[Any]) -> list[Any] | None:
    """This path's object at each place of `table`; None when one is missing or of another type."""
    out: list[Any] = []
    for n, k, tname in table:
        m = interp.modules.get(n)
        if not isinstance(m, ModuleVal):
            return None
        found = m if k is None else m.globals if k == "__globals__" else m.globals.get(k, _ABSENT)
        if found is _ABSENT or _type_name(found) != tname:
            return None
        out.append(found)
    return out


_ABSENT = object()


def _sizes(interp: "Interpreter", names: set[str] | None = None) -> dict[str, Any]:
    """The names bound in the modules loaded (before an import), what each is bound to, and the sizes of the
    containers bound there: an import that changes them (a registry filled in another module, `helper.X = 1`)
    cannot be replayed from a copy."""
    out: dict[str, Any] = {}
    for n, m in interp.modules.items():
        if not isinstance(m, ModuleVal) or (names is not None and n not in names):
            continue
        out[n] = {k for k in m.globals if isinstance(k, str)}
        out[f"{n}::bound"] = {k: id(v) for k, v in m.globals.items() if isinstance(k, str)}  # a name bound anew
        for k, v in m.globals.items():
            if isinstance(v, (dict, list, set)):
                out[f"{n}:{k}"] = len(v)
    return out


def _late(interp: "Interpreter", before: dict[str, Any], after: dict[str, Any]) -> dict[str, frozenset[str]]:
    """The names a module loaded before the import gained that its own late imports bind (an installed
    package's import its code reads only in functions, `packages/lazy.py`): a restored import leaves them
    unbound, and the module binds them again when they are read, as it did here."""
    installed = interp.shared.installed
    out: dict[str, frozenset[str]] = {}
    for key, names in after.items():
        old = before.get(key)
        mod = interp.modules.get(key)
        if installed is not None and isinstance(names, set) and isinstance(old, set) and names - old \
                and isinstance(mod, ModuleVal):
            out[key] = installed.late_names(interp, mod)
    return out


def _same(before: dict[str, Any], after: dict[str, Any], children: set[str],
          containers: dict[str, tuple[Any, Any, dict[str, Any], str]] | None = None,
          late: dict[str, frozenset[str]] | None = None) -> bool:
    """Equal but for the names of new submodules bound in their packages, for names a module's late
    imports bound (`late`), and for containers that only grew (`containers`: their contents before; a
    registry filled by a class of the import)."""
    for key in before.keys() | after.keys():
        a, b = before.get(key), after.get(key)
        if isinstance(a, set) and isinstance(b, set):
            if (a - b) - children or (b - a) - children - (late or {}).get(key, frozenset()):
                return False
        elif isinstance(a, dict) and isinstance(b, dict):  # names bound before and after: to the same object
            if any(a[k] != b[k] for k in a.keys() & b.keys()):
                return False
        elif a != b and (containers is None or key not in containers or _added(containers[key]) is None):
            return False
    return True


def _containers(interp: "Interpreter") -> dict[str, tuple[Any, Any, dict[str, Any], str]]:
    """The containers bound in the modules loaded, with a shallow copy of their contents and where they
    are bound: what an import added to one (a registry) is replayed on restore."""
    out: dict[str, tuple[Any, Any, dict[str, Any], str]] = {}
    for n, m in interp.modules.items():
        if isinstance(m, ModuleVal):
            for k, v in m.globals.items():
                if type(v) in (dict, list, set):
                    out[f"{n}:{k}"] = (v, v.copy(), m.globals, k)
    return out


def _added(entry: tuple[Any, Any, dict[str, Any], str]) -> Any:
    """What was added to a container since `entry` when it only grew and is still bound where it was
    (old items kept, by identity; new ones after them); None otherwise."""
    obj: Any = entry[0]
    old: Any = entry[1]
    home, name = entry[2], entry[3]
    if len(obj) < len(old) or home.get(name) is not obj:
        return None
    if isinstance(obj, list):
        return obj[len(old):] if all(a is b for a, b in zip(obj, old)) else None
    if isinstance(obj, dict):
        same = all(k in obj and obj[k] is v for k, v in old.items()) and list(obj)[:len(old)] == list(old)
        return {k: v for k, v in obj.items() if k not in old} if same else None
    return obj - old if old <= obj else None


def _additions(containers: dict[str, tuple[Any, Any, dict[str, Any], str]]) -> list[tuple[Any, Any]]:
    """(container, what was added) for every container of the modules loaded before that grew."""
    out = []
    for entry in containers.values():
        if len(entry[0]) != len(entry[1]):
            added = _added(entry)
            if added:
                out.append((entry[0], added))
    return out


def _grow(container: Any, added: Any) -> None:
    if isinstance(container, list):
        container.extend(added)
    else:
        container.update(added)
