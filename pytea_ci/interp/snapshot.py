"""Run an entry point's imports once per entry point, not once per path (issue 12, item 9).

Every path replays the entry point from its first line (explore.py), so the import-time code of
the project (package `__init__`s, registries, decorators, class bodies) used to run again on every
path. Until a path takes its first undecided branch, all paths do exactly the same, and after it
they differ only by the recorded choices. So the state after the entry's *import prefix* (its
leading definitions and imports, see `import_prefix`) is captured once per sequence of choices made
inside it (a `Checkpoint`: a deep copy of the interpreter's per-path state and of the entry's
globals, taken by the first path that replays, so a single-path entry point pays nothing), and a later path whose forced choices agree with that sequence starts from a fresh copy
of it instead of re-running the imports.

Copies are deep for what a path may change (dicts, lists, sets, user classes and functions,
instances, scopes, modules) and shallow for what nothing changes (numbers, strings, tensors,
symbols, predicates, AST nodes, models and everything in the registry).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
from dataclasses import dataclass
from typing import Any

from pytea_ci.diagnostics import Span
from pytea_ci.diagnostics.budgets import copy_steps
from pytea_ci.interp.interpreter import Decision, Interpreter, Shared
from pytea_ci.interp.replica import (BY_VALUE, IMMUTABLE, INTERP, KEEP, Copying, Making, Replica, Unrecordable,
                                     emptied, fill_dict, fill_list, raw, record, replay, set_fields, set_holds,
                                     update_dict)
from pytea_ci.interp.runtime import Scope
from pytea_ci.models.registry import REGISTRY
from pytea_ci.models.values import Builtin, ClassVal, NamedTupleVal, Namespace, Unknown
from pytea_ci.shapes.dim import Term
from pytea_ci.shapes.pred import Pred
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.solver import Decider

# interpreter attributes that are not per-path state (its configuration and what it shares with other
# paths: interp/config.py), or handled apart (the trail is rebuilt from the recorded choices; steps
# start from zero)
_NOT_STATE = frozenset({"config", "shared", "trail", "steps", "charged", "budget_note", "path_id", "work_seen",
                        "discarded"})
_ID_SETS = ("inexact", "escaped", "unordered")  # sets of ids of objects of the state
_ID_KEYS = ("star_namespaces", "known_len", "rep_positions", "exact_prefix", "len_links", "index_maps", "rep_items")  # dicts keyed by ids of objects of the state
# a `Span` is frozen and holds a path and numbers: shared (a checkpoint of torchrl's import held 1,316, one per
# definition, each copied as an object)
_ATOMS = (type(None), bool, int, float, complex, str, bytes, Term, Tensor, Pred, Unknown, Namespace, Builtin,
          ast.AST, type, range, slice, Span)
MIN_STEPS = 500  # a prefix cheaper than this is simply re-run
# a recording costs about two copies and a load half of one (monai): worth it for a checkpoint restored often
RECORD_AT = 4
MAX_CHECKPOINTS = 8  # per entry point (one per sequence of choices made inside the prefix)


@dataclass
class Checkpoint:
    choices: tuple[bool, ...]
    state: dict[str, Any]  # the interpreter's per-path attributes, copied
    globals: dict[str, Any]  # the entry module's globals, copied together with the state
    objects: int = -1  # how many objects a copy of it makes (-1: not restored yet)
    restores: int = 0
    replica: Replica | None = None  # its copy recorded once it is restored often (replica.py)
    copier_only: bool = False  # a value of it cannot be recorded: restores use the copier


def run_prefix(interp: Interpreter, body: list[ast.stmt], g: dict[str, Any], name: str) -> tuple[dict[str, Any], int]:
    """Run the import prefix of `body` in `g`, or start from a copy of its checkpoint; return the
    globals to go on with and how many statements of `body` were run."""
    n = import_prefix(body)
    if n == 0:
        return g, 0
    key = (id(body), name)
    store = interp.shared.checkpoints.setdefault(key, [])
    cp = find(store, interp.config.forced)
    if cp is not None:
        return restore(interp, cp), n
    if interp.checkpoint_first and len(store) < MAX_CHECKPOINTS:
        return _run_shared(interp, body[:n], g, store), n
    steps = interp.steps
    interp.exec_block(body[:n], Scope(g, g))
    replays = interp.config.forced and key in interp.shared.chose_after_prefix
    if (replays or interp.checkpoint_first) and interp.steps - steps >= MIN_STEPS and len(store) < MAX_CHECKPOINTS:
        # taken by the first path that replays after a path chose past the prefix (the first path cannot
        # know whether another follows; when every choice so far was made inside the prefix, a later path
        # is one that flips one of them, and starts from no checkpoint of this path)
        store.append(take(interp, g))
    return g, n


def chose_after_prefix(interp: Interpreter, body: list[ast.stmt], name: str) -> None:
    """A path made a choice after the import prefix of `body`: a later path may flip it and start from
    a checkpoint of the prefix (`run_prefix`)."""
    interp.shared.chose_after_prefix.add((id(body), name))


def _run_shared(interp: Interpreter, prefix: list[ast.stmt], g: dict[str, Any], store: list[Checkpoint]) -> dict[str, Any]:
    """The prefix of a run whose checkpoint other runs will restore (`checkpoint_first`: a subclass whose
    runs of one file share their imports), run once for all of them: within the path's own step
    budget rather than its share of the entry's, and paid as shared work (`Shared.shared_steps`, which the
    run's budget is charged) rather than by this path, which goes on with the state and is charged a copy of
    it, as every run after it is charged the copy it restores. So what a run is charged for the imports never depends on which run came first (nor on
    the result cache), and a module whose share is smaller than its project's import still gets to run."""
    s0, c0, config = interp.steps, interp.charged, interp.config
    budget = dataclasses.replace(config.budget, entry_steps=interp.shared.pot(interp.command) + config.budget.steps)
    interp.config = dataclasses.replace(config, budget=budget)
    try:
        interp.exec_block(prefix, Scope(g, g))
    finally:
        interp.config = config
    if interp.steps - s0 < MIN_STEPS:
        return g
    ran = interp.steps
    store.append(take(interp, g))
    copied = interp.steps - ran  # what a restore of it costs (as many objects): this path goes on with the original
    interp.shared.shared_steps += ran - s0
    interp.steps, interp.charged = s0 + copied, c0 + copied
    return g


def import_prefix(body: list[ast.stmt]) -> int:
    """How many leading statements of a module form its import prefix: up to the last import
    before the first statement that runs the program (a loop, a `with`, `if __name__ == ...`)."""
    end = 0
    for i, stmt in enumerate(body):
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Match)) or _is_main(stmt):
            break
        if isinstance(stmt, (ast.Import, ast.ImportFrom)) or (
                isinstance(stmt, ast.Try) and any(isinstance(s, (ast.Import, ast.ImportFrom)) for s in stmt.body)):
            end = i + 1
    return end


def _is_main(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.If) and "__name__" in ast.unparse(stmt.test)


def matches(choices: tuple[bool, ...], forced: list[bool]) -> bool:
    """Whether a path with these forced choices makes `choices` inside the prefix: the forced ones
    agree, and past them the path takes the first side (True), as `Interpreter.choose` does."""
    return all(c == forced[i] if i < len(forced) else c for i, c in enumerate(choices))


def find(checkpoints: list[Checkpoint], forced: list[bool]) -> Checkpoint | None:
    return next((cp for cp in checkpoints if matches(cp.choices, forced)), None)


def take(interp: Interpreter, g: dict[str, Any]) -> Checkpoint:
    """Capture the state of `interp` (which has just run the prefix) and the entry's globals `g`."""
    live = {k: v for k, v in vars(interp).items() if k not in _NOT_STATE}
    state, globs = copy_state(live, g, interp)
    return Checkpoint(tuple(d.choice for d in interp.trail), state, globs)


def restore(interp: Interpreter, cp: Checkpoint) -> dict[str, Any]:
    """Give `interp` a fresh copy of `cp` (its trail made of the recorded choices); return the
    entry's globals to run the rest of the module in."""
    state, globs = _copy_checkpoint(cp, interp)
    for k, v in state.items():
        setattr(interp, k, v)
    n = len(interp.config.forced)
    interp.trail = [Decision(c, i >= n) for i, c in enumerate(cp.choices)]
    return globs


def _copy_checkpoint(cp: Checkpoint, interp: Interpreter) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh copy of `cp`'s state and globals: the first restores copy it object by object (the first
    counts them); the `RECORD_AT`th records that copy (replica.py) and it and every later one load the
    record. Each is charged the same steps, those of the copier's objects."""
    cp.restores += 1
    if cp.replica is None and cp.restores >= RECORD_AT and not cp.copier_only:
        try:
            cp.replica = _record(cp)
        except Unrecordable:
            cp.copier_only = True
    if cp.replica is None:
        memo = _Copier(interp)
        out = _copy_with(memo, cp.state, cp.globals, interp)
        cp.objects = len(memo.seen)
        return out
    state, globs = replay(cp.replica, interp)
    interp.charge_work(copy_steps(cp.objects))
    return state, globs


def _record(cp: Checkpoint) -> Replica:
    rest = {k: v for k, v in cp.state.items() if k not in _ID_SETS + _ID_KEYS}
    return record(rest, cp.globals, {k: cp.state[k] for k in _ID_SETS if k in cp.state},
                  {k: cp.state[k] for k in _ID_KEYS if k in cp.state}, _copying())


def copy_state(state: dict[str, Any], g: dict[str, Any], interp: Interpreter) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh copy of per-path attributes `state` and globals `g`, for `interp` (one copy per object)."""
    return _copy_with(_Copier(interp), state, g, interp)


def _copy_with(memo: _Copier, state: dict[str, Any], g: dict[str, Any],
               interp: Interpreter) -> tuple[dict[str, Any], dict[str, Any]]:
    out = {k: memo.copy(v) for k, v in state.items() if k not in _ID_SETS + _ID_KEYS}
    globs = memo.copy(g)
    for k in _ID_SETS:
        if k in state:
            out[k] = {id(memo.seen[i]) for i in state[k] if i in memo.seen}
    for k in _ID_KEYS:
        if k in state:
            out[k] = {id(memo.seen[i]): memo.copy(v) for i, v in state[k].items() if i in memo.seen}
    interp.charge_work(copy_steps(len(memo.seen)))  # the copy's cost, in steps: its objects (deterministic)
    return out, globs


_REGISTRY_IDS: dict[int, Any] = {}


def _registry_ids() -> dict[int, Any]:
    """Everything the registry holds is shared by all paths (and all entry points) already."""
    if len(_REGISTRY_IDS) != len(REGISTRY):
        _REGISTRY_IDS.clear()
        _REGISTRY_IDS.update((id(v), v) for v in REGISTRY.values())
    return _REGISTRY_IDS


def _frozen(cls: type) -> bool:
    return any(getattr(c.__dict__.get("__dataclass_params__"), "frozen", False) for c in cls.__mro__)


# how a value is copied, decided once per type (a copy visits every object of the state: hundreds of
# thousands once an installed package is imported, once per path that restores a checkpoint)
_ATOM, _HOLDER, _CLASS, _INTERP, _PASS, _DICT, _LIST, _IMMUTABLE, _DATACLASS, _OBJECT, _KEEP = range(11)
_KINDS: dict[type, tuple[int, tuple[str, ...], bool]] = {}  # type -> (kind, its dataclass fields, plain)
# what makes `copy.copy` do more than `cls.__new__(cls)` and a copy of the instance `__dict__`
_COPY_HOOKS = ("__copy__", "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__", "__slots__", "__getnewargs__",
               "__getnewargs_ex__")


def _kind_of(t: type) -> tuple[int, tuple[str, ...], bool]:
    found = _KINDS.get(t)
    if found is None:
        kind, fields = _classify(t)
        found = _KINDS[t] = (kind, fields, _plain(t, kind))
    return found


def _plain(t: type, kind: int) -> bool:
    """Whether `copy.copy` of a `t` is `t.__new__(t)` with the instance dict copied (or an empty builtin
    container): then the copier makes it so directly, not through `__reduce_ex__` (a third of a copy)."""
    if kind in (_DICT, _LIST):
        return t in (dict, list, set)
    return kind in (_CLASS, _DATACLASS, _OBJECT) and not any(
        h in c.__dict__ for c in t.__mro__ if c is not object for h in _COPY_HOOKS)


def _classify(t: type) -> tuple[int, tuple[str, ...]]:
    order = ((Unknown, _HOLDER), (_ATOMS, _ATOM), (ClassVal, _CLASS), (Interpreter, _INTERP), ((Shared, Decider), _PASS),
             (dict, _DICT), ((list, set), _LIST), ((tuple, frozenset), _IMMUTABLE))
    for types, kind in order:
        if issubclass(t, types):  # type: ignore[arg-type]
            return kind, _field_names(t) if kind == _CLASS else ()
    if dataclasses.is_dataclass(t) and not _frozen(t):
        return _DATACLASS, _field_names(t)
    if "__dict__" in dir(t) and not any("__call__" in c.__dict__ for c in t.__mro__):  # instances have a
        return _OBJECT, ()  # `__dict__` and are not callable
    return _KEEP, ()  # frozen dataclasses, slotted values, functions: immutable or not ours to copy


def _field_names(t: Any) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(t))


def _shallow(x: Any) -> Any:
    """`copy.copy(x)` of an instance whose class has no copy hooks (`_plain`), made directly."""
    t: Any = type(x)
    new = t.__new__(t)
    new.__dict__.update(x.__dict__)
    return new


class _Copier:
    """A deep copy that keeps identities (one copy per object) and shares what is immutable."""

    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp
        self.shared_ids = _registry_ids()
        self.seen: dict[int, Any] = {}

    def copy(self, x: Any) -> Any:
        kind, fields, plain = _KINDS.get(type(x)) or _kind_of(type(x))
        if kind == _ATOM:
            return x
        if kind == _HOLDER:
            return self._copy_holder(x) if x.holds else x
        i = id(x)
        if i in self.seen:
            return self.seen[i]
        if i in self.shared_ids or (kind == _CLASS and x.native):
            return x
        if kind == _INTERP:  # a value that holds the interpreter: this path's one
            return self.interp
        if kind == _PASS:
            return x
        return self._copy_new(x, i, kind, fields, plain)

    def _copy_new(self, x: Any, i: int, kind: int, fields: tuple[str, ...], plain: bool) -> Any:
        if kind == _DICT:
            new_d = {} if plain else copy.copy(x)
            self.seen[i] = new_d
            new_d.clear()
            for k, v in x.items():
                new_d[self.copy(k)] = self.copy(v)
            return new_d
        if kind == _LIST:
            new_c = type(x)() if plain else copy.copy(x)
            self.seen[i] = new_c
            new_c.clear()
            items = [self.copy(v) for v in x]
            new_c.extend(items) if isinstance(new_c, list) else new_c.update(items)
            return new_c
        if kind == _IMMUTABLE:
            return self._copy_immutable(x, i)
        if kind == _DATACLASS or kind == _CLASS:
            return self._copy_fields(x, i, fields, plain)
        if kind == _OBJECT:
            new_p = _shallow(x) if plain else copy.copy(x)
            self.seen[i] = new_p
            new_p.__dict__.update({k: self.copy(v) for k, v in vars(x).items()})
            return new_p
        return x

    def _copy_fields(self, x: Any, i: int, fields: tuple[str, ...], plain: bool) -> Any:
        new_obj = _shallow(x) if plain else copy.copy(x)
        self.seen[i] = new_obj
        for name in fields:
            object.__setattr__(new_obj, name, self.copy(getattr(x, name)))
        return new_obj

    def _copy_holder(self, x: Unknown) -> Unknown:
        """An Unknown that refers to objects of the state (interp/escape.py) refers to their copies."""
        i = id(x)
        if i not in self.seen:
            self.seen[i] = new = Unknown(x.reason, x.pytype, x.origin)
            new.holds = tuple(self.copy(h) for h in x.holds)
        return self.seen[i]

    def _copy_immutable(self, x: Any, i: int) -> Any:
        """A tuple is copied only when something inside it is (a tuple of lists, of instances)."""
        items = [self.copy(v) for v in x]
        if all(a is b for a, b in zip(items, x)):
            new: Any = x
        elif type(x) in (tuple, frozenset):
            new = type(x)(items)
        elif isinstance(x, NamedTupleVal):  # its class is an attribute, not a constructor argument
            new = NamedTupleVal.of(x.cls, items)
        elif hasattr(type(x), "_make"):
            new = type(x)._make(items)  # type: ignore[attr-defined]
        else:
            try:
                new = type(x)(items)
            except Exception:
                new = x
        self.seen[i] = new
        return new


def _share(x: Any, registry: dict[int, Any]) -> int:
    """What `_Copier.copy` does with `x` (replica.py records the same copy): gives it itself, the
    interpreter, a copy, or (a tuple) itself when nothing inside is copied."""
    kind, _, _ = _KINDS.get(type(x)) or _kind_of(type(x))
    if kind == _ATOM or kind == _PASS or kind == _KEEP or (kind == _HOLDER and not x.holds):
        return KEEP
    if kind == _INTERP:
        return INTERP
    if id(x) in registry or (kind == _CLASS and x.native):
        return KEEP
    return IMMUTABLE if kind == _IMMUTABLE else BY_VALUE


def _make(x: Any) -> Making | None:
    """How `_Copier._copy_new` makes the copy of `x`, as a reduction (None: a plain dict, list or set)."""
    kind, fields, plain = _KINDS.get(type(x)) or _kind_of(type(x))
    shallow = _shallow if plain else copy.copy
    if kind == _HOLDER:
        return Unknown, (x.reason, x.pytype, x.origin), tuple(x.holds), set_holds
    if kind == _DICT or kind == _LIST:
        if plain:
            return None
        return emptied, (raw(x),), list(x.items()) if kind == _DICT else list(x), fill_dict if kind == _DICT else fill_list
    if kind == _DATACLASS or kind == _CLASS:
        return shallow, (raw(x),), {name: getattr(x, name) for name in fields}, set_fields
    if kind == _OBJECT:
        return shallow, (raw(x),), dict(vars(x)), update_dict
    if kind == _IMMUTABLE and type(x) not in (tuple, frozenset):
        if isinstance(x, NamedTupleVal):
            return NamedTupleVal.of, (raw(x.cls), list(x)), None, None
        raise Unrecordable(type(x).__name__)  # made by `_make` or its constructor, perhaps failing: the copier
    return None


def _copying() -> Copying:
    registry = _registry_ids()  # once per recording (it is rebuilt when the registry grew)
    return Copying(lambda x: _share(x, registry), _make)
