"""Files the program writes and reads back in the same run (issue 20, item 1): `np.save`/`np.load`
and `torch.save`/`torch.load`, and the paths naming them (`os.path.join`).

A path is known by its *key*: the segments of a string (`'data/x.npy'`), or of `os.path.join` of
parts some of which are values not understood (`os.path.join(d, 'x.npy')` with `d` from
`tempfile.mkdtemp()`): those parts are the very objects the program holds, so the same variable
joined with the same names gives the same key, and a different one never does. A save to a known
key records the value saved (per path, `ctx.facts`); a load of a recorded key gives that value back
(a numpy array keeps its shape, dtype and value range; `torch.load` gets a copy of the containers
saved). A save whose path has no key may have written any file: every record is dropped. A load of
a file the run did not write is unknown, named after its path (`read at run time by
torch.load('feat.pt')`), so the coverage figures say which file to look at.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.random_ import _READ
from pytea_ci.models.registry import model
from pytea_ci.models.values import Unknown
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


def _unread(ctx: Ctx, call: str, path: Any) -> Unknown:
    """The content of a file the run did not write: unknown, named after the path (data read at run
    time); of a file it may have written, only unknown (not an input of the run)."""
    if _may_be_written(ctx, path_key(path)):
        what = f"{call}({_name(path)}) of a file the run may have written"
        return Unknown(what, None, Origin(ctx.span, what))
    what = f"{_READ}{call}({_name(path)})"
    return Unknown(what, None, Origin(ctx.span, what))


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
    else:
        _record(ctx, key, "numpy", None)  # saved, content not known (a list of ints is an array too)
    return None


@model("numpy.load")
def np_load(ctx: Ctx, file: Any = None, *args: Any, **kwargs: Any) -> Any:
    got = _recorded(ctx, path_key(file))
    if got is not None and got[0] == "numpy" and got[1] is not None:
        return got[1]
    return _unread(ctx, "numpy.load", file)


@model("torch.save")
def torch_save(ctx: Ctx, obj: Any = None, f: Any = None, *args: Any, **kwargs: Any) -> Any:
    _record(ctx, path_key(f) if isinstance(f, (str, PathStr)) else None, "torch", _copy(obj))
    return None


@model("torch.load")
def torch_load(ctx: Ctx, f: Any = None, *args: Any, **kwargs: Any) -> Any:
    got = _recorded(ctx, path_key(f))
    if got is not None and got[0] == "torch":
        return _copy(got[1], kwargs.get("map_location", args[0] if args else None) is not None)
    return _unread(ctx, "torch.load", f)
