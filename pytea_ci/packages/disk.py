"""Pay once across processes (issue 21, item 2): what a package import left, kept on disk.

`kept.py` keeps what an installed package's import left in the process; this module writes
the same record to the cache folder (`packages/<2 hex>/<key>.pkl`), so other processes, runs and CI
jobs (the Action restores the cache folder with `actions/cache`) start from it too.

Key: the in-process key (the module imported, the site with the followed packages' versions and
`RECORD` hashes, the package budget, the recursion, unroll and loop budgets, the names of the
modules already loaded), the analyzer's version and source hash, the Python version and this
format. An entry also lists the content hash of every file the import read and a hash of the
listing of every folder those files are in (a module added to a package changes what an import
finds); an entry whose files changed, or that is corrupt, foreign or unreadable, is a miss (the
cold path), never an error. Writes are atomic (`fsio`), so concurrent runs never see half an entry.

Form: a pickle whose outer layer is plain data (key, files, folders, the figures `kept.py`
checks before restoring) and whose payload holds the abstract values. The payload names what it
shares with the rest of the run instead of holding a copy: models of the registry (by name), the
interpreter and its shared state, and the objects of the modules loaded before the import (by
position, resolved on the path that restores it, as the in-process copy does). Loading names only
classes and functions of the analyzer's value, model and interpreter modules, `ast` node classes
and built-in types: an entry cannot make the analyzer run anything else.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import gc
import hashlib
import importlib
import io
import os
import pickle
import sys
import types
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytea_ci.fsio import atomic_write_bytes, read_bytes
from pytea_ci.interp.observe import Editor
from pytea_ci.models.registry import PROPERTIES, REGISTRY, get, get_property
from pytea_ci.models.values import MISSING, Builtin, ClassVal

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

FORMAT = 3  # 2: the values' pickle and its function bodies are read in place (`pack`); 3: a CRC-32 of the rest
# finds a damaged file (an accident, not an attack: the cache folder is the user's own), at a third of a SHA-256's cost
_MAX_MEMO = 16
_HASHES: dict[tuple[str, int, int], str] = {}  # (path, mtime_ns, size) -> content hash: a memo, not a key
STATS = {"loaded": 0, "saved": 0, "rejected": 0}  # for the tests and benchmarks/installed_packages.py


@dataclass
class Stored:
    """An entry found on disk and checked against the files: `meta` is plain data; the pickle of the
    values starts at `start` of `data` (the file as read, never copied) and the function bodies it
    leaves pickled are views of the same bytes (`buffers`); `values` reads it on the path that restores it."""

    meta: dict[str, Any]
    data: bytes
    start: int = 0
    buffers: list[memoryview] = field(default_factory=list)


@dataclass
class DiskCache:
    """The cache folder's `packages/` entries, as one object the driver makes (per cache folder and
    analyzer identity) and hands to the analysis of each entry point; `memo` holds the entries read."""

    folder: str
    salt: str  # what identifies the analyzer: its version and source hash
    memo: dict[str, Stored] = field(default_factory=dict)  # entries read, by file key

    def path(self, key: str) -> str:
        doc = f"{FORMAT}|{self.salt}|python {sys.version_info[0]}.{sys.version_info[1]}|{key}"
        fk = hashlib.sha256(doc.encode("utf-8", "surrogatepass")).hexdigest()
        return os.path.join(self.folder, "packages", fk[:2], fk + ".pkl")

    def save(self, interp: "Interpreter", key: str, meta: dict[str, Any], payload: Any, shared: list[Any],
             paths: set[str]) -> bool:
        """Write one entry; False when its values cannot all be written or a file cannot be read
        (then the import is kept in the process only)."""
        dep = depends(paths, interp.shared.editor)
        if dep is None:
            return False
        try:
            buf, blobs = io.BytesIO(), list[pickle.PickleBuffer]()
            with _no_collection():
                _Pickler(buf, interp, shared, blobs.append).dump(payload)
                data = buf.getvalue()
                views = [b.raw() for b in blobs]
                _Unpickler(io.BytesIO(data), interp, shared, views).load()  # what cannot be read back is not written
            outer = pack((key, dep[0], dep[1], meta), data, views)
        except Exception:  # noqa: BLE001  (a value that cannot be written: kept in the process only)
            return False
        try:
            atomic_write_bytes(self.path(key), outer)
        except OSError:
            return False  # a read-only or full disk only costs speed
        STATS["saved"] += 1
        return True

    def load(self, key: str, editor: Editor) -> Stored | None:
        """The entry for `key` when it is on disk, well formed and its files are unchanged (`editor`:
        a file with an unsaved buffer is not what the entry read)."""
        path = self.path(key)
        if path in self.memo:
            return self.memo[path]
        data = read_bytes(path)
        if data is None:
            return None
        try:
            head, start, buffers = unpack(data)
            k, files, folders, meta = head
            ok = k == key and _meta_ok(meta) and _unchanged(files, folders, editor)
        except Exception:  # any damage to the file: a miss  # noqa: BLE001
            ok = False
        if not ok:
            STATS["rejected"] += 1
            return None
        out = Stored(meta, data, start, buffers)
        if len(self.memo) < _MAX_MEMO:
            self.memo[path] = out
        return out


# ----- the file's form ------------------------------------------------------------------------------
# [4 bytes: length of the outer layer] [outer: (FORMAT, CRC-32 of the rest, length of the head, lengths of
# the buffers)] [head: (key, files, folders, meta)] [the pickle of the values] [the buffers, one after another]
def pack(head: tuple[Any, ...], data: bytes, buffers: list[memoryview]) -> bytes:
    """An entry as the bytes of its file."""
    body = pickle.dumps(head, protocol=5)
    check = zlib.crc32(body)
    check = zlib.crc32(data, check)
    for b in buffers:
        check = zlib.crc32(b, check)
    outer = pickle.dumps((FORMAT, check, len(body), len(data), [b.nbytes for b in buffers]), protocol=5)
    return b"".join([len(outer).to_bytes(4, "little"), outer, body, data, *buffers])


def unpack(raw: bytes) -> tuple[Any, int, list[memoryview]]:
    """(the head, where the values' pickle starts, views of the buffers) of an entry's file; raises on
    any damage. Nothing of the values is copied: a warm check reads tens of megabytes."""
    n = int.from_bytes(raw[:4], "little")
    fmt, digest, head_len, data_len, sizes = _PlainUnpickler(io.BytesIO(raw[4:4 + n])).load()
    view = memoryview(raw)
    if fmt != FORMAT or not all(isinstance(x, int) and x >= 0 for x in (head_len, data_len, *sizes)) \
            or 4 + n + head_len + data_len + sum(sizes) != len(raw) \
            or zlib.crc32(view[4 + n:]) != digest:
        raise ValueError("not an entry of this form")
    head = _PlainUnpickler(io.BytesIO(raw[4 + n:4 + n + head_len])).load()
    if not isinstance(head, tuple) or len(head) != 4:
        raise ValueError("not an entry of this form")
    at = 4 + n + head_len + data_len
    buffers = []
    for size in sizes:
        buffers.append(view[at:at + size])
        at += size
    return head, 4 + n + head_len, buffers


# ----- files an entry depends on ---------------------------------------------------------------------
def file_hash(path: str) -> str | None:
    try:
        st = os.stat(path)
        memo = (path, st.st_mtime_ns, st.st_size)
        if memo not in _HASHES:
            data = read_bytes(path)
            if data is None:
                return None
            _HASHES[memo] = hashlib.sha256(data).hexdigest()
        return _HASHES[memo]
    except OSError:
        return None


def folder_hash(folder: str) -> str | None:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return None
    return hashlib.sha256("\n".join(names).encode("utf-8", "surrogatepass")).hexdigest()


def depends(paths: set[str], editor: Editor) -> tuple[list[tuple[str, str]], list[tuple[str, str]]] | None:
    """(file, hash) and (folder, listing hash) of the files an import read; None when one cannot be
    read or an editor's unsaved text stands in for it (not what is on disk)."""
    files, folders = [], []
    for p in sorted(paths):
        h = file_hash(p)
        if h is None or editor.text(p) is not None:
            return None
        files.append((p, h))
    for d in sorted({os.path.dirname(p) for p in paths}):
        h = folder_hash(d)
        if h is None:
            return None
        folders.append((d, h))
    return files, folders


def _unchanged(files: Any, folders: Any, editor: Editor) -> bool:
    return (all(isinstance(p, str) and file_hash(p) == h and editor.text(p) is None for p, h in files)
            and all(isinstance(d, str) and folder_hash(d) == h for d, h in folders))


class _Pickler(pickle.Pickler):
    """Writes a payload; what it shares with the run is written as a reference (`persistent_id`, a
    table lookup: it is asked for every object)."""

    def __init__(self, f: io.BytesIO, interp: "Interpreter", shared: list[Any],
                 blob: Callable[[pickle.PickleBuffer], None]) -> None:
        table: dict[int, Any] = _model_names()
        table.update({id(interp): ("interp",), id(interp.shared): ("shared",), id(interp.config.decider): ("decider",)})
        table.update({id(o): ("ref", i) for i, o in enumerate(shared)})
        get = table.get
        self.persistent_id = lambda obj: get(id(obj))  # type: ignore[method-assign]
        super().__init__(f, protocol=5, buffer_callback=blob)  # function bodies: written after the values

    def reducer_override(self, obj: Any) -> Any:
        """Functions a model made at run time (a lambda, a closure) by their place in the model's code;
        another path's interpreter state is never written."""
        if isinstance(obj, types.FunctionType) and "<locals>" in obj.__qualname__:
            if not obj.__module__.startswith(_CODE_MODULES):
                raise pickle.PicklingError(f"local function of {obj.__module__}")
            cells = tuple(c.cell_contents for c in obj.__closure__ or ())
            return _local_function, (obj.__module__, obj.__qualname__, obj.__code__.co_firstlineno, cells,
                                     obj.__defaults__, obj.__kwdefaults__)
        if type(obj) in _DEFS:
            is_async, state, blob = _def_args(obj)
            return _lazy_def, (is_async, state, pickle.PickleBuffer(blob))
        if type(obj).__name__ in ("Interpreter", "Shared", "Decider"):
            raise pickle.PicklingError(f"a {type(obj).__name__} of another path")
        return NotImplemented


def _model_names() -> dict[int, tuple[str, str]]:
    """id of each model (and of each sentinel of the value modules) -> how a payload names it."""
    out: dict[int, tuple[str, str]] = {}
    for name, v in PROPERTIES.items():
        out.setdefault(id(v), ("prop", name))
    for name, v in REGISTRY.items():
        if not _by_value(v):
            out.setdefault(id(v), ("reg", name))
    for name, v in REGISTRY.items():  # a method of a modeled class read as a value (`orig = nn.Module.cuda`)
        if isinstance(v, ClassVal) and v.native:
            out.update((id(m), ("member", f"{name}:{k}")) for k, m in v.ns.items()
                       if isinstance(m, Builtin) and id(m) not in out)
    out[id(MISSING)] = ("missing", "")
    return out


# ----- function definitions, read when first used ---------------------------------------------------
class _LazyDef(ast.FunctionDef):
    """A function definition of a restored import whose body, parameters, decorators and annotations
    are read from the entry when one of them is first used: an import defines thousands of functions
    (their parameters and annotations, with their lists and dicts, were more than half of a restored
    import's objects) and an analysis calls a few of them. Its name and position are there from the start."""

    def __getattr__(self, name: str) -> Any:
        blob = self.__dict__.pop("_rest", None) if name in _LAZY_FIELDS else None
        if blob is None:
            raise AttributeError(name)
        self.__dict__.update(_BodyUnpickler(io.BytesIO(blob)).load())
        return self.__dict__[name]


class _LazyAsyncDef(ast.AsyncFunctionDef):
    __getattr__ = _LazyDef.__getattr__


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, _LazyDef, _LazyAsyncDef)
# the fields of a definition read when first used (the others: its name, position and type comment)
_LAZY_FIELDS = frozenset(("body", "args", "decorator_list", "returns", "type_params"))


_BLOBS: dict[int, tuple[Any, tuple[int, ...], bytes]] = {}  # id(node) -> (node, ids of its fields, their pickle)
_MAX_BLOBS = 50_000


def _def_args(node: Any) -> tuple[bool, dict[str, Any], bytes | memoryview]:
    """A definition as (async?, its name, position and what the analyzer added, the pickle of its
    other fields). The pickle of a definition of a parsed file is made once per process: a cold check writes
    an entry per import kept, nested imports' entries hold the same definitions (a BERT check pickled 2,796
    bodies 8,765 times), and the trees are never changed; the memo holds the node, so its id is not reused,
    and the ids of its fields, so a field set anew is pickled anew."""
    blob = node.__dict__.get("_rest")
    if blob is None:
        rest = {k: v for k, v in node.__dict__.items() if k in _LAZY_FIELDS}
        ids = tuple(id(v) for v in rest.values())
        known = _BLOBS.get(id(node))
        if known is not None and known[0] is node and known[1] == ids:
            blob = known[2]
        else:
            blob = pickle.dumps(rest, protocol=5)  # AST nodes and constants only
            if len(_BLOBS) >= _MAX_BLOBS:  # a long-lived process (the editor's server) re-parses files
                _BLOBS.clear()
            _BLOBS[id(node)] = (node, ids, blob)
    state = {k: v for k, v in node.__dict__.items() if k not in _LAZY_FIELDS and k != "_rest"}
    return isinstance(node, ast.AsyncFunctionDef), state, blob


def _lazy_def(is_async: bool, state: dict[str, Any], blob: bytes | memoryview | pickle.PickleBuffer) -> ast.AST:
    """`blob`: a view of the entry's bytes as read (a buffer written out of band), not a copy."""
    cls = _LazyAsyncDef if is_async else _LazyDef
    node = cls.__new__(cls)  # no __init__: a missing field would get a default (Python 3.13)
    node.__dict__.update(state)
    node.__dict__["_rest"] = blob.raw() if isinstance(blob, pickle.PickleBuffer) else blob
    return node


class _BodyUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module in ("ast", "_ast") or (module, name) in _CONSTANTS:
            found = super().find_class(module, name)
            if found is Ellipsis or (isinstance(found, type) and issubclass(found, (ast.AST, *_SAFE_BUILTINS))):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} not allowed")


def _local_function(module: str, qualname: str, line: int, cells: tuple[Any, ...], defaults: Any,
                    kwdefaults: Any) -> types.FunctionType:
    """A local function of the analyzer's own model code, made again from its code object (found in
    its module by qualified name and first line) and what its closure held."""
    if not module.startswith(_CODE_MODULES):
        raise pickle.UnpicklingError(f"local function of {module}")
    mod = importlib.import_module(module)
    code = _find_code(mod, qualname, line)
    if code is None or len(code.co_freevars) != len(cells):
        raise pickle.UnpicklingError(f"no function {module}.{qualname} at line {line}")
    fn = types.FunctionType(code, vars(mod), qualname.rpartition(".")[2], defaults,
                            tuple(types.CellType(c) for c in cells))
    fn.__qualname__ = qualname
    fn.__kwdefaults__ = kwdefaults
    return fn


def _find_code(mod: types.ModuleType, qualname: str, line: int) -> types.CodeType | None:
    name = qualname.rpartition(".")[2]
    return next((c for c in _codes(mod.__name__).get((name, line), ())
                 if getattr(c, "co_qualname", qualname) == qualname), None)


@functools.lru_cache(maxsize=None)
def _codes(module: str) -> dict[tuple[str, int], list[types.CodeType]]:
    """(name, first line) -> code objects of every function in the analyzer's module `module`,
    nested ones too, walked once per module (a restore makes hundreds of its local functions again)."""
    mod = sys.modules[module]
    todo = [v.__code__ for v in vars(mod).values() if isinstance(v, types.FunctionType)]
    todo += [f.__code__ for v in vars(mod).values() if isinstance(v, type) for f in vars(v).values()
             if isinstance(f, types.FunctionType)]
    seen: set[int] = set()
    out: dict[tuple[str, int], list[types.CodeType]] = {}
    while todo:
        code = todo.pop()
        if id(code) in seen:
            continue
        seen.add(id(code))
        out.setdefault((code.co_name, code.co_firstlineno), []).append(code)
        todo += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return out


_IMMUTABLE = (type(None), bool, int, float, complex, str, bytes, tuple, frozenset, range, slice, type)


def _by_value(v: Any) -> bool:
    """Values equal by value (a registered constant, a dtype): written as they are, not by name."""
    return isinstance(v, _IMMUTABLE) or getattr(type(v), "__dataclass_params__", None) is not None and \
        type(v).__dataclass_params__.frozen


# ----- reading ---------------------------------------------------------------------------------------
_META = {"steps": int, "sym_start": int, "sym_names": list, "result": str, "modules": list, "refs": list}


def _meta_ok(meta: Any) -> bool:
    """The figures `kept.py` checks are there, of the right types (a crafted entry is a miss)."""
    if not isinstance(meta, dict) or not all(isinstance(meta.get(k), t) for k, t in _META.items()):
        return False
    return all(isinstance(r, (list, tuple)) and len(r) == 3 and isinstance(r[0], str) for r in meta["refs"])


def values(stored: Stored, interp: "Interpreter", seeds: list[Any]) -> Any:
    """The payload's values, for the path of `interp` (`seeds`: its objects the payload refers to by
    position); None when the payload cannot be read."""
    try:
        with _no_collection(freeze=ONE_SHOT[0]):
            f = io.BytesIO(stored.data)  # shares the bytes read, as the views of the buffers do
            f.seek(stored.start)
            out = _Unpickler(f, interp, seeds, stored.buffers).load()
    except Exception:  # noqa: BLE001  (a damaged payload, a model renamed since: the cold path)
        STATS["rejected"] += 1
        return None
    STATS["loaded"] += 1
    return out


ONE_SHOT = [False]  # set by a one-shot run (`driver/heap.py`): the process ends with the run


def one_shot() -> None:
    """The process ends with this run (the command line, the Action; never a language server): what a
    restore reads is then moved out of the collector's reach (`gc.freeze`), as `heap.settle` does with the
    run's trees. Read in one piece and alive until the end, it is never garbage worth a pass, yet the
    first young collection after the read walked all of it, and the middle and old ones again."""
    ONE_SHOT[0] = True


@contextlib.contextmanager
def _no_collection(freeze: bool = False) -> Iterator[None]:
    """The cyclic collector paused while an entry is written or read: reading one makes hundreds of
    thousands of objects that all live on (the collector's young passes walked them again and again, most
    of a warm check's CPU), and neither makes garbage worth a pass. Only when garbage is freed changes.
    `freeze`: what exists when the read ends is kept out of later collections (a one-shot process)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
        if freeze:
            gc.freeze()
    finally:
        if was:
            gc.enable()


_PLAIN = {("builtins", n) for n in ("tuple", "list", "dict", "str", "bytes", "int")}
_CODE_MODULES = ("pytea_ci.models.", "pytea_ci.shapes.", "pytea_ci.interp.", "pytea_ci.packages.")
_VALUE_MODULES = ("pytea_ci.models.", "pytea_ci.shapes.", "pytea_ci.interp.", "pytea_ci.packages.",
                  "pytea_ci.diagnostics.")  # classes


class _PlainUnpickler(pickle.Unpickler):
    """The outer layer: plain data only."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _PLAIN:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} not allowed")


class _Unpickler(pickle.Unpickler):
    """The payload: the analyzer's value classes and model functions, `ast` nodes and built-in types."""

    def __init__(self, f: io.BytesIO, interp: "Interpreter", seeds: list[Any],
                 buffers: list[memoryview] | None = None) -> None:
        super().__init__(f, buffers=iter(buffers or ()))
        self.interp = interp
        self.seeds = seeds

    def find_class(self, module: str, name: str) -> Any:
        if _allowed(module):
            found = super().find_class(module, name)
            if _safe(module, found):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} not allowed")

    def persistent_load(self, pid: Any) -> Any:
        kind, arg = pid[0], pid[1] if len(pid) > 1 else ""
        if kind == "ref" and isinstance(arg, int):
            return self.seeds[arg]
        if kind == "reg":
            found = get(arg)
            if found is None:
                raise pickle.UnpicklingError(f"no model {arg}")
            return found
        if kind == "prop":
            return get_property(arg)
        if kind == "member" and isinstance(arg, str):
            cls = get(arg.rpartition(":")[0])
            member = cls.ns.get(arg.rpartition(":")[2]) if isinstance(cls, ClassVal) else None
            if not isinstance(member, Builtin):
                raise pickle.UnpicklingError(f"no model {arg}")
            return member
        if kind == "missing":
            return MISSING
        if kind == "interp":
            return self.interp
        if kind == "shared":
            return self.interp.shared
        if kind == "decider":
            return self.interp.decider
        raise pickle.UnpicklingError(f"unknown reference {pid!r}")


_CONSTANTS = {("builtins", "Ellipsis"), ("builtins", "complex"), ("builtins", "frozenset"), ("builtins", "bytes")}
_SAFE_BUILTINS = (int, float, complex, str, bytes, tuple, list, dict, set, frozenset, range, slice, BaseException)


def _allowed(module: str) -> bool:
    return module in ("builtins", "ast", "_ast", "functools") or module.startswith(_VALUE_MODULES)


def _safe(module: str, found: Any) -> bool:
    """Built-in data types, `ast` node classes, the analyzer's classes, and functions of its models and
    shape rules (what a model's `Builtin` calls); nothing that writes or runs anything."""
    if found is _local_function or found is _lazy_def or found is functools.partial or found is Ellipsis:
        return True
    if not isinstance(found, type):
        return callable(found) and module.startswith(("pytea_ci.models.", "pytea_ci.shapes."))
    if module == "builtins":
        return found is object or issubclass(found, _SAFE_BUILTINS)
    if module in ("ast", "_ast"):
        return issubclass(found, ast.AST)
    return True
