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


class Unknown:
    """A value the analyzer did not understand. Every operation on it yields Unknown."""

    __slots__ = ("reason", "pytype")

    def __init__(self, reason: str = "", pytype: str | None = None) -> None:
        self.reason = reason
        self.pytype = pytype  # "int", "float", "bool", "str" when the Python type is known

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

    def mro(self) -> list["ClassVal"]:
        out: list[ClassVal] = [self]
        for b in self.bases:
            for c in b.mro():
                if c not in out:
                    out.append(c)
        return out

    def lookup(self, name: str) -> Any:
        for c in self.mro():
            if name in c.ns:
                return c.ns[name]
        return _MISSING

    def is_subclass_of(self, qualname: str) -> bool:
        return any(c.qualname == qualname for c in self.mro())

    def __repr__(self) -> str:
        return f"<class {self.qualname or self.name}>"


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
    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()
MISSING = _MISSING


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


@dataclass(frozen=True)
class RangeVal:
    start: Any
    stop: Any
    step: Any = 1


@dataclass(eq=False)
class StaticMethod:
    func: Any


@dataclass(eq=False)
class ClassMethod:
    func: Any


@dataclass(eq=False)
class PropertyVal:
    fget: Any


class ValuesIndices(tuple):  # type: ignore[type-arg]
    """`torch.return_types.max` and kin: a (values, indices) pair that also has those two fields."""

    __slots__ = ()
    fields = ("values", "indices")


class SizeVal(tuple):  # type: ignore[type-arg]
    """A tensor's shape as the program sees it (`torch.Size`, `ndarray.shape`): a tuple of dims whose
    length is the rank, so an index out of range is a rank mistake of the program (PT003)."""

    __slots__ = ()


@dataclass(frozen=True)
class DType:
    """A tensor dtype constant such as `torch.float32` (name without the library prefix)."""

    name: str


def is_concrete(v: Any) -> bool:
    """Fully concrete Python data (safe to hand to Python's own operators)."""
    if v is None or isinstance(v, (bool, int, float, str, bytes, complex, range, slice)):
        return not isinstance(v, Term)
    if isinstance(v, (tuple, list, set, frozenset)):
        return all(is_concrete(x) for x in v)
    if isinstance(v, dict):
        return all(is_concrete(k) and is_concrete(x) for k, x in v.items())
    return False
