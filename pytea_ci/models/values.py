"""Runtime values shared by the interpreter and the models.

Concrete Python values (int, float, str, bool, None, tuple, list, dict, set) are used as they are;
symbolic integers are `Term`s; tensors are `Tensor`s. The classes here cover the rest: what the
analyzer did not understand (`Unknown`), instances and classes (user-defined and native), built-in
callables implemented by models, and namespaces of modeled libraries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from pytea_ci.shapes.dim import Term
from pytea_ci.shapes.tensor import Origin


class Unknown:
    """A value the analyzer did not understand. Every operation on it yields Unknown.

    `origin` is where the first value not understood was born and what made it (an `Origin`); values
    computed from an Unknown keep the origin of the first Unknown they were computed from.

    `holds`: objects of the program this value may refer to (what was handed to the code not followed
    that made it: `RRef(self)`, `Thread(target=self.run)`); handing it on hands them on (interp/escape.py).
    """

    __slots__ = ("reason", "pytype", "origin", "holds", "ratio", "bounds", "item_type")

    def __init__(self, reason: str = "", pytype: str | None = None, origin: Origin | None = None,
                 holds: tuple[Any, ...] = ()) -> None:
        self.reason = reason
        self.pytype = pytype  # "int", "float", "bool", "str" when the Python type is known
        self.origin = origin
        self.holds = holds
        self.ratio: tuple[Any, Any] | None = None  # `a / b` of two ints: what math.ceil/floor make of it
        self.bounds: tuple[float, float] | None = None  # a float known to lie in [lo, hi] (models/contents.py)
        self.item_type: str | None = None  # the Python type of its items when known (a text's `split()`: "str")

    def __repr__(self) -> str:
        return f"Unknown({self.reason})" if self.reason else "Unknown"


@dataclass(eq=False)
class Builtin:
    """A callable implemented in Python by a model: `fn(ctx, *args, **kwargs)`."""

    name: str
    fn: Callable[..., Any]

    def __repr__(self) -> str:
        return f"<model {self.name}>"


@dataclass(eq=False)
class PartialVal(Builtin):
    """`functools.partial(func, *args, **keywords)`: calls `func` with them first; `.func`, `.args` and
    `.keywords` read them back (a partial of a partial is flattened, as CPython's)."""

    func: Any = None
    args: tuple[Any, ...] = ()
    keywords: dict[str, Any] = field(default_factory=dict)


@dataclass(eq=False)
class Property:
    """A computed attribute of a value (e.g. `Tensor.shape`): `fn(ctx, obj)`."""

    name: str
    fn: Callable[..., Any]


@dataclass(eq=False)
class ClassVal:
    """A class: user-defined (namespace from its body) or native (namespace of Builtins)."""

    name: str
    bases: tuple["ClassVal", ...] = ()
    ns: dict[str, Any] = field(default_factory=dict)
    qualname: str = ""
    native: bool = False
    _order: list["ClassVal"] | None = field(default=None, repr=False)
    own_qualname: str = ""  # CPython's `cls.__qualname__` of a program's class (`Outer.Inner`): not in `ns`

    def mro(self) -> list["ClassVal"]:
        """The method resolution order, by C3 linearization as CPython computes it (so a mixin's
        `super()` reaches the next class of the instance's order, e.g. `nn.Linear` after `Bottle`
        in `class BottledLinear(Bottle, nn.Linear)`); a hierarchy C3 rejects falls back to depth first."""
        if self._order is None:
            self._order = c3_linearize(self, [b.mro() for b in self.bases], list(self.bases))
        return self._order

    def lookup(self, name: str) -> Any:
        for c in self.mro():
            if name in c.ns:
                return c.ns[name]
        return _MISSING

    def is_subclass_of(self, qualname: str) -> bool:
        return any(c.qualname == qualname for c in self.mro())

    def __repr__(self) -> str:
        return f"<class {self.qualname or self.name}>"


def c3_linearize(head: ClassVal, base_orders: list[list[ClassVal]], bases: list[ClassVal]) -> list[ClassVal]:
    """C3 merge of the bases' orders; depth first without repeats when no consistent order exists."""
    seqs = [list(o) for o in base_orders] + [list(bases)]
    out: list[ClassVal] = [head]
    while True:
        seqs = [s for s in seqs if s]
        if not seqs:
            return out
        for s in seqs:
            cand = s[0]
            if not any(cand in t[1:] for t in seqs):
                break
        else:
            for o in base_orders:
                out.extend(c for c in o if c not in out)
            return out
        out.append(cand)
        for s in seqs:
            if s and s[0] is cand:
                del s[0]


@dataclass(eq=False)
class Instance:
    cls: ClassVal
    attrs: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"<{self.cls.name} instance>"


@dataclass(eq=False)
class BoundMethod:
    self_val: Any
    func: Any


@dataclass(frozen=True)
class Namespace:
    """A modeled library module or package, e.g. `torch.nn`; attributes resolve in the registry."""

    qualname: str


class _Missing:
    """The one "no value" sentinel, compared by identity (`x is MISSING`): every copy of a state (a
    checkpoint, a kept import, a pickle) keeps it itself. A copied sentinel was not MISSING any more: a
    `ContextVar` made at import and never set, copied with its package's import, read back as a value
    (kernels' `dict(_ACTIVE_KERNEL_FUNCS.get() or {})`, on every transformers 5 forward)."""

    __slots__ = ()  # no `__dict__`: the state copier shares it as a value it does not copy

    def __repr__(self) -> str:
        return "<missing>"

    def __reduce__(self) -> str:
        return "MISSING"  # pickle and `copy` give back the module's own


_MISSING = _Missing()
MISSING = _MISSING
OPAQUE = "__opaque__"  # in an instance's attributes or a class's namespace: attributes of any name may be there
DELETED_GLOBALS = "deleted globals"  # Ctx.facts: (module name, name) of the globals `del` unbound on this path
# Ctx.facts: [(object, its id)] of the objects whose `id()` this path took (models/builtins.py `id_`)
OBJECT_IDS = "object ids"
TENSOR_ATTRS_SET = "tensor attributes set"  # Ctx.facts: the names the program set on a tensor on this path


@dataclass(eq=False)
class IterVal:
    """Representative iterations of an iterable whose full iteration is not followed one by one.

    `items` are the values the loop body is run with (e.g. a DataLoader's full batch and its
    short last batch); `truncated` says other iterations exist that were not run, so variables
    the loop changes are widened afterwards.
    """

    items: list[Any]
    truncated: bool = False
    indices: list[Any] | None = None  # position of each representative item, when known
    certain: int | None = None  # how many of the items every run has (the rest may stand for no iteration)
    unordered: bool = False  # the items are all there, in an order not known (interp/unordered.py)


@dataclass(eq=False)
class Spread:
    """`*items` in the arguments of a call, of a list holding only representatives of its items (built
    in a loop not followed one by one): `items` are those, `length` how many there are (None: not known).
    Only a native class that declares `SPREAD` in its namespace gets one (its arguments are a sequence of
    layers, where positions do not matter); any other call sees an unknown from there on."""

    items: list[Any]
    length: Any = None


SPREAD = "__takes_spread__"  # in a native class's namespace: `*representatives` reach it as a `Spread`


@dataclass(frozen=True)
class RangeVal:
    start: Any
    stop: Any
    step: Any = 1


@dataclass(eq=False)
class GeneratorCM:
    """A call of a `contextlib.contextmanager` generator function: run by `with` (interp/contexts.py)."""
    fn: Any
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


@dataclass(eq=False)
class Awaitable:
    """What `await` takes (interp/coroutines.py): the call of an `async def` `fn` with `args`/`kwargs`,
    whose body runs when it is awaited; or one a model made, with no function: `asyncio.gather`'s
    (`parts`: awaiting gives the list of their results) or one that gives `value` (`asyncio.sleep`)."""
    fn: Any = None
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    parts: tuple[Any, ...] | None = None
    value: Any = None
    awaited: bool = False  # a coroutine runs once; awaiting it again is CPython's RuntimeError


@dataclass(eq=False)
class StaticMethod:
    func: Any


@dataclass(eq=False)
class ClassMethod:
    func: Any


@dataclass(eq=False)
class PropertyVal:
    fget: Any
    fset: Any = None  # `@name.setter` (called when the attribute is assigned)


class EnumMember:
    """What an enum member whose class mixes in `int` or `str` (`IntEnum`, `IntFlag`, `StrEnum`,
    `class Kind(str, Enum)`, a model's `inspect.Parameter.VAR_KEYWORD`) is besides its value: its
    `name`, its class (`owner`, a program's ClassVal; None for a model's member) and what `str()` prints
    (`shown`; None where that depends on the Python version). The value itself is the int or str: such a
    member is an int or a str wherever one goes, as in CPython."""

    name: str
    owner: Any
    shown: "str | None"

    def __str__(self) -> str:  # what CPython's str() prints where a model or Python itself asks for it
        return self.shown if self.shown is not None else plain_member(self)

    def identity_key(self) -> tuple[str, str]:
        """Members read back from two caches are one member when their class and name are."""
        owner = getattr(self.owner, "qualname", "")
        return owner, self.name


class EnumInt(EnumMember, int):
    """A member of an int-valued enum: an int wherever an int goes, and a singleton, as CPython's enum
    members are (`kind is Parameter.VAR_KEYWORD` is decided: the same member, never a plain int). A
    model's members are one object per member in the process, also when read back from the package
    cache (`__reduce__` names it); a program's are made once, by its class statement."""

    def __new__(cls, value: int, name: str, owner: Any = None, shown: "str | None" = None) -> "EnumInt":
        if owner is not None:
            return _member(cls, value, name, owner, shown)
        key = f"{name}={value}"
        found = _ENUM_MEMBERS.get(key)
        if found is None:
            found = _ENUM_MEMBERS[key] = _member(cls, value, name, None, name)
        return found

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return EnumInt, (int(self), self.name, self.owner, self.shown)


class EnumStr(EnumMember, str):
    """A member of a str-valued enum of the program (`StrEnum`, `class Kind(str, Enum)`): a str
    wherever a str goes (`kind == "sdpa"`, a dict key), with its name and class."""

    def __new__(cls, value: str, name: str, owner: Any = None, shown: "str | None" = None) -> "EnumStr":
        return _member(cls, value, name, owner, shown)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return EnumStr, (str(self), self.name, self.owner, self.shown)


def plain_member(m: EnumMember) -> Any:
    """The int or str a member of a mixed-in enum holds (its `.value`)."""
    if isinstance(m, int):
        return int(m)
    assert isinstance(m, str)
    return "".join(c for c in m)  # noqa: C416 (an exact str, not the member)


def _member(cls: Any, value: Any, name: str, owner: Any, shown: "str | None") -> Any:
    obj = (int if issubclass(cls, int) else str).__new__(cls, value)
    obj.name, obj.owner, obj.shown = name, owner, shown
    return obj


_ENUM_MEMBERS: dict[str, EnumInt] = {}


class ValuesIndices(tuple):  # type: ignore[type-arg]
    """`torch.return_types.max` and kin: a (values, indices) pair that also has those two fields."""

    __slots__ = ()
    fields = ("values", "indices")


_RETURN_TYPES: dict[tuple[str, ...], type[ValuesIndices]] = {}


def return_type(*fields: str) -> type[ValuesIndices]:
    """The `torch.return_types` class with these fields (`eigh`: eigenvalues, eigenvectors), one per
    field list: a tuple whose items are also its attributes, as (values, indices) is."""
    if fields not in _RETURN_TYPES:
        _RETURN_TYPES[fields] = type("ReturnType", (ValuesIndices,), {"__slots__": (), "fields": fields})
    return _RETURN_TYPES[fields]


class KeysView(list):  # type: ignore[type-arg]
    """`d.keys()`, `d.items()`: the keys (pairs) in order, a list, with a view's set operators:
    `d.keys() & e.keys()`, `d.keys() - {"head"}` are sets."""

    def __and__(self, other: Any) -> set[Any]:
        return set(self) & set(other)

    def __or__(self, other: Any) -> set[Any]:
        return set(self) | set(other)

    def __sub__(self, other: Any) -> set[Any]:
        return set(self) - set(other)

    def __xor__(self, other: Any) -> set[Any]:
        return set(self) ^ set(other)

    def __rand__(self, other: Any) -> set[Any]:
        return set(other) & set(self)

    def __ror__(self, other: Any) -> set[Any]:
        return set(other) | set(self)

    def __rsub__(self, other: Any) -> set[Any]:
        return set(other) - set(self)

    def __rxor__(self, other: Any) -> set[Any]:
        return set(other) ^ set(self)


class NamedTupleVal(tuple):  # type: ignore[type-arg]
    """An instance of a named tuple class (`typing.NamedTuple`, `collections.namedtuple`): a tuple
    (indexing, unpacking and `len` as for any tuple) whose class gives its field names and methods."""

    cls: ClassVal

    @staticmethod
    def of(cls: ClassVal, items: Any) -> "NamedTupleVal":
        v = NamedTupleVal(items)
        v.cls = cls
        return v


# What an instance and a class inherit from `object`, in every Python the program may run under (3.8 on):
# `__getstate__` came with 3.11
OBJECT_NAMES = frozenset(dir(object)) - {"__getstate__"}


def lacks_attribute(obj: Any, name: str) -> bool:
    """Whether a plain tuple (not a torch.Size, a named tuple or a return type with fields) or list has no
    attribute `name`: CPython raises AttributeError for it (`rows.shape` of a list loaded where an array was
    expected). Not a dict: an `OrderedDict` is one here, and has `move_to_end`."""
    if type(obj) is list:  # not a special name: a list may stand for an iterator CPython gives (`__next__`)
        return not name.startswith("__") and not hasattr(list, name)
    return type(obj) is tuple and not hasattr(tuple, name)


class SizeVal(tuple):  # type: ignore[type-arg]
    """A tensor's shape as the program sees it (`torch.Size`, `ndarray.shape`): a tuple of dims whose
    length is the rank, so an index out of range is a rank mistake of the program (PT003)."""

    __slots__ = ()


@dataclass(frozen=True)
class DType:
    """A tensor dtype constant such as `torch.float32` (name without the library prefix), and the library
    whose object it is ("torch", "numpy"; "" not known), which takes no part in equality."""

    name: str
    lib: str = field(default="", compare=False)


def is_concrete(v: Any) -> bool:
    """Fully concrete Python data (safe to hand to Python's own operators)."""
    if v is None or isinstance(v, (bool, int, float, str, bytes, complex, range, slice, DType)):
        return not isinstance(v, Term)
    if isinstance(v, (tuple, list, set, frozenset)):
        return all(is_concrete(x) for x in v)
    if isinstance(v, dict):
        return all(is_concrete(k) and is_concrete(x) for k, x in v.items())
    return False
