"""Restores of a checkpoint restored often, made by unpickling (issue 31 item 9).

A checkpoint (`snapshot.py`) is restored once per path that starts from it: when its runs share their
imports (`checkpoint_first`), every run of a file restores the state of the
file's imports (a whole package's modules, classes and functions: hundreds of thousands of objects).
`snapshot._Copier` makes each copy in Python, object by object. A checkpoint never changes once taken,
so the copier's walk is the same every time: this module records it once as a pickle stream and later
restores load it (the C unpickler). A recording costs about two copies and a load
about half of one (measured on a big project), so `snapshot.RECORD_AT` says after how many restores it is made.
The copy is the copier's:

- what the copier shares (atoms, the registry, native classes, frozen or callable values, the solver,
  the shared state) is a persistent id, loaded as the same object; the interpreter is the restoring one;
- a tuple that holds nothing the copier copies is that same tuple (the copier keeps it);
- an instance, a program class, a dataclass or a container subclass is made as the copier makes it
  (a shallow copy of the checkpoint's object, emptied or with its copied fields set over it), so what
  the copier shares of it stays shared;
- an `Unknown` that holds objects of the state holds their copies.

The copy's cost in steps is the copier's (its objects, counted by the first restore), so what a path is
charged, and everything after, does not depend on which way it was copied. A value the recording does
not know how to make as the copier does makes that checkpoint keep the copier (`Unrecordable`).
"""

from __future__ import annotations

import copy
import io
import pickle
from dataclasses import dataclass, field
from typing import Any, Callable

_INTERP = -1  # the persistent id of the restoring interpreter


class Unrecordable(Exception):
    """A value whose copy the recording cannot make as the copier does: keep the copier."""


@dataclass
class Replica:
    """A checkpoint's copy as a pickle stream: its state and globals, then the objects of its id sets
    and id-keyed dicts (so their copies are known by the restore), with what the copies share."""

    data: bytes
    kept: list[Any] = field(default_factory=list)  # persistent ids -> the objects shared


# what the copier does with a value (`Copying.share`)
BY_VALUE, KEEP, INTERP, IMMUTABLE = range(4)
Making = tuple[Callable[..., Any], tuple[Any, ...], Any, Any]  # a reduction: made by, from, then set with


@dataclass(frozen=True)
class Copying:
    """How the copier treats values (`snapshot.py` passes its decisions): `share(x)` says whether it gives
    `x` itself (KEEP), the restoring interpreter (INTERP), a copy (BY_VALUE) or, for a tuple, `x` itself
    when nothing inside is copied (IMMUTABLE); `make(x)` how it makes the copy of a value that is not a
    plain container (None: as pickle does for a dict, list, set or tuple)."""

    share: Callable[[Any], int]
    make: Callable[[Any], Making | None]


class _Raw:
    """The checkpoint's own object, referred to by a made copy (not copied: persisted)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj


class _Recorder(pickle.Pickler):
    def __init__(self, out: io.BytesIO, how: Copying) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self.how = how
        self.kept: list[Any] = []
        self.kept_ids: dict[int, int] = {}
        self.pure: dict[int, Any] = {}  # tuples the copier keeps (id -> tuple): shared, yet copied objects
        self._purity: dict[int, bool] = {}

    def persistent_id(self, x: Any) -> Any:
        t = type(x)
        if t is str or t is int or t is float or t is bool or x is None:
            return None
        if t is _Raw:
            return self._keep(x.obj)
        share = self.how.share(x)
        if share == KEEP:
            return self._keep(x)
        if share == INTERP:
            return _INTERP
        if share == IMMUTABLE and self.is_pure(x):
            self.pure[id(x)] = x
            return self._keep(x)
        return None

    def _keep(self, x: Any) -> int:
        i = self.kept_ids.get(id(x))
        if i is None:
            i = self.kept_ids[id(x)] = len(self.kept)
            self.kept.append(x)
        return i

    def is_pure(self, x: Any) -> bool:
        """Whether the copier keeps tuple `x` as it is: nothing inside it is copied (the interpreter is
        taken as copied: a restore is for another path's interpreter)."""
        i = id(x)
        known = self._purity.get(i)
        if known is None:
            self._purity[i] = False  # a tuple cannot hold itself; guard anyway
            known = self._purity[i] = all(self._kept(v) for v in x)
        return known

    def _kept(self, v: Any) -> bool:
        if type(v) is _Raw:  # a reduction's argument: the tuple holding it is made, not kept
            return False
        share = self.how.share(v)
        return share == KEEP or (share == IMMUTABLE and self.is_pure(v))

    def reducer_override(self, x: Any) -> Any:
        made = self.how.make(x)
        if made is None:
            return NotImplemented
        fn, args, state, setter = made
        return fn, args, state, None, None, setter


class _Loader(pickle.Unpickler):
    def __init__(self, data: bytes, kept: list[Any], interp: Any) -> None:
        super().__init__(io.BytesIO(data))
        self.kept, self.interp = kept, interp

    def persistent_load(self, pid: Any) -> Any:
        return self.interp if pid == _INTERP else self.kept[pid]


def record(state: dict[str, Any], g: dict[str, Any], id_sets: dict[str, Any], id_keys: dict[str, Any],
           how: Copying) -> Replica:
    """Record the copy of a checkpoint: `state` (without its id sets and id-keyed dicts) and globals `g`,
    then the objects the id sets and keys refer to that the copy reaches, with the id-keyed values."""
    out = io.BytesIO()
    rec = _Recorder(out, how)
    try:
        rec.dump((state, g))
        memo = {i: obj for i, (_, obj) in rec.memo.copy().items()}
        memo.update(rec.pure)
        rec.dump(({k: [memo[i] for i in ids if i in memo] for k, ids in id_sets.items()},
                  {k: [(memo[i], v) for i, v in d.items() if i in memo] for k, d in id_keys.items()}))
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError) as e:
        raise Unrecordable(str(e)) from e
    return Replica(out.getvalue(), rec.kept)


def replay(rep: Replica, interp: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh copy of the recorded checkpoint, for `interp`: its state (id sets and id-keyed dicts by
    the ids of their copies) and its globals."""
    loader = _Loader(rep.data, rep.kept, interp)
    state, g = loader.load()
    sets, keys = loader.load()
    out = dict(state)
    for k, objs in sets.items():
        out[k] = {id(o) for o in objs}
    for k, pairs in keys.items():
        out[k] = {id(o): v for o, v in pairs}
    return out, g


# how the copier makes what is not a plain container (`snapshot._Copier`), as reductions
def raw(x: Any) -> _Raw:
    return _Raw(x)


def emptied(x: Any) -> Any:
    """`copy.copy` of a container subclass, emptied (the copier then fills it with copies)."""
    new = copy.copy(x)
    new.clear()
    return new


def fill_dict(new: Any, items: list[tuple[Any, Any]]) -> None:
    for k, v in items:
        new[k] = v


def fill_list(new: Any, items: list[Any]) -> None:
    new.extend(items) if isinstance(new, list) else new.update(items)


def set_fields(new: Any, fields: dict[str, Any]) -> None:
    for name, v in fields.items():
        object.__setattr__(new, name, v)


def update_dict(new: Any, attrs: dict[str, Any]) -> None:
    new.__dict__.update(attrs)


def set_holds(new: Any, holds: tuple[Any, ...]) -> None:
    new.holds = holds
