"""Files the program writes and reads back in the same run (issue 20, item 1): `np.save`/`np.load`
and `torch.save`/`torch.load`, and the paths naming them (`os.path.join`).

A path is known by its *key*: the segments of a string (`'data/x.npy'`), or of `os.path.join` of
parts some of which are values not understood (`os.path.join(d, 'x.npy')` with `d` from
`tempfile.mkdtemp()`): those parts are the very objects the program holds, so the same variable
joined with the same names gives the same key, and a different one never does. A save to a known
key records the value saved (per path, `ctx.facts`); a load of a recorded key gives that value back
(a numpy array keeps its shape, dtype and value range; `torch.load` gets a copy of the containers
saved). A save whose path has no key may have written any file: every record is dropped.

A load of a file the run did not write that the project holds is read as data (models/pickled.py: a
preprocessing's arrays, tensors and vocabularies left on disk). Else, at a path known as a whole, it gets what the project's other
scripts save there (`Ctx.written_elsewhere`, interp/project_writes.py: a `prepro.py` writing what
`train.py` reads): their paths' values joined — containers of the same form, a tensor's rank, dtype and
every size all of them agree on; a size they do not agree on, or that was not a number, is a new symbol
(one per tuple of their sizes, so sizes equal in every writer stay equal: `X` and `Y` saved with the
same `n` rows keep one row count). Anything else is unknown, named after its path (`read at run time
by torch.load('feat.pt')`), so the coverage figures say which file to look at.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.pickled import is_object_array, np_file, object_array, torch_file
from pytea_ci.models.random_ import _READ
from pytea_ci.models.registry import model
from pytea_ci.models.values import Unknown
from pytea_ci.shapes.dim import UNKNOWN, Sym
from pytea_ci.shapes.tensor import Origin, Tensor

SAVED = "saved files"  # ctx.facts key: path key -> (library, value)


class PathStr(Unknown):
    """A path string not known as a whole: `key` names it (see the module docstring)."""

    __slots__ = ("key",)

    def __init__(self, key: tuple[Any, ...], origin: Origin) -> None:
        super().__init__("string", "str", origin)
        self.key = key


def path_key(path: Any) -> tuple[Any, ...] | None:
    """The key of a path value, or None when the path is not known well enough to name a file."""
    if isinstance(path, str):
        return tuple(s for s in os.path.normpath(path).split(os.sep) if s not in ("", "."))
    if isinstance(path, PathStr):
        return path.key
    return None


def _segments(part: Any) -> tuple[Any, ...]:
    key = path_key(part)
    if key is not None:
        return key
    return (part,)  # a value not understood: the object itself (same object, same part)


@model("os.path.join")
def join(ctx: Ctx, first: Any = None, *rest: Any) -> Any:
    parts = (first, *rest)
    if all(isinstance(p, str) for p in parts):
        return os.path.join(*parts)
    if not all(isinstance(p, (str, Unknown)) for p in parts) or any(isinstance(p, str) and p.startswith("/")
                                                                    for p in rest):
        return Unknown("string", pytype="str")
    origin = next((p.origin for p in parts if isinstance(p, Unknown) and p.origin is not None),
                  Origin(ctx.span, "os.path.join of a path not known"))
    return PathStr(tuple(s for p in parts for s in _segments(p)), origin)


def _with_suffix(key: tuple[Any, ...] | None, suffix: str) -> tuple[Any, ...] | None:
    """`np.save` adds `.npy` to a name that lacks it; None when the last segment is not known."""
    if not key or not isinstance(key[-1], str):
        return None
    return key if key[-1].endswith(suffix) else (*key[:-1], key[-1] + suffix)


def _record(ctx: Ctx, key: tuple[Any, ...] | None, lib: str, value: Any) -> None:
    table = dict(ctx.facts.get(SAVED) or {})
    if key is None:
        table = {None: None}  # a file not known was written: it may be any of those recorded, or another
    else:
        table[key] = (lib, value)
    ctx.facts[SAVED] = table


def _may_be_written(ctx: Ctx, key: tuple[Any, ...] | None) -> bool:
    """Whether a file the run wrote may be the one at `key` though the keys differ: a path not known,
    or a name part not known on either side (`os.path.join(os.environ['OUT'], 'x.pt')` read twice
    gives two values the same at run time); keys whose known last names differ name different files."""
    for other in ctx.facts.get(SAVED) or {}:
        if other is None or key is None or not key or not other:
            return True
        if not (isinstance(key[-1], str) and isinstance(other[-1], str) and key[-1] != other[-1]) \
                and any(not isinstance(p, str) for p in (*key, *other)):
            return True
    return False


def _recorded(ctx: Ctx, key: tuple[Any, ...] | None) -> tuple[str, Any] | None:
    return (ctx.facts.get(SAVED) or {}).get(key) if key is not None else None


def _name(path: Any) -> str:
    return repr(path) if isinstance(path, str) else "a path not known"


def _unread(ctx: Ctx, call: str, path: Any, lib: str) -> Any:
    """The content of a file the run did not write: what the project's other scripts save there, else
    unknown, named after the path (data read at run time); of a file it may have written, only unknown
    (not an input of the run)."""
    key = path_key(path)
    if _may_be_written(ctx, key):
        what = f"{call}({_name(path)}) of a file the run may have written"
        return Unknown(what, None, Origin(ctx.span, what))
    if key and all(isinstance(p, str) for p in key):
        records = ctx.written_elsewhere(key)
        if records and all(r[0] == lib for r in records):
            joined = _Join(ctx, f"{call}({_name(path)}) of a file another script of the project saves")
            got = joined.values([r[1] for r in records])
            if got is not _Join.NOT_ONE:
                return got
    what = f"{_READ}{call}({_name(path)})"
    return Unknown(what, None, Origin(ctx.span, what))


class _Join:
    """The value every one of several saved values is an instance of (see the module docstring)."""

    NOT_ONE = object()  # no value stands for all of them

    def __init__(self, ctx: Ctx, what: str) -> None:
        self.ctx, self.what = ctx, what
        self.sizes: dict[tuple[Any, ...], Any] = {}

    def values(self, vals: list[Any]) -> Any:
        first = vals[0]
        if first is None or any(type(v) is not type(first) for v in vals):
            return self.NOT_ONE
        if isinstance(first, Tensor):
            return self._tensor(vals)
        if isinstance(first, (tuple, list)):
            if any(len(v) != len(first) for v in vals):
                return self.NOT_ONE
            return type(first)(self._item([v[i] for v in vals]) for i in range(len(first)))
        if isinstance(first, dict):
            if any(list(v) != list(first) for v in vals) or not all(isinstance(k, (str, int)) for k in first):
                return self.NOT_ONE
            return {k: self._item([v[k] for v in vals]) for k in first}
        if isinstance(first, (bool, int, float, str)) and all(v == first for v in vals):
            return first
        return self.NOT_ONE

    def _item(self, vals: list[Any]) -> Any:
        """An item of a container: the value standing for all of `vals`, else a value not known."""
        got = self.values(vals)
        return Unknown(self.what, None, Origin(self.ctx.span, self.what)) if got is self.NOT_ONE else got

    def _tensor(self, vals: list[Tensor]) -> Any:
        first = vals[0]
        if first.shape is None or any(v.shape is None or len(v.shape) != len(first.shape) or v.lib != first.lib
                                      for v in vals):
            return self.NOT_ONE
        shape = tuple(self._size(tuple(v.shape[i] for v in vals)) for i in range(len(first.shape)))  # type: ignore[index]
        dtype = first.dtype if all(v.dtype == first.dtype for v in vals) else None
        return Tensor(shape, dtype, lib=first.lib, origin=Origin(self.ctx.span, self.what), device=None)

    def _size(self, sizes: tuple[Any, ...]) -> Any:
        if all(isinstance(d, int) for d in sizes) and len(set(sizes)) == 1:
            return sizes[0]
        if sizes not in self.sizes:
            syms = [d for d in sizes if isinstance(d, Sym)]
            kind = syms[0].kind if len(syms) == len(sizes) and all(d.kind == syms[0].kind for d in syms) else UNKNOWN
            lows = [d.lo if isinstance(d, Sym) else d if isinstance(d, int) else None for d in sizes]
            lo = min(x for x in lows if x is not None) if all(x is not None for x in lows) else 0
            self.sizes[sizes] = self.ctx.fresh("saved", kind=kind, lo=max(0, lo), note=f"a size of {self.what}")
        return self.sizes[sizes]


def _copy(value: Any, moved: bool = False) -> Any:
    """What loading gives back: new containers holding the values saved; a tensor keeps its shape,
    dtype and value range (its layout is not followed; `moved`: a `map_location` says where it goes)."""
    if isinstance(value, dict):
        return {k: _copy(v, moved) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v, moved) for v in value]
    if isinstance(value, tuple):
        return tuple(_copy(v, moved) for v in value)
    if isinstance(value, Tensor):
        return dataclasses.replace(value, strides=None, **({"device": None, "device_from": None} if moved else {}))
    return value


@model("numpy.save")
def np_save(ctx: Ctx, file: Any = None, arr: Any = None, *args: Any, **kwargs: Any) -> Any:
    arr = kwargs.get("arr", arr)
    key = _with_suffix(path_key(file), ".npy") if isinstance(file, (str, PathStr)) else None
    if isinstance(arr, Tensor):
        _record(ctx, key, "numpy", dataclasses.replace(arr, lib="numpy", strides=None, device=None,
                                                        device_from=None))
    elif isinstance(arr, dict):  # a 0-d object array holding a copy of the dict (`np.load(...).item()`)
        _record(ctx, key, "numpy", object_array(_copy(arr)))
    else:
        _record(ctx, key, "numpy", None)  # saved, content not known (a list of ints is an array too)
    return None


@model("numpy.load")
def np_load(ctx: Ctx, file: Any = None, *args: Any, **kwargs: Any) -> Any:
    got = _recorded(ctx, path_key(file))
    if got is not None and got[0] == "numpy" and got[1] is not None:
        if is_object_array(got[1]):  # NumPy refuses an object array without allow_pickle=True
            return object_array(_copy(got[1].attrs["_held"])) if kwargs.get("allow_pickle") is True else \
                _unread(ctx, "numpy.load", file, "numpy")
        return got[1]
    if not _may_be_written(ctx, path_key(file)) and (read := np_file(ctx, file, kwargs.get("allow_pickle"))) is not None:
        return read  # a data file of the project (models/pickled.py)
    return _unread(ctx, "numpy.load", file, "numpy")


@model("torch.save")
def torch_save(ctx: Ctx, obj: Any = None, f: Any = None, *args: Any, **kwargs: Any) -> Any:
    _record(ctx, path_key(f) if isinstance(f, (str, PathStr)) else None, "torch", _copy(obj))
    return None


@model("torch.load")
def torch_load(ctx: Ctx, f: Any = None, *args: Any, **kwargs: Any) -> Any:
    got = _recorded(ctx, path_key(f))
    moved = kwargs.get("map_location", args[0] if args else None) is not None
    if got is not None and got[0] == "torch":
        return _copy(got[1], moved)
    if not _may_be_written(ctx, path_key(f)) and \
            (read := torch_file(ctx, f, kwargs.get("weights_only", True), moved)) is not None:
        return read  # a data file of the project (models/pickled.py)
    return _unread(ctx, "torch.load", f, "torch")
