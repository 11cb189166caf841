"""What CPython's `type(v)` is for the values the analyzer holds, and how those classes print.

`class_of(v)` is the qualified name of `v`'s class where the analyzer knows it exactly: `bool`, `int`
(a size not known too), `float`, `str`, `list`, `tuple`, `set`, `slice`, `range`, `NoneType` (exact
types only: a `torch.Size` is a tuple subclass of its own); a tensor is exactly `torch.Tensor` or a
`torch.nn.Parameter` as `Tensor.param` says; a NumPy array is a `numpy.ndarray`. Otherwise None (the
caller answers "not known"): a dict may be an `OrderedDict` (the models build a plain one), a
frozenset shares `set`'s model, a tensor made from a Parameter by an op may be that Parameter.

`printed(cls)` is CPython's `str(cls)` of those classes (`<class 'torch.Tensor'>`, `<class 'int'>`):
code that tells tensors apart by `str(type(x))` (transformers' framework inference) is decided."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.registry import lookup, native_class, prop, register
from pytea_ci.models.values import MISSING, Builtin, ClassVal, EnumMember, Namespace, RangeVal
from pytea_ci.shapes.dim import PInt, Term, is_dim
from pytea_ci.shapes.tensor import Tensor

# the registry's name of a class -> CPython's `cls.__module__`, `cls.__qualname__`
_CLASSES: dict[str, tuple[str, str]] = {
    "builtins.bool": ("builtins", "bool"), "builtins.int": ("builtins", "int"),
    "builtins.float": ("builtins", "float"), "builtins.str": ("builtins", "str"),
    "builtins.list": ("builtins", "list"), "builtins.slice": ("builtins", "slice"),
    "builtins.tuple": ("builtins", "tuple"), "builtins.set": ("builtins", "set"),
    "builtins.range": ("builtins", "range"), "torch.Tensor": ("torch", "Tensor"),
    "torch.nn.Parameter": ("torch.nn.parameter", "Parameter"), "numpy.ndarray": ("numpy", "ndarray"),
    "types.NoneType": ("builtins", "NoneType"), "builtins.dict": ("builtins", "dict"),
    "builtins.bytes": ("builtins", "bytes"), "builtins.complex": ("builtins", "complex"),
    "builtins.frozenset": ("builtins", "frozenset"), "builtins.object": ("builtins", "object"),
    "builtins.type": ("builtins", "type"),
}
# exact Python classes of plain values (bool before int: `type(True)` is bool)
_PLAIN = ((bool, "builtins.bool"), (int, "builtins.int"), (float, "builtins.float"), (str, "builtins.str"),
          (list, "builtins.list"), (tuple, "builtins.tuple"), (set, "builtins.set"), (slice, "builtins.slice"))


def class_of(v: Any) -> str | None:
    """The registry name of `v`'s class when known exactly, else None."""
    if isinstance(v, Tensor):
        if v.lib == "numpy":
            return "numpy.ndarray"
        return None if v.param is None else ("torch.nn.Parameter" if v.param else "torch.Tensor")
    if isinstance(v, Term) and is_dim(v):
        return "builtins.int"  # a size not known is an int
    if isinstance(v, RangeVal):
        return "builtins.range"
    if v is None:
        return "types.NoneType"
    for py, name in _PLAIN:
        if type(v) is py or py is int and type(v) is PInt:  # an int that remembers where it was born
            return name
    return None


def type_of(v: Any) -> Any:
    """The value the program's `type(v)` evaluates to (the one its name `int`, `torch.Tensor` resolves
    to), or None when not known."""
    if isinstance(v, EnumMember):
        return v.owner  # a member of the program's enum: its class (a model's member: not known)
    name = class_of(v)
    found = None if name is None else lookup(name)
    return None if found is None or found is MISSING else found


def printed(cls: Any) -> str | None:
    """CPython's `str(cls)` of a class `type_of` gives, else None."""
    name = _registry_name(cls)
    if name is None:
        return None
    module, qual = _CLASSES[name]
    return f"<class '{qual}'>" if module == "builtins" else f"<class '{module}.{qual}'>"


def cpython_names(cls: Any) -> tuple[str, str] | None:
    """CPython's `cls.__module__` and `cls.__qualname__` of a class of the program or of a package read
    from source, or of one of the modeled classes listed above (`torch.Tensor`: "torch", "Tensor"); None
    for anything else (a modeled class whose CPython module is not recorded here)."""
    if isinstance(cls, ClassVal) and not cls.native:
        module, qual = cls.ns.get("__module__"), cls.own_qualname or cls.name
        return (module, qual) if isinstance(module, str) and isinstance(qual, str) else None
    return _CLASSES[name] if (name := _registry_name(cls)) is not None else None


def _registry_name(cls: Any) -> str | None:
    name = cls.name if isinstance(cls, Builtin) else cls.qualname if isinstance(cls, (Namespace, ClassVal)) else None
    return name if name in _CLASSES and (lookup(name) is cls or lookup(name) == cls) else None


def _class_names(part: int) -> Any:
    """`cls.__module__` (0) or `cls.__qualname__`/`__name__` (1) of a modeled class of `_CLASSES`."""
    def get(ctx: Any, cls: Any) -> Any:
        names = cpython_names(cls)
        return ctx.unknown("a class's names") if names is None else names[part] if part == 0 else \
            names[1].rsplit(".", 1)[-1] if part == 2 else names[1]
    return get


@native_class("types.NoneType", identity_eq=True)
class NoneType:
    """`type(None)` (`types.NoneType` since Python 3.10): `type(x) is type(None)` is decided."""


NoneType.ns["__module__"] = "builtins"  # type: ignore[attr-defined]

# `torch.Tensor.__module__` is "torch", `int.__qualname__` "int" (torch-geometric prints its parameters'
# hints from them): a class read through a namespace (`torch.Tensor`) by the registry, a builtin by a property
for _name in _CLASSES:
    for _attr, _part in (("__module__", 0), ("__qualname__", 1), ("__name__", 2)):
        prop(f"{_name}.{_attr}")(_class_names(_part))
        if not _name.startswith(("builtins.", "types.")):
            register(f"{_name}.{_attr}", _CLASSES[_name][_part] if _part < 2 else _CLASSES[_name][1].rsplit(".", 1)[-1])
