"""The class-making parts of the standard library, as CPython builds them: `@dataclass` (fields,
generated `__init__`, `__post_init__`, `frozen`, inheritance, `replace/asdict/astuple/fields`),
`typing.NamedTuple` and `collections.namedtuple`, `types.SimpleNamespace` and `enum.Enum`.

A modeled base may carry a `__class_hook__`: what its metaclass does to a class body, run by the
interpreter when a class deriving from it is created.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import REGISTRY, model, native_class, register
from pytea_ci.models.values import (MISSING, BoundMethod, Builtin, ClassMethod, ClassVal, EnumInt, EnumMember, EnumStr, Instance,
                                    NamedTupleVal, PropertyVal, StaticMethod, Unknown, is_concrete, plain_member)
from pytea_ci.shapes.dim import PInt


# ----- dataclasses --------------------------------------------------------------------------------
@native_class("dataclasses.Field", identity_eq=True)
class Field:
    pass


@native_class("dataclasses._MISSING_TYPE", identity_eq=True)
class _MissingType:
    pass


def _native(qualname: str) -> ClassVal:
    """A modeled class by name (the decorated Python classes of this module are ClassVals)."""
    found = REGISTRY[qualname]
    assert isinstance(found, ClassVal)
    return found


def _frozen_error() -> ClassVal:
    from pytea_ci.models.registry import lookup

    base = lookup("builtins.AttributeError")
    return ClassVal("FrozenInstanceError", (base,) if isinstance(base, ClassVal) else (), {},
                    "dataclasses.FrozenInstanceError", native=True)


register("dataclasses.FrozenInstanceError", _frozen_error())
NO_DEFAULT = Instance(_MissingType)
register("dataclasses.MISSING", NO_DEFAULT)
register("dataclasses.KW_ONLY", Instance(_MissingType, {"kw_only_marker": True}))


def _field(name: str = "", default: Any = NO_DEFAULT, default_factory: Any = NO_DEFAULT, init: Any = True,
           kw_only: Any = None, **_: Any) -> Instance:
    return Instance(Field, {"name": name, "type": None, "default": default, "default_factory": default_factory,
                            "init": init, "kw_only": kw_only})


@model("dataclasses.field")
def field(ctx: Ctx, *, default: Any = NO_DEFAULT, default_factory: Any = NO_DEFAULT, init: Any = True,
          repr: Any = True, hash: Any = None, compare: Any = True, metadata: Any = None,
          kw_only: Any = None) -> Any:
    return _field(default=default, default_factory=default_factory, init=init, kw_only=kw_only)


def _is_field(v: Any) -> bool:
    return isinstance(v, Instance) and v.cls is Field


def _own_fields(cls: ClassVal, kw_only: bool) -> dict[str, Instance]:
    """The fields a class body declares, in order: annotated names that are not ClassVar/InitVar."""
    out: dict[str, Instance] = {}
    for name, ann in dict(cls.ns.get("__annotations__", {})).items():
        if re.search(r"\bClassVar\b", ann) or re.search(r"\bInitVar\b", ann):
            continue
        value = cls.ns.get(name, NO_DEFAULT)
        if isinstance(value, Instance) and value.attrs.get("kw_only_marker"):
            kw_only = True  # `_: KW_ONLY`: the fields after it are keyword-only
            cls.ns.pop(name, None)
            continue
        spec = value if _is_field(value) else _field(default=value)
        spec.attrs.update(name=name, type=ann)
        if spec.attrs["kw_only"] is None:
            spec.attrs["kw_only"] = kw_only
        if spec.attrs["default"] is NO_DEFAULT:
            cls.ns.pop(name, None)  # CPython leaves no class attribute for a field without a default
        else:
            cls.ns[name] = spec.attrs["default"]
        out[name] = spec
    return out


def make_dataclass(cls: ClassVal, init: Any = True, frozen: Any = False, kw_only: Any = False, eq: Any = True,
                   order: Any = False) -> ClassVal:
    fields: dict[str, Instance] = {}
    for base in reversed(cls.mro()[1:]):
        inherited = base.ns.get("__dataclass_fields__")
        if isinstance(inherited, dict):
            fields.update(inherited)
    fields.update(_own_fields(cls, kw_only is True))
    cls.ns["__dataclass_fields__"] = fields
    if frozen is True:
        cls.ns["__frozen__"] = True
    if init is not False and "__init__" not in cls.ns:
        cls.ns["__init__"] = Builtin(f"{cls.qualname}.__init__", dataclass_init)
    for op in ("eq", "lt", "le", "gt", "ge") if order is True else ("eq",) if eq is not False else ():
        if f"__{op}__" not in cls.ns:
            cls.ns[f"__{op}__"] = Builtin(f"{cls.qualname}.__{op}__", _field_comparison(op))
    return cls


def _field_comparison(op: str) -> Any:
    """The `__eq__` (and, with order=True, `__lt__`...) that `@dataclass` writes: the fields of two
    instances of the same class compared as tuples; another class: NotImplemented (`==` falls back to
    identity, an order comparison raises TypeError)."""
    def compare(ctx: Ctx, self: Instance, other: Any) -> Any:
        if not isinstance(other, Instance) or other.cls is not self.cls:
            return None  # NotImplemented
        names = list(_fields_of(self) or {})
        return ctx.compare_values(op, tuple(self.attrs.get(n) for n in names), tuple(other.attrs.get(n) for n in names))
    return compare


@model("dataclasses.dataclass")
def dataclass(ctx: Ctx, cls: Any = None, /, **params: Any) -> Any:
    if cls is None:
        return Builtin("dataclasses.dataclass.decorator", lambda c, k: dataclass(c, k, **params))
    if not isinstance(cls, ClassVal):
        return ctx.unknown("dataclass of an unknown class")
    names = ("init", "frozen", "kw_only", "eq", "order")
    return make_dataclass(cls, **{k: v for k, v in params.items() if k in names})


def _fields_of(obj: Any) -> dict[str, Instance] | None:
    cls = obj if isinstance(obj, ClassVal) else (obj.cls if isinstance(obj, Instance) else None)
    found = cls.lookup("__dataclass_fields__") if cls is not None else MISSING
    return found if isinstance(found, dict) else None


def _default(ctx: Ctx, spec: Instance) -> Any:
    if spec.attrs["default_factory"] is not NO_DEFAULT:
        return ctx.call(spec.attrs["default_factory"])
    return spec.attrs["default"]


def init_arguments(ctx: Ctx, fields: dict[str, Instance], args: tuple[Any, ...], kwargs: dict[str, Any],
                   key: str = "name") -> dict[str, Any]:
    """The arguments a generated `__init__` binds to its fields (each field's parameter named by its `key`
    attribute: a dataclass's `name`, an attrs class's `alias`): the fields it takes, positional then keyword,
    in order. A call that does not fit raises TypeError in the analyzed program, as CPython's."""
    takes = [f for f in fields.values() if f.attrs["init"] is not False]
    positional = [f.attrs[key] for f in takes if f.attrs["kw_only"] is not True]
    if len(args) > len(positional):
        ctx.user_error("TypeError", "__init__() takes too many positional arguments")
    values = dict(zip(positional, args))
    for k, v in kwargs.items():
        if k in values or k not in {f.attrs[key] for f in takes}:
            ctx.user_error("TypeError", f"__init__() got an unexpected or repeated argument {k!r}")
        values[k] = v
    return values


def dataclass_init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
    """The `__init__` that `@dataclass` writes: fields in order, positional then keyword, then
    `__post_init__`. A call that does not fit raises TypeError in the analyzed program."""
    fields = _fields_of(self) or {}
    values = init_arguments(ctx, fields, args, kwargs)
    for spec in fields.values():
        name = spec.attrs["name"]
        if name not in values:
            if spec.attrs["default"] is NO_DEFAULT and spec.attrs["default_factory"] is NO_DEFAULT:
                if spec.attrs["init"] is not False:
                    ctx.user_error("TypeError", f"__init__() missing argument {name!r}")
                continue
            values[name] = _default(ctx, spec)
        self.attrs[name] = values[name]
    post = self.cls.lookup("__post_init__")
    if post is not MISSING:
        ctx.call(post, self)


@model("dataclasses.fields")
def fields(ctx: Ctx, obj: Any) -> Any:
    found = _fields_of(obj)
    if found is None:
        return ctx.unknown("fields of a value that is not a known dataclass")
    return tuple(found.values())


@model("dataclasses.is_dataclass")
def is_dataclass(ctx: Ctx, obj: Any) -> Any:
    if isinstance(obj, Unknown):
        return Unknown("is_dataclass", pytype="bool")
    return _fields_of(obj) is not None


@model("dataclasses.replace")
def replace(ctx: Ctx, obj: Any, /, **changes: Any) -> Any:
    found = _fields_of(obj)
    if found is None or not isinstance(obj, Instance):
        return ctx.unknown("replace of a value that is not a known dataclass")
    kwargs = {n: obj.attrs[n] for n, f in found.items() if f.attrs["init"] is not False and n in obj.attrs}
    kwargs.update(changes)
    return ctx.call(obj.cls, **kwargs)


def _as_plain(ctx: Ctx, v: Any, as_tuple: bool) -> Any:
    found = _fields_of(v) if isinstance(v, Instance) else None
    if found is not None:
        parts = [_as_plain(ctx, v.attrs.get(n, Unknown("field")), as_tuple) for n in found]
        return tuple(parts) if as_tuple else dict(zip(found, parts))
    if isinstance(v, (list, tuple)) and not isinstance(v, NamedTupleVal):
        return type(v)(_as_plain(ctx, x, as_tuple) for x in v)
    if isinstance(v, dict):
        return {k: _as_plain(ctx, x, as_tuple) for k, x in v.items()}
    return v


@model("dataclasses.asdict")
def asdict(ctx: Ctx, obj: Any, **kwargs: Any) -> Any:
    return _as_plain(ctx, obj, False) if _fields_of(obj) is not None else ctx.unknown("asdict")


@model("dataclasses.astuple")
def astuple(ctx: Ctx, obj: Any, **kwargs: Any) -> Any:
    return _as_plain(ctx, obj, True) if _fields_of(obj) is not None else ctx.unknown("astuple")


# ----- named tuples -------------------------------------------------------------------------------
def _new_named_tuple(ctx: Ctx, cls: ClassVal, *args: Any, **kwargs: Any) -> Any:
    names = cls.lookup("_fields")
    defaults = cls.lookup("_field_defaults")
    if not isinstance(names, tuple) or not isinstance(defaults, dict):
        return ctx.unknown("named tuple")
    if len(args) > len(names):
        ctx.user_error("TypeError", "too many arguments for a named tuple")
    values = dict(zip(names, args))
    for k, v in kwargs.items():
        if k in values or k not in names:
            ctx.user_error("TypeError", f"unexpected or repeated field {k!r}")
        values[k] = v
    for n in names:
        if n not in values:
            if n not in defaults:
                ctx.user_error("TypeError", f"missing field {n!r}")
            values[n] = defaults[n]
    return NamedTupleVal.of(cls, [values[n] for n in names])


@native_class("typing.NamedTuple")
class NamedTuple:
    def _replace(ctx: Ctx, self: Any, **changes: Any) -> Any:
        if not isinstance(self, NamedTupleVal):
            return ctx.unknown("_replace")
        values = dict(zip(self.cls.lookup("_fields"), self))
        for k, v in changes.items():
            if k not in values:
                ctx.user_error("ValueError", f"unexpected field {k!r}")
            values[k] = v
        return NamedTupleVal.of(self.cls, list(values.values()))

    def _asdict(ctx: Ctx, self: Any) -> Any:
        return dict(zip(self.cls.lookup("_fields"), self)) if isinstance(self, NamedTupleVal) else ctx.unknown("_asdict")


def _bind_factory(cls: ClassVal) -> None:
    """`Cls(...)` builds the tuple (a named tuple's `__new__`), for the class and its subclasses."""
    cls.ns["__new_value__"] = Builtin(f"{cls.qualname}.__new__",
                                      lambda ctx, *a, **k: _new_named_tuple(ctx, cls, *a, **k))
    cls.ns["_make"] = ClassMethod(Builtin(f"{cls.qualname}._make",
                                          lambda ctx, c, it: _new_named_tuple(ctx, c, *(ctx.iterate(it) or ()))))


def named_tuple_hook(ctx: Ctx, cls: ClassVal, **kwargs: Any) -> Any:
    """`class Spec(NamedTuple): a: int; b: int = 2`: annotated names are the fields, in order."""
    if _native("typing.NamedTuple") not in cls.bases:
        if isinstance(cls.lookup("_fields"), tuple):
            _bind_factory(cls)  # a subclass of a named tuple class keeps its fields
        return cls
    names = tuple(cls.ns.get("__annotations__", {}))
    defaults = {n: cls.ns.pop(n) for n in names if n in cls.ns}
    cls.ns.update(_fields=names, _field_defaults=defaults)
    _bind_factory(cls)
    return cls


_native("typing.NamedTuple").ns["__class_hook__"] = Builtin("typing.NamedTuple.__class_hook__", named_tuple_hook)


@model("collections.namedtuple")
def namedtuple(ctx: Ctx, typename: Any, field_names: Any, *, rename: Any = False, defaults: Any = None,
               module: Any = None) -> Any:
    if isinstance(field_names, str):
        names: Any = tuple(field_names.replace(",", " ").split())
    else:
        names = tuple(ctx.iterate(field_names) or ()) if not isinstance(field_names, Unknown) else None
    if not isinstance(typename, str) or not names or not all(isinstance(n, str) for n in names):
        return ctx.unknown("namedtuple with unknown fields")
    given = list(ctx.iterate(defaults) or []) if defaults is not None else []
    cls = ClassVal(typename, (_native("typing.NamedTuple"),), {}, f"collections.{typename}")
    cls.ns.update(_fields=names, _field_defaults=dict(zip(names[len(names) - len(given):], given)))
    _bind_factory(cls)
    return cls


def named_tuple_value(qualname: str, names: tuple[str, ...], values: tuple[Any, ...]) -> NamedTupleVal:
    """A value of a named tuple class the standard library defines (`sys.version_info`): its fields by
    name, a tuple for everything else."""
    cls = ClassVal(qualname.rpartition(".")[2], (_native("typing.NamedTuple"),), {}, qualname)
    cls.ns.update(_fields=names, _field_defaults={})
    _bind_factory(cls)
    return NamedTupleVal.of(cls, values)


# ----- types.SimpleNamespace ----------------------------------------------------------------------
@native_class("types.SimpleNamespace", recorded_attrs=True)
class SimpleNamespace:
    def init(ctx: Ctx, self: Instance, mapping: Any = None, /, **kwargs: Any) -> None:
        if isinstance(mapping, dict):
            self.attrs.update({k: v for k, v in mapping.items() if isinstance(k, str)})
        elif mapping is not None:
            self.attrs["__opaque__"] = True
        self.attrs.update(kwargs)


# ----- enum ---------------------------------------------------------------------------------------
@native_class("enum.auto", identity_eq=True)
class auto:
    pass


def _is_member(name: str, v: Any) -> bool:
    callables = (Builtin, ClassMethod, StaticMethod, PropertyVal, ClassVal)
    return not name.startswith("_") and not isinstance(v, callables) and type(v).__name__ != "FunctionVal"


def enum_hook(ctx: Ctx, cls: ClassVal, **kwargs: Any) -> Any:
    """`class Color(Enum): RED = 1`: each plain class attribute becomes a member with `.name` and
    `.value`; `Color(1)`, `Color["RED"]` and iteration find them. A member of an enum mixing in `int` or
    `str` (`IntEnum`, `IntFlag`, `StrEnum`, `class Kind(str, Enum)`) is that int or str (values.EnumInt,
    EnumStr). A name whose value an earlier member has is an alias of that member, as in CPython."""
    kinds = {c.qualname for c in cls.mro()}
    mixin = _mixin(cls, kinds)
    members: dict[str, Any] = {}
    counter = 0
    for name, v in list(cls.ns.items()):
        if not _is_member(name, v):
            continue
        if isinstance(v, Instance) and v.cls is auto:
            v = _next_value(kinds, name, counter)
        if isinstance(v, int) and not isinstance(v, bool):
            counter = v
        alias = next((m for m in members.values() if _equal(_value_of(m), v)), None)
        member = alias if alias is not None else _make_member(cls, kinds, mixin, name, v)
        cls.ns[name] = members[name] = member
    cls.ns["__members__"] = members
    canonical = list(dict.fromkeys(members.values()))  # aliases once (dict keys by identity for Instances)
    if kinds & {"enum.Flag", "enum.IntFlag"}:  # Python 3.11+: a Flag class iterates its one-bit members
        canonical = [m for m in canonical if _is_bit(_value_of(m))]
    if all(is_concrete(_value_of(m)) for m in canonical):  # else which names are aliases is not known
        cls.ns["__member_list__"] = canonical
    cls.ns["__new_value__"] = Builtin(f"{cls.qualname}.__new__", lambda c, value: _enum_by_value(c, cls, value))
    return cls


def _mixin(cls: ClassVal, kinds: set[str]) -> type | None:
    """The data type an enum mixes in: `int` (IntEnum, IntFlag, `class E(int, Enum)`), `str` (StrEnum,
    `class E(str, Enum)`), else None (members are plain objects holding their value)."""
    opaque = cls.lookup("__opaque_bases__")
    bases = set(opaque) if isinstance(opaque, tuple) else set()
    if kinds & {"enum.IntEnum", "enum.IntFlag"} or "builtins.int" in bases:
        return int
    if "enum.StrEnum" in kinds or "builtins.str" in bases:
        return str
    return None


def _make_member(cls: ClassVal, kinds: set[str], mixin: type | None, name: str, v: Any) -> Any:
    own_str = any("__str__" in c.ns for c in cls.mro() if not c.native)  # then str() runs the program's
    if mixin is int and type(v) in (int, PInt):
        # str(): int's own text for IntEnum/IntFlag (3.11+), `Cls.NAME` for a plain `(int, Enum)` mixin
        shown = str(int(v)) if kinds & {"enum.IntEnum", "enum.IntFlag"} else f"{cls.name}.{name}"
        return EnumInt(int(v), name, cls, None if own_str else shown)
    if mixin is str and type(v) is str:
        shown = v if "enum.StrEnum" in kinds else f"{cls.name}.{name}"
        return EnumStr(v, name, cls, None if own_str else shown)
    return Instance(cls, {"name": name, "value": v, "_name_": name, "_value_": v})


def _value_of(member: Any) -> Any:
    if isinstance(member, Instance):
        return member.attrs.get("value")
    return plain_member(member) if isinstance(member, EnumMember) else member


def _equal(a: Any, b: Any) -> bool:
    return is_concrete(a) and is_concrete(b) and a == b


def _is_bit(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v > 0 and v & (v - 1) == 0


def _next_value(kinds: set[str], name: str, last: int) -> Any:
    """What `auto()` gives, as the class's `_generate_next_value_`: the next power of two in a Flag
    (1, 2, 4, ...), the lower-cased name in a StrEnum, else the last value plus one."""
    if kinds & {"enum.Flag", "enum.IntFlag"}:
        return 2 ** last.bit_length()
    if "enum.StrEnum" in kinds:
        return name.lower()
    return last + 1


def _enum_by_value(ctx: Ctx, cls: ClassVal, value: Any) -> Any:
    members = cls.lookup("__members__")
    for m in (members.values() if isinstance(members, dict) else ()):
        v = _value_of(m)
        if is_concrete(value) and is_concrete(v) and v == value:
            return m
    if is_concrete(value):
        ctx.user_error("ValueError", f"{value!r} is not a valid {cls.name}")
    return ctx.unknown(f"{cls.name} member")


@native_class("enum.Enum", identity_eq=True)
class Enum:
    pass


_native("enum.Enum").ns["__class_hook__"] = Builtin("enum.Enum.__class_hook__", enum_hook)
native_class("enum.IntEnum", bases=(_native("enum.Enum"),))(type("IntEnum", (), {}))
native_class("enum.StrEnum", bases=(_native("enum.Enum"),))(type("StrEnum", (), {}))


def _flag_value(v: Any) -> int | None:
    value = v.attrs.get("value") if isinstance(v, Instance) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _canonical(cls: ClassVal) -> list[Instance]:
    """The members a Flag iterates (one bit each), in definition order."""
    members = cls.lookup("__members__")
    return [m for m in (members.values() if isinstance(members, dict) else ())
            if (v := _flag_value(m)) is not None and v > 0 and v & (v - 1) == 0]


def _flag_of(ctx: Ctx, self: Instance, other: Any, combine: Callable[[int, int], int]) -> Any:
    """`a | b`, `a & b`, `a ^ b` of members of one Flag: the member of that value, else the one
    pseudo-member CPython makes for it (cached on the class, so `is` holds), named by its bits."""
    a, b = _flag_value(self), _flag_value(other)
    if a is None or b is None or not isinstance(other, Instance) or other.cls is not self.cls:
        return ctx.unknown("Flag operation on a value not known")
    value = combine(a, b)
    members = self.cls.lookup("__members__")
    for m in (members.values() if isinstance(members, dict) else ()):
        if _flag_value(m) == value:
            return m
    pseudo = self.cls.ns.setdefault("__pseudo_members__", {})
    if value not in pseudo:
        bits = [m for m in _canonical(self.cls) if (_flag_value(m) or 0) & value]
        name = "|".join(m.attrs["name"] for m in bits) if value else None
        pseudo[value] = Instance(self.cls, {"name": name, "value": value, "_name_": name, "_value_": value})
    return pseudo[value]


class _FlagBody:
    """A Flag's members combine by their bits; a value iterates (`len`, `in`) its one-bit members."""

    def __or__(ctx: Ctx, self: Instance, other: Any) -> Any:  # noqa: N805
        return _flag_of(ctx, self, other, lambda a, b: a | b)

    def __and__(ctx: Ctx, self: Instance, other: Any) -> Any:  # noqa: N805
        return _flag_of(ctx, self, other, lambda a, b: a & b)

    def __xor__(ctx: Ctx, self: Instance, other: Any) -> Any:  # noqa: N805
        return _flag_of(ctx, self, other, lambda a, b: a ^ b)

    def __iter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        value = _flag_value(self)
        if value is None:
            return ctx.unknown("iteration of a Flag value not known")
        return [m for m in _canonical(self.cls) if (_flag_value(m) or 0) & value]

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        items = _FlagBody.__iter__(ctx, self)
        return len(items) if isinstance(items, list) else items

    def __bool__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        value = _flag_value(self)
        return value != 0 if value is not None else ctx.unknown("truth of a Flag value not known")

    def __contains__(ctx: Ctx, self: Instance, other: Any) -> Any:  # noqa: N805
        a, b = _flag_value(self), _flag_value(other)
        if a is None or b is None:
            return ctx.unknown("membership in a Flag value not known")
        return a & b == b


native_class("enum.Flag", bases=(_native("enum.Enum"),))(_FlagBody)
native_class("enum.IntFlag", bases=(_native("enum.IntEnum"), _native("enum.Flag")))(type("IntFlag", (), {}))


@model("enum.unique")
def unique(ctx: Ctx, cls: Any) -> Any:
    return cls


# ----- inspect ------------------------------------------------------------------------------------
def _is_function(obj: Any) -> bool:
    return type(obj).__name__ == "FunctionVal"  # a user function (the interpreter's value)


@model("inspect.isclass")
def isclass(ctx: Ctx, obj: Any) -> Any:
    return Unknown("isclass", pytype="bool") if isinstance(obj, Unknown) else isinstance(obj, ClassVal)


@model("inspect.isfunction")
def isfunction(ctx: Ctx, obj: Any) -> Any:
    """True for user functions, False for classes, instances and data; a modeled callable may be a
    Python function or a builtin in the real library, so that stays unknown."""
    if isinstance(obj, (Unknown, Builtin)):
        return Unknown("isfunction", pytype="bool")
    return _is_function(obj)


@model("inspect.ismethod")
def ismethod(ctx: Ctx, obj: Any) -> Any:
    if isinstance(obj, BoundMethod) and _is_function(obj.func):
        return True
    if isinstance(obj, (Unknown, Builtin, BoundMethod)):
        return Unknown("ismethod", pytype="bool")
    return False


@model("inspect.getfullargspec", "inspect.getmembers", "inspect.getfile", "inspect.stack", "inspect.currentframe")
def introspection(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return ctx.unknown("introspection")
