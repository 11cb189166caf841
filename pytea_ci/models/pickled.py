"""Data files of the project a program loads as Python objects (issue 32): `pickle.load` of a file opened
for reading bytes, `np.load` of a `.npy`/`.npz` file and `torch.load` of a file no path of the run wrote —
the vocabulary, label map or preprocessed arrays a project's preprocessing script (or the user) left on disk
before the training script runs.

Such a file is read as data and never executed: the unpickler finds no class or function but the plain
containers (`set`, `frozenset`, `collections.OrderedDict`, read as the dict it holds), NumPy's array, dtype
and scalar reconstruction and torch's tensor rebuild, each replaced by a stand-in of our own that records what
it is given; any other global, and any persistent id but a torch storage, refuses the whole file, which then
stays a value read at run time (models/random_.py, models/saved.py). A NumPy or torch array is known by its
shape and dtype (its values are not), a NumPy scalar by its value, a 0-d object array (`np.save` of a dict)
by the object it holds (`.item()`); plain values are exact. A file larger than `fsio.BINARY_LIMIT`, or
holding more values than `files.EXACT_ITEMS` (an array is one value, whatever its size), is not read. `torch.load` reads NumPy arrays only with
`weights_only=False` (torch's default unpickler refuses them), `np.load` object arrays only with
`allow_pickle=True` (NumPy refuses them): what the library refuses is not claimed.

The name is found as `files.project_file` finds a text file: relative to the working directory, which is
not known, the file is used when the running file's folder and the project root agree on it.
"""

from __future__ import annotations

import ast
import io
import pickle
import struct
import zipfile
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.files import EXACT_ITEMS, WRITTEN, _File, small
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Instance, Unknown
from pytea_ci.shapes.tensor import Origin, Tensor

_READ = "read at run time by "
POS = "pickle.positions"  # ctx.facts key: id(file object) -> (file object, objects loaded from it so far)

_NUMPY_DTYPES = {"b1": "bool", "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64", "u1": "uint8",
                 "u2": "uint16", "u4": "uint32", "u8": "uint64", "f2": "float16", "f4": "float32",
                 "f8": "float64", "c8": "complex64", "c16": "complex128"}
_TORCH_STORAGES = {"Long": "int64", "Int": "int32", "Short": "int16", "Char": "int8", "Byte": "uint8",
                   "Bool": "bool", "Float": "float32", "Double": "float64", "Half": "float16",
                   "BFloat16": "bfloat16", "ComplexFloat": "complex64", "ComplexDouble": "complex128"}


class _Refused(Exception):
    """The file holds something this reader does not stand in for."""


class _DType:
    def __init__(self, code: Any, align: Any = False, copy: Any = False) -> None:
        self.code = code if isinstance(code, str) else ""

    def __setstate__(self, state: Any) -> None:
        self.order = state[1] if isinstance(state, tuple) and len(state) > 1 else "="


class _Array:
    """What NumPy's `_reconstruct` + `__setstate__` would make: its shape, dtype and (object arrays) items."""

    def __init__(self, shape: tuple[int, ...] = (), dtype: str | None = None, items: list[Any] | None = None) -> None:
        self.shape, self.dtype, self.items = shape, dtype, items

    def __setstate__(self, state: Any) -> None:
        if not isinstance(state, tuple) or len(state) not in (4, 5):
            raise _Refused("array state")
        shape, dtype, _fortran, data = state[-4:]
        if not isinstance(dtype, _DType) or not all(isinstance(n, int) and n >= 0 for n in shape):
            raise _Refused("array state")
        self.shape, self.dtype = tuple(shape), dtype.code
        self.items = data if isinstance(data, list) else None


class _Torch:
    def __init__(self, shape: tuple[int, ...], dtype: str | None, location: Any) -> None:
        self.shape, self.dtype, self.location = shape, dtype, location


class _StorageType:
    def __init__(self, dtype: str) -> None:
        self.dtype = dtype


class _Storage:
    def __init__(self, dtype: str, location: Any) -> None:
        self.dtype, self.location = dtype, location


def _reconstruct(cls: Any, shape: Any, code: Any) -> _Array:
    if cls is not _Array:
        raise _Refused("_reconstruct of another class")
    return _Array()


def _scalar(dtype: Any, data: Any = None) -> Any:
    """A NumPy scalar's value, decoded from its bytes as NumPy stores it."""
    if not isinstance(dtype, _DType) or not isinstance(data, bytes):
        raise _Refused("scalar")
    kind, size = dtype.code[:1], dtype.code[1:]
    order = ">" if getattr(dtype, "order", "<") == ">" else "<"
    if kind in "iu" and size.isdigit() and len(data) == int(size):
        return int.from_bytes(data, "big" if order == ">" else "little", signed=kind == "i")
    if kind == "f" and size in ("4", "8") and len(data) == int(size):
        return struct.unpack(order + ("f" if size == "4" else "d"), data)[0]
    if kind == "b" and len(data) == 1:
        return data != b"\0"
    raise _Refused("scalar")


def _rebuild_tensor(storage: Any, offset: Any, size: Any, *rest: Any) -> _Torch:
    if not isinstance(storage, _Storage) or not all(isinstance(n, int) and n >= 0 for n in size):
        raise _Refused("tensor")
    return _Torch(tuple(size), storage.dtype, storage.location)


def _rebuild_parameter(data: Any, *rest: Any) -> Any:
    if not isinstance(data, _Torch):
        raise _Refused("parameter")
    return data


_PLAIN: dict[tuple[str, str], Any] = {("builtins", "set"): set, ("builtins", "frozenset"): frozenset, ("collections", "OrderedDict"): dict}
_NUMPY: dict[tuple[str, str], Any] = {(mod, name): f for mod in ("numpy.core.multiarray", "numpy._core.multiarray")
          for name, f in (("_reconstruct", _reconstruct), ("scalar", _scalar))}
_NUMPY.update({("numpy", "ndarray"): _Array, ("numpy", "dtype"): _DType})
_TORCH: dict[tuple[str, str], Any] = {("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor,
                                      ("torch._utils", "_rebuild_parameter"): _rebuild_parameter}
_TORCH.update({("torch", f"{k}Storage"): _StorageType(v) for k, v in _TORCH_STORAGES.items()})


class _Reader(pickle.Unpickler):
    def __init__(self, stream: io.BytesIO, globals_: dict[tuple[str, str], Any], storages: bool) -> None:
        super().__init__(stream)
        self.table, self.storages = globals_, storages

    def find_class(self, module: str, name: str) -> Any:
        found = self.table.get((module, name))
        if found is None:
            raise _Refused(f"{module}.{name}")
        return found

    def persistent_load(self, pid: Any) -> Any:
        if self.storages and isinstance(pid, tuple) and len(pid) >= 4 and pid[0] == "storage" \
                and isinstance(pid[1], _StorageType):
            return _Storage(pid[1].dtype, pid[3])
        raise _Refused("persistent id")


def _unpickle_all(data: bytes, globals_: dict[tuple[str, str], Any], storages: bool = False) -> list[Any] | None:
    """Every object pickled one after another in `data` (as successive `pickle.load` calls read them)."""
    out: list[Any] = []
    stream = io.BytesIO(data)
    try:
        while stream.tell() < len(data):
            out.append(_Reader(stream, globals_, storages).load())
    except (_Refused, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, IndexError,
            KeyError, RecursionError, struct.error, MemoryError, UnicodeDecodeError):
        return None
    return out


def _parts(v: Any) -> list[Any]:
    """The values an unpickled object holds (`files.small` counts them): a dict's keys and values, a
    sequence's or set's items, an array's items when it keeps them."""
    if isinstance(v, dict):
        return [*v.keys(), *v.values()]
    if isinstance(v, (list, tuple, set, frozenset)):
        return list(v)
    return list(v.items) if isinstance(v, _Array) and v.items is not None else []


def _value(ctx: Ctx, obj: Any, what: str, torch_device: bool) -> Any:
    """The analyzer's value for an unpickled object; raises _Refused for one it does not stand for."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, list):
        return [_value(ctx, v, what, torch_device) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_value(ctx, v, what, torch_device) for v in obj)
    if isinstance(obj, dict):
        return {_key(k): _value(ctx, v, what, torch_device) for k, v in obj.items()}
    if isinstance(obj, (set, frozenset)):
        return type(obj)(_key(v) for v in obj)
    if isinstance(obj, _Array):
        return _array(ctx, obj, what, torch_device)
    if isinstance(obj, _Torch):
        device = "cpu" if torch_device and obj.location == "cpu" else None
        return Tensor(tuple(obj.shape), obj.dtype, "torch", origin=Origin(ctx.span, what), device=device)
    raise _Refused(type(obj).__name__)


def _key(k: Any) -> Any:
    if k is None or isinstance(k, (bool, int, float, str)) or (isinstance(k, tuple) and all(
            v is None or isinstance(v, (bool, int, float, str)) for v in k)):
        return k
    raise _Refused("key")


def _array(ctx: Ctx, arr: _Array, what: str, torch_device: bool) -> Any:
    code = arr.dtype.lstrip("<>|=") if arr.dtype else ""
    if code in _NUMPY_DTYPES:
        return Tensor(tuple(arr.shape), _NUMPY_DTYPES[code], "numpy", origin=Origin(ctx.span, what), device=None)
    if code.startswith("O") and arr.shape == () and arr.items is not None and len(arr.items) == 1:
        return object_array(_value(ctx, arr.items[0], what, torch_device))
    raise _Refused("array")


def _item(ctx: Ctx, self: Any, *args: Any) -> Any:
    if args and args != ((),):
        return Unknown("an item of an object array", None, Origin(ctx.span, "an item of an object array"))
    return self.attrs["_held"]


_ObjectArray = native_class("numpy.ObjectArray0d")(type("ObjectArray", (), {
    "item": _item, "__getitem__": _item, "tolist": _item}))


def object_array(item: Any) -> Instance:
    """A 0-d NumPy object array holding `item` (what `np.save` of a dict writes)."""
    return Instance(_ObjectArray, {"_held": item})


def is_object_array(value: Any) -> bool:
    return isinstance(value, Instance) and value.cls is _ObjectArray


def _npz_get(ctx: Ctx, self: Any, key: Any = None, *args: Any) -> Any:
    arrays = self.attrs["_arrays"]
    if isinstance(key, str) and key in arrays:
        return arrays[key]
    what = f"{self.attrs['_what']}[{key!r}]"
    return Unknown(what, None, Origin(ctx.span, what))


def _npz_keys(ctx: Ctx, self: Any, *args: Any) -> Any:
    return list(self.attrs["_arrays"])


def _npz_has(ctx: Ctx, self: Any, key: Any = None) -> Any:
    return key in self.attrs["_arrays"] if isinstance(key, str) else Unknown("bool", "bool")


def _same(ctx: Ctx, self: Any, *args: Any) -> Any:
    return self


def _none(ctx: Ctx, self: Any, *args: Any) -> Any:
    return None


_NpzFile = native_class("numpy.lib.npyio.NpzFile")(type("NpzFile", (), {
    "__getitem__": _npz_get, "get": _npz_get, "keys": _npz_keys, "__iter__": _npz_keys, "__contains__": _npz_has,
    "__enter__": _same, "__exit__": _none, "close": _none}))


def project_bytes(ctx: Ctx, name: Any) -> bytes | None:
    """The bytes of the project file a working-directory-relative `name` names (as files.project_file)."""
    if not isinstance(name, str) or name in ctx.facts.get(WRITTEN, ()):
        return None
    found = {d for d in (ctx.project_data(name), ctx.project_data(name, ctx.root)) if d is not None}
    return found.pop() if len(found) == 1 else None


def _read_one(ctx: Ctx, objs: list[Any] | None, what: str, torch_device: bool = False) -> Any:
    if objs is None or len(objs) != 1 or not small(objs[0], EXACT_ITEMS, _parts):
        return None
    try:
        return _value(ctx, objs[0], what, torch_device)
    except _Refused:
        return None


def _npy(data: bytes, allow_pickle: bool) -> Any:
    """The array a `.npy` file holds (header parsed as NumPy's format says), or None."""
    if not data.startswith(b"\x93NUMPY") or len(data) < 10:
        return None
    major = data[6]
    width = 2 if major == 1 else 4
    size = int.from_bytes(data[8:8 + width], "little")
    try:
        header = ast.literal_eval(data[8 + width:8 + width + size].decode("latin1"))
    except (ValueError, SyntaxError, UnicodeDecodeError):
        return None
    if not isinstance(header, dict) or not isinstance(header.get("descr"), str) \
            or not isinstance(header.get("shape"), tuple):
        return None
    descr, shape = header["descr"], header["shape"]
    if descr.lstrip("<>|=").startswith("O"):
        if not allow_pickle:
            return None
        objs = _unpickle_all(data[8 + width + size:], {**_PLAIN, **_NUMPY})
        return objs[0] if objs and len(objs) == 1 and isinstance(objs[0], _Array) else None
    return _Array(tuple(shape), descr) if all(isinstance(n, int) and n >= 0 for n in shape) else None


def np_file(ctx: Ctx, file: Any, allow_pickle: Any) -> Any:
    """What `np.load(file)` gives for a project file no path of the run wrote, or None when not read."""
    data = project_bytes(ctx, file)
    if data is None:
        return None
    what = f"np.load({file!r})"
    if data.startswith(b"PK\x03\x04"):
        arrays: dict[str, Any] = {}
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                for name in z.namelist():
                    got = _read_one(ctx, [_npy(z.read(name), allow_pickle is True)], what)
                    if got is None or not name.endswith(".npy"):
                        return None
                    arrays[name[:-4]] = got
        except (zipfile.BadZipFile, OSError, KeyError):
            return None
        return Instance(_NpzFile, {"_arrays": arrays, "files": list(arrays), "_what": what})
    if data.startswith(b"\x93NUMPY"):
        return _read_one(ctx, [_npy(data, allow_pickle is True)], what)
    if allow_pickle is True:  # NumPy unpickles anything else, when allowed to
        return _read_one(ctx, _unpickle_all(data, {**_PLAIN, **_NUMPY}), what)
    return None


def torch_file(ctx: Ctx, f: Any, weights_only: Any, moved: bool) -> Any:
    """What `torch.load(f)` gives for a project file (torch's zip format) no path of the run wrote, or None."""
    data = project_bytes(ctx, f)
    if data is None or not data.startswith(b"PK\x03\x04"):
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            pkl = [n for n in z.namelist() if n.endswith("/data.pkl") and n.count("/") == 1]
            if len(pkl) != 1:
                return None
            body = z.read(pkl[0])
    except (zipfile.BadZipFile, OSError, KeyError):
        return None
    table = {**_PLAIN, **_TORCH, **(_NUMPY if weights_only is False else {})}
    return _read_one(ctx, _unpickle_all(body, table, storages=True), f"torch.load({f!r})", not moved)


@model("pickle.load")
def pickle_load(ctx: Ctx, file: Any = None, *args: Any, **kwargs: Any) -> Any:
    """The next object pickled in a project file opened for reading bytes; else a value read at run time."""
    got = None
    if isinstance(file, Instance) and file.cls is _File and not args and not kwargs:
        mode = file.attrs.get("mode")
        data = project_bytes(ctx, file.attrs.get("name")) if isinstance(mode, str) and "b" in mode \
            and "r" in mode and not any(c in mode for c in "wax+") else None
        if data is not None:
            table = dict(ctx.facts.get(POS) or {})
            n = table.get(id(file), (file, 0))[1]
            objs = _unpickle_all(data, {**_PLAIN, **_NUMPY})
            if objs is not None and n < len(objs):
                got = _read_one(ctx, [objs[n]], f"pickle.load(open({file.attrs.get('name')!r}))")
            table[id(file)] = (file, n + 1)
            ctx.facts[POS] = table
    if got is not None:
        return got
    return Unknown(_READ + "pickle.load", None, Origin(ctx.span, _READ + "pickle.load"))
