"""What `isinstance` answers for the one-trick ABCs of `collections.abc` (`Hashable`, `Sized`,
`Container`, `Iterable`, `Collection`, `Reversible`, ...) and for `enum.EnumMeta`, on the values whose
kind is known: a built-in value by its type, a class object, a function, an Enum member or class.

CPython decides these by the class alone (`isinstance((1, [2]), Hashable)` is True; the tuple cannot
be hashed, its class can), so a known kind decides the answer; an instance of a program's class
or of a torch class is decided only where the answer does not hang on a dunder the analyzer may not
see (None: not known). Configuration helpers test options this way before they build layers
(`if not isinstance(opt, Hashable): raise ...`, `if isinstance(supported, EnumMeta): ...`), and an
undecided test there forks every layer built after it.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import register
from pytea_ci.models.values import Builtin, ClassVal, Instance, RangeVal, Unknown
from pytea_ci.shapes.dim import is_dim
from pytea_ci.shapes.tensor import Tensor

_ABC = "collections.abc."
# the ABCs each built-in kind is an instance of (as `_collections_abc.py` registers and hooks them)
_SEQ = {"Sized", "Container", "Iterable", "Reversible", "Collection", "Sequence"}
_KINDS: list[tuple[type | tuple[type, ...], frozenset[str]]] = [
    ((str, bytes, tuple, RangeVal), frozenset(_SEQ | {"Hashable"})),
    (list, frozenset(_SEQ | {"MutableSequence"})),
    (dict, frozenset({"Sized", "Container", "Iterable", "Reversible", "Collection", "Mapping", "MutableMapping"})),
    (set, frozenset({"Sized", "Container", "Iterable", "Collection", "Set", "MutableSet"})),
    (frozenset, frozenset({"Sized", "Container", "Iterable", "Collection", "Set", "Hashable"})),
    ((bool, int, float, complex, type(None)), frozenset({"Hashable"})),
]
# torch.Tensor defines __hash__, __len__, __iter__, __contains__ and __reversed__; numpy's ndarray no
# __hash__ (None) and no __reversed__
_TENSOR = {"torch": frozenset({"Hashable", "Sized", "Container", "Iterable", "Reversible", "Collection"}),
           "numpy": frozenset({"Sized", "Container", "Iterable", "Collection"})}
# an Enum class is iterable, sized and a container (its metaclass defines them); a class, hashable
_ENUM_CLASS = frozenset({"Hashable", "Sized", "Container", "Iterable", "Reversible", "Collection", "Callable"})
_CLASS = frozenset({"Hashable", "Callable"})
ONE_TRICK = ("Hashable", "Sized", "Container", "Collection", "Reversible", "Callable", "MutableSequence", "Set",
             "MutableSet")


def is_enum_class(value: Any) -> bool:
    return isinstance(value, ClassVal) and any(c.qualname == "enum.Enum" for c in value.mro())


def abc_matches(value: Any, abc: str) -> bool | None:
    """`isinstance(value, collections.abc.<abc>)` (`abc` its bare name) when the kind of `value`
    decides it, else None."""
    if isinstance(value, Unknown):
        return None
    if is_dim(value) and not isinstance(value, (bool, int)):
        return abc == "Hashable"  # a symbolic int
    for kinds, abcs in _KINDS:
        if isinstance(value, kinds):
            return abc in abcs
    if isinstance(value, Tensor):
        return abc in _TENSOR[value.lib] if value.lib in _TENSOR else None
    if isinstance(value, ClassVal):
        return abc in (_ENUM_CLASS if is_enum_class(value) else _CLASS)
    if isinstance(value, Builtin) or type(value).__name__ == "FunctionVal":
        return abc in ("Hashable", "Callable")
    if isinstance(value, Instance) and abc == "Hashable" and any(c.qualname == "enum.Enum" for c in
                                                                  value.cls.mro()):
        return True  # an Enum member (Enum defines __hash__)
    return None


def enum_meta_matches(value: Any) -> bool | None:
    """`isinstance(value, enum.EnumMeta)`: an Enum class is, any other known value is not (a program's
    own metaclass deriving from EnumMeta is not followed: a class with one is an Enum class anyway)."""
    if isinstance(value, Unknown):
        return None
    return is_enum_class(value)


def _abc_class(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return ctx.unknown("instance of an abstract base class")


for _name in ONE_TRICK:
    _b = Builtin(_ABC + _name, _abc_class)
    register(_ABC + _name, _b)
    if _name not in ("Callable", "Set"):  # typing's Callable is an annotation; typing.Set is `set`
        register("typing." + _name, _b)  # the deprecated aliases test the same way
_meta = Builtin("enum.EnumMeta", _abc_class)
register("enum.EnumMeta", _meta)
register("enum.EnumType", _meta)
