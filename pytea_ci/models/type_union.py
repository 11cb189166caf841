"""`X | Y` of classes (PEP 604, `types.UnionType`): `isinstance(v, list | tuple)`, `int | None`.

CPython 3.10+ builds a union object from `|` between classes (or `None`), and `isinstance`/`issubclass`
test it as the tuple of its members. Without it the union was an operator on values not understood, so
every `isinstance(v, list | tuple)` forked (transformers 5's `_get_class_name` ran its list side over the
characters of every model name while its auto classes built their docstrings at import). Only classes the
analyzer knows to be classes join a union: anything else keeps `|` not understood.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pytea_ci.models.registry import lookup
from pytea_ci.models.value_types import cpython_names
from pytea_ci.models.values import Builtin, ClassVal, Namespace

# the built-in classes `isinstance` decides (models/builtins.py `_type_matches`)
_BUILTIN_CLASSES = frozenset(f"builtins.{n}" for n in (
    "int", "float", "complex", "str", "bytes", "list", "tuple", "dict", "set", "frozenset", "bool", "slice", "type",
    "object"))


@dataclass(frozen=True)
class TypeUnion:
    """A union of classes; `None` stands for `NoneType`, as CPython's `int | None` holds `type(None)`."""

    args: tuple[Any, ...]

    def __repr__(self) -> str:
        return " | ".join("None" if a is None else repr(a) for a in self.args)


def _members(v: Any) -> tuple[Any, ...] | None:
    if isinstance(v, TypeUnion):
        return v.args
    if v is None or isinstance(v, ClassVal) or isinstance(v, Builtin) and v.name in _BUILTIN_CLASSES \
            or isinstance(v, Namespace) and cpython_names(v) is not None:  # `Tensor | None`
        return (v,)
    return None


def union_of(a: Any, b: Any) -> TypeUnion | None:
    """`a | b` when both sides are classes, `None` or unions (members once each, in order); None otherwise."""
    left, right = _members(a), _members(b)
    if left is None or right is None or (a is None and b is None):
        return None
    out: list[Any] = []
    for m in left + right:
        if not any(m is o for o in out):
            out.append(m)
    return TypeUnion(tuple(out))


def as_classinfo(t: TypeUnion) -> tuple[Any, ...]:
    """The classes `isinstance` tests for a union: its members, `None` as `NoneType`."""
    return tuple(lookup("types.NoneType") if a is None else a for a in t.args)
