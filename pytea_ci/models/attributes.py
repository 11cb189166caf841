"""`getattr`, `setattr` and `hasattr`: whether a value has an attribute where the analyzer can be sure
(an instance of a class it fully knows, a torch tensor or the class `nn.Module`, against the names torch
gives them; a class whose bases are the program's, `object` and `nn.Module`, made by `type`), and
`hasattr` True for an attribute held whatever its value."""

from __future__ import annotations

import builtins
import functools
import importlib
import sys
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import RECORDED_ATTRS, model
from pytea_ci.models.torch.tensor_attrs import (LAYER_ATTRS, LAYER_COMPUTED_NAMES, LAYER_INSTANCE_NAMES,
                                                LAYER_NUMBERED_NAMES, MODULE_ATTRS, MODULE_INSTANCE_ATTRS,
                                                TENSOR_ATTRS)
from pytea_ci.models.values import (MISSING, OBJECT_NAMES, OPAQUE, TENSOR_ATTRS_SET, ClassVal, Instance, Namespace,
                                    PropertyVal, Unknown, lacks_attribute)
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
    """Whether `obj` has no attribute `name`, where CPython's lookup is certain to find none: an instance
    or a class whose MRO the analyzer knows (`_mro_lacks`), an instance whose class has no `__getattr__`
    fallback and was never given attributes of names not known; a torch tensor (torch's tensors lack it,
    and the program set no attribute of that name on a tensor); a plain tuple; a Python function no code
    `abc.abstractmethod` did not mark (`getattr(f, '__isabstractmethod__', False)`: torch_geometric's
    `Inspector.implements`; the other decorators modeled as returning the function unchanged may set other
    names in CPython, so no other name of a function is decided absent)."""
    if isinstance(obj, Tensor):
        return obj.lib == "torch" and name not in TENSOR_ATTRS and name not in ctx.facts.get(TENSOR_ATTRS_SET, ())
    if lacks_attribute(obj, name):
        return True
    if getattr(obj, "python_function", False) and name == "__isabstractmethod__":
        return name not in obj.attrs  # set only by `abc.abstractmethod` (its model: stdlib.py) or the program
    if isinstance(obj, ClassVal):
        return class_lacks(obj, name)
    if not isinstance(obj, Instance) or name in obj.attrs or obj.cls.lookup(name) is not MISSING:
        return False
    return obj.cls.lookup("__getattr__") is MISSING and OPAQUE not in obj.attrs \
        and _mro_lacks(obj.cls, name, instance=True)


_TYPE_NAMES = frozenset(dir(type))  # what every class made by `type` has (its metaclass's: `mro`, ...)
# Names a class may hold that the program did not write, depending on the Python that runs it or on how the
# class is written (`__slots__` drops `__dict__`/`__weakref__`; generics, annotations, 3.12-3.14's type
# parameters, first line and static attributes, lazy annotations): never decided either way
_MAYBE_NAMES = frozenset({"__getstate__", "__dict__", "__weakref__", "__annotations__", "__orig_bases__",
                          "__parameters__", "__type_params__", "__firstlineno__", "__static_attributes__",
                          "__annotate__", "__annotate_func__", "__annotations_cache__", "__orig_class__",
                          "__match_args__", "__dataclass_params__", "__final__"})


def class_lacks(cls: ClassVal, name: str) -> bool:
    """Whether the class `cls` has no attribute `name`, as CPython's `type.__getattribute__` finds none:
    not in its metaclass `type` (a class with another metaclass holds `OPAQUE`) and not found by
    `_mro_lacks`."""
    return name not in _TYPE_NAMES and _mro_lacks(cls, name, instance=False)


def _mro_lacks(cls: ClassVal, name: str, instance: bool) -> bool:
    """Whether no class of `cls`'s MRO holds `name`: each of them the program's (its namespace is what the
    program wrote, and nothing set on it under a name not known: `OPAQUE`) or one whose attributes are
    known (`object`: `OBJECT_NAMES`; `torch.nn.Module`: torch's names, and for an instance the attributes
    `Module.__init__` sets, `MODULE_INSTANCE_ATTRS`: timm's `getattr(model, "_traits", {})` is the default);
    a name CPython may put in a class by itself (`_MAYBE_NAMES`, the module and docstring of a program's
    class) is never lacking."""
    if name in _MAYBE_NAMES or name in OBJECT_NAMES:
        return False
    for c in cls.mro():
        if name in c.ns or OPAQUE in c.ns or "__opaque_base__" in c.ns:
            return False
        if not c.native:
            slots = _slot_names(c)
            if name in ("__module__", "__doc__") or slots is None or name in slots:
                return False  # (a slot is a descriptor of the class; slots not known may be any name)
        elif c.qualname == "torch.nn.Module":
            if name in MODULE_ATTRS or (instance and name in MODULE_INSTANCE_ATTRS):
                return False
        elif c.qualname in LAYER_ATTRS:  # a torch.nn class: its own names, and what its source may set on `self`
            if name in LAYER_ATTRS[c.qualname] or (instance and (
                    name in LAYER_INSTANCE_NAMES.get(c.qualname, ()) or _computed_name(c.qualname, name))):
                return False
        elif c.name != "object":
            real = _cpython_type(c)
            if real is None or _holds(real, name) or (real.__module__ != "builtins" and (
                    _private(name) or (instance and RECORDED_ATTRS not in c.ns))):
                return False  # a modeled class whose attributes are not listed, or a CPython type that has it
    return True


def _computed_name(layer: str, name: str) -> bool:
    """Whether the torch class `layer` may set `name` on an instance under a name its source computes: any name
    (an RNN's `weight_ih_l0`, a Sequential's keys), or of a ModuleList or ParameterList a number (`"0"`)."""
    if layer not in LAYER_COMPUTED_NAMES:
        return False
    return layer not in LAYER_NUMBERED_NAMES or name.lstrip("-").isdigit()


def may_be_found(cls: ClassVal, name: str) -> bool:
    """Whether CPython's lookup of `name` on an instance of `cls` may find it before `__getattr__` is asked,
    though no class of `cls` holds it in the analyzer's namespaces: `object`'s names, names CPython may put
    in a class by itself (`_MAYBE_NAMES`), a slot, what a builtin base (`Exception.with_traceback`),
    `nn.Module` or a torch layer class has (`_builtin_has`). (A modeled class whose names are not listed answers through its own `__getattr__`.)"""
    if name in OBJECT_NAMES or name in _MAYBE_NAMES or _builtin_has(cls, name):
        return True
    return any(name in (_slot_names(c) or ()) for c in cls.mro() if not c.native)


SLOTTED = "__slotted__"  # in a class namespace: a modeled class factory made it with `__slots__` (attrs' define)


def no_slot_for(cls: ClassVal, name: str) -> bool:
    """Whether CPython's `obj.name = v` on an instance of `cls`, a class a modeled factory made slotted,
    raises AttributeError: no class of its MRO has a slot `name`, and every program class of it declares
    `__slots__` (else instances have a `__dict__`). Only for factory-made classes: a program's own
    `__slots__` is not enforced (a modeled base's may not be listed)."""
    if cls.lookup(SLOTTED) is not True or cls.lookup(name) is not MISSING:
        return False
    mine = [c for c in cls.mro() if not c.native]
    if any(c.qualname != "builtins.object" for c in cls.mro() if c.native) or any(_slot_names(c) is None or "__slots__" not in c.ns for c in mine):
        return False
    return not any(name in (_slot_names(c) or ()) or "__dict__" in (_slot_names(c) or ()) for c in mine)


def _slot_names(c: ClassVal) -> tuple[str, ...] | None:
    """The slots a program's class declares (`__slots__ = ("w",)` or `"w"`); None where they are not known."""
    slots = c.ns.get("__slots__", ())
    if isinstance(slots, str):
        return (slots,)
    return tuple(slots) if isinstance(slots, (tuple, list)) else None


def _private(name: str) -> bool:
    """`_get_kwargs`, not `__contains__`: a standard-library class's private names change between versions."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _holds(real: type, name: str) -> bool:
    """Whether a class of the MRO of the CPython type `real` holds `name` (not its metaclass: `__qualname__`)."""
    return any(name in vars(k) for k in real.__mro__)


def _cpython_type(c: ClassVal) -> type | None:
    """The CPython type a modeled class of the builtins or the standard library stands for (`dict`,
    `Exception`, `argparse.Namespace`), whose attributes Python itself lists; None for another library's
    (never imported: the analyzer needs none of them). A standard-library class's private names
    (`_get_kwargs`) and its instances' own attributes are not taken from it: they differ between Python
    versions, and an instance's come from its `__init__` (`recorded_attrs` classes record them)."""
    return _cpython_type_named(c.qualname.removesuffix(".__base__"))  # `builtins.dict.__base__`: dict


@functools.lru_cache(maxsize=None)
def _cpython_type_named(qual: str) -> type | None:
    module, _, name = qual.rpartition(".")
    if module == "builtins":
        found = getattr(builtins, name, None)
    elif module.partition(".")[0] in sys.stdlib_module_names:
        try:
            found = getattr(importlib.import_module(module), name, None)
        except ImportError:  # a module this Python does not have (another platform's)
            found = None
    else:
        found = None
    return found if isinstance(found, type) else None


@model("builtins.setattr")
def setattr_(ctx: Ctx, obj: Any, name: Any, value: Any) -> Any:
    if isinstance(name, str):
        ctx.setattr(obj, name, value)
    elif isinstance(obj, Instance):
        obj.attrs[OPAQUE] = True  # an attribute of a name not known: any name may be there now
    elif isinstance(obj, ClassVal) and not obj.native:
        obj.ns[OPAQUE] = True
    return None


@model("builtins.delattr")
def delattr_(ctx: Ctx, obj: Any, name: Any) -> Any:
    """`delattr(obj, name)`, as `del obj.name` (transformers 5's `get_text_config` renames a copied config's
    attributes so): without it the object was handed to code not followed and any attribute might be there."""
    if isinstance(name, str) and isinstance(obj, Instance) and name not in obj.attrs and OPAQUE not in obj.attrs \
            and all("__delattr__" not in c.ns for c in obj.cls.mro()):
        ctx.user_error("AttributeError", name)  # nothing of that name on the instance: CPython's AttributeError
    if isinstance(name, str) and isinstance(obj, (Instance, ClassVal)):
        ctx.delattr(obj, name)
    elif isinstance(obj, Instance):
        obj.attrs[OPAQUE] = True  # which attribute went is not known (none of the others is there now)
    else:
        return ctx.unknown("delattr")
    return None


@model("builtins.hasattr")
def hasattr_(ctx: Ctx, obj: Any, name: Any) -> Any:
    """True when the attribute is found (in a modeled library too: `hasattr(F, "scaled_dot_product_attention")`),
    False only where absence is certain, else a bool of unknown value."""
    if not isinstance(name, str) or isinstance(obj, Unknown):
        return Unknown("hasattr", pytype="bool")
    if _lacks(ctx, obj, name):
        return False
    if _surely_has(obj, name):
        return True
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


# What every class has from its metaclass `type` beside what it inherits from `object`
_CLASS_NAMES = OBJECT_NAMES | {"__name__", "__qualname__", "__module__", "__mro__", "__bases__", "__base__",
                               "__doc__", "mro", "__subclasses__", "__dict__"}


def _surely_has(obj: Any, name: str) -> bool:
    """Whether CPython's lookup finds `name` on every run: what an instance inherits from `object` (its class
    has no `__getattribute__` of its own that might refuse it), what every class made by `type` has."""
    if isinstance(obj, Instance):
        if any("__getattribute__" in c.ns for c in obj.cls.mro() if not c.native):
            return False  # the program's own lookup may refuse any name
        return name in OBJECT_NAMES or (name in ("__dict__", "__weakref__") and _plain_layout(obj.cls)) \
            or _builtin_has(obj.cls, name)
    if isinstance(obj, ClassVal):
        if any(OPAQUE in c.ns for c in obj.mro()):
            return False
        return name in _CLASS_NAMES or (name == "__weakref__" and _plain_layout(obj)) or _builtin_has(obj, name)
    return False


def _builtin_has(cls: ClassVal, name: str) -> bool:
    """Whether a builtin base of `cls` (`dict`, `Exception`) has `name` as CPython lists it (`keys`,
    `with_traceback`; not an instance attribute such as `args`), or `nn.Module` or a torch layer class does
    (`zero_grad`, `reset_parameters`)."""
    return any(c.native and ((real := _cpython_type(c)) is not None and _holds(real, name)
                             and (real.__module__ == "builtins" or not _private(name))
                             or c.qualname == "torch.nn.Module" and name in MODULE_ATTRS
                             or name in LAYER_ATTRS.get(c.qualname, ())) for c in cls.mro())


def _plain_layout(cls: ClassVal) -> bool:
    """Whether instances of `cls` have a `__dict__` and `__weakref__`: its classes are the program's (none
    with `__slots__`) and `object`."""
    return all(("__slots__" not in c.ns) if not c.native else c.name == "object" for c in cls.mro())


def _stored(obj: Any, name: str) -> bool:
    """Whether `name` is in an instance's own attributes or a plain attribute of its class (not a descriptor,
    which may raise AttributeError): found, whatever its value (a value not known is still there)."""
    if not isinstance(obj, Instance):
        return False
    found = obj.cls.lookup(name)
    return (name in obj.attrs or found is not MISSING) and not isinstance(found, (PropertyVal, Instance))
