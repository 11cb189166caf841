"""`getattr`, `setattr` and `hasattr`: whether a value has an attribute where the analyzer can be sure
(an instance of a class it fully knows, a torch tensor or the class `nn.Module`, against the names torch
gives them; a class whose bases are the program's, `object` and `nn.Module`, made by `type`), and
`hasattr` True for an attribute held whatever its value."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model
from pytea_ci.models.torch.tensor_attrs import MODULE_ATTRS, TENSOR_ATTRS
from pytea_ci.models.values import (MISSING, OPAQUE, TENSOR_ATTRS_SET, ClassVal, Instance, Namespace, PropertyVal,
                                    Unknown, lacks_attribute)
from pytea_ci.shapes.dim import PInt
from pytea_ci.shapes.tensor import Tensor


@model("builtins.getattr")
def getattr_(ctx: Ctx, obj: Any, name: Any, *default: Any) -> Any:
    if not isinstance(name, str):
        return ctx.unknown("getattr with unknown name")
    if default and _lacks(ctx, obj, name):
        return default[0]
    if not default:
        return ctx.getattr(obj, name)
    try:
        return ctx.getattr(obj, name)
    except Exception as e:  # AttributeError (a user `__getattr__`'s, or a miss): the default, as in Python
        if getattr(e, "kind", None) == "AttributeError":
            return default[0]
        raise


def _lacks(ctx: Ctx, obj: Any, name: str) -> bool:
    """Whether an instance of a class the analyzer fully knows has no attribute `name` (its class
    has no `__getattr__` fallback and no base the analyzer does not know); or whether a torch tensor has
    no attribute `name` (torch's tensors lack it, and the program set no attribute of that name on a tensor);
    or whether the class `torch.nn.Module` has none (torch's lacks it, and the program set none on it)."""
    if isinstance(obj, Tensor):
        return obj.lib == "torch" and name not in TENSOR_ATTRS and name not in ctx.facts.get(TENSOR_ATTRS_SET, ())
    if lacks_attribute(obj, name):
        return True
    if isinstance(obj, ClassVal):
        return class_lacks(obj, name)
    if not isinstance(obj, Instance) or name in obj.attrs or obj.cls.lookup(name) is not MISSING:
        return False
    return obj.cls.lookup("__getattr__") is MISSING and obj.cls.lookup("__opaque_base__") is MISSING \
        and OPAQUE not in obj.attrs


_TYPE_NAMES = frozenset(dir(type))  # what every class made by `type` has (its metaclass's: `mro`, ...)


def class_lacks(cls: ClassVal, name: str) -> bool:
    """Whether the class `cls` has no attribute `name`, as CPython's `type.__getattribute__` finds none:
    not in the namespace of a class of its MRO, each of them the program's or one whose attributes are
    known (`object`; `torch.nn.Module`, against torch's names), its metaclass `type` (no `metaclass=`),
    and no attribute set on it that the analysis does not know (a name not known, code not followed:
    `OPAQUE`). Special names (`__x__`) are never decided: the interpreter probes them for protocols."""
    if (name.startswith("__") and name.endswith("__")) or name in _TYPE_NAMES:
        return False
    for c in cls.mro():
        if name in c.ns or OPAQUE in c.ns or "__opaque_base__" in c.ns:
            return False
        if c.native and c.qualname == "torch.nn.Module":
            if name in MODULE_ATTRS:
                return False
        elif c.native and c.name != "object":
            return False  # a modeled class whose attributes are not listed
    return True


@model("builtins.setattr")
def setattr_(ctx: Ctx, obj: Any, name: Any, value: Any) -> Any:
    if isinstance(name, str):
        ctx.setattr(obj, name, value)
    elif isinstance(obj, Instance):
        obj.attrs[OPAQUE] = True  # an attribute of a name not known: any name may be there now
    elif isinstance(obj, ClassVal) and not obj.native:
        obj.ns[OPAQUE] = True
    return None


@model("builtins.hasattr")
def hasattr_(ctx: Ctx, obj: Any, name: Any) -> Any:
    """True when the attribute is found (in a modeled library too: `hasattr(F, "scaled_dot_product_attention")`),
    False only where absence is certain, else a bool of unknown value."""
    if not isinstance(name, str) or isinstance(obj, Unknown):
        return Unknown("hasattr", pytype="bool")
    if _lacks(ctx, obj, name):
        return False
    if type(obj) in (list, tuple, dict, set, str, int, float, bool, type(None), PInt):
        return hasattr(int if type(obj) is PInt else obj, name)  # the real built-in type answers
    if isinstance(obj, (Instance, ClassVal, Namespace, Tensor)) or type(obj).__name__ == "ModuleVal":
        try:
            found = ctx.getattr(obj, name)
        except Exception as e:  # a user `__getattr__` raising AttributeError: hasattr is False, as in Python
            if getattr(e, "kind", None) == "AttributeError":
                return False
            raise
        if not isinstance(found, Unknown) or _stored(obj, name):
            return True
    return Unknown("hasattr", pytype="bool")


def _stored(obj: Any, name: str) -> bool:
    """Whether `name` is in an instance's own attributes or a plain attribute of its class (not a descriptor,
    which may raise AttributeError): found, whatever its value (a value not known is still there)."""
    if not isinstance(obj, Instance):
        return False
    found = obj.cls.lookup(name)
    return (name in obj.attrs or found is not MISSING) and not isinstance(found, (PropertyVal, Instance))
