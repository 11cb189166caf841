"""`typing`'s hints as the values CPython makes of them: `Optional[Tensor]`, `Union[...]`, `List[int]`,
`Tuple[...]`, `Dict[...]`, `Set`, `FrozenSet`, `Type`, `Any`, `TypeVar`, `ForwardRef`, `typing._eval_type`,
`typing.get_origin`/`get_args`, and the annotations `inspect.signature` reports (models/inspect_.py asks `annotation_value`).

A library that reads its own signatures (torch-geometric's `Inspector` turns every parameter's hint into
text and back: `type_repr`, `eval_type`) compares hints, prints them and reads their `__origin__`,
`__args__`, `_name` and `__module__`. Each of those is what CPython computes: a hint holds the form it
was written with and its parameters (values of the analysis, so it is kept and restored with an import),
and every question about it is answered by building the real `typing` object over stand-in classes
named as the analysis's classes are (their `__module__` and `__qualname__`; models/value_types.py
`cpython_names`) and asking CPython. A parameter that is not a class CPython's names are known for (a
class of a library not followed, a value not understood) leaves the hint not known.

An annotation is evaluated when `inspect.signature` is asked for it, in the names of the function's
module and closures (not when the function is defined, as CPython does: module-level names rebound
between the two are not seen); with `from __future__ import annotations` it is the annotation's text
(CPython's unparse, which `ast.unparse` follows). Only names, attributes, subscripts, tuples, lists,
constants and `|` are evaluated; a name the class body binds (the method's owner) leaves it not known.
"""

from __future__ import annotations

import ast
import builtins as py
import functools
import operator
import re
import typing as t
from typing import Any, Callable

from pytea_ci.fsio import read_source
from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import lookup, model, native_class, prop, register
from pytea_ci.models.type_union import TypeUnion, union_of
from pytea_ci.models.value_types import cpython_names
from pytea_ci.models.values import MISSING, Instance

# the forms modeled: subscripting one gives a hint (CPython's `_GenericAlias` and friends)
FORMS = ("Optional", "Union", "List", "Dict", "Tuple", "Set", "FrozenSet", "Type", "OrderedDict")
FORM = "__pytea_form__"  # an alias's attribute: the name of the form it was written with
PARAMS = "__pytea_params__"  # and what it was subscripted with (values of the analysis)


class NotAHint(Exception):
    """A value CPython's typing object cannot be built for here (not a class whose names are known)."""


def _hint_methods(*names: str) -> Callable[[type], type]:
    """Give a hint class `__repr__` (CPython's text of the hint) and, when named, `__eq__` (CPython's
    equality): declared once here for every hint class (a native class's methods are its body's own)."""
    def deco(body: type) -> type:
        for name in names:
            setattr(body, name, _HINT_METHODS[name])
        return body

    return deco


def _repr(ctx: Ctx, self: Instance) -> Any:
    return text_of(ctx, self)


def _eq(ctx: Ctx, self: Instance, other: Any) -> Any:
    return equal(ctx, self, other)


_HINT_METHODS: dict[str, Callable[..., Any]] = {"__repr__": _repr, "__eq__": _eq}


@native_class("typing._SpecialForm", identity_eq=True)
@_hint_methods("__repr__")
class SpecialForm:
    """`typing.Optional`, `typing.List`, ...: `_name` and `__module__` as CPython's (`__origin__` of the
    generic ones: `list`, `dict`, ...)."""

    __only_modeled__ = True

    def __getitem__(ctx: Ctx, self: Instance, params: Any) -> Any:  # noqa: N805
        return subscript(ctx, self.attrs["_name"], params)

    def call(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        """`typing.OrderedDict()` makes a `collections.OrderedDict` (a form CPython lets instantiate: its
        `_inst`); `typing.List()` is CPython's TypeError."""
        name = self.attrs["_name"]
        if not getattr(getattr(t, name), "_inst", False) or "__origin__" not in self.attrs:
            ctx.user_error("TypeError", f"Type {name} cannot be instantiated; use {name.lower()}() instead")
        return ctx.call(self.attrs["__origin__"], *args, **kwargs)


@native_class("typing._GenericAlias")
@_hint_methods("__eq__", "__repr__")
class GenericAlias:
    """A subscripted form (`Optional[Tensor]`): `_name`, `__module__`, `__origin__`, `__args__`."""

    __only_modeled__ = True


@native_class("typing.ForwardRef")
@_hint_methods("__eq__", "__repr__")
class ForwardRef:
    """A hint written as text (`Optional["Tensor"]`, `typing.ForwardRef("Tensor")`)."""

    __only_modeled__ = True

    def init(ctx: Ctx, self: Instance, arg: Any, is_argument: Any = True, module: Any = None, *,
             is_class: Any = False) -> None:
        if not isinstance(arg, str):
            ctx.user_error("TypeError", f"Forward reference must be a string -- got {arg!r}")
        self.attrs.update({"__forward_arg__": arg, "__forward_module__": module})


@native_class("typing.TypeVar")
@_hint_methods("__repr__")
class TypeVar:
    """`T = TypeVar("T")`: its `__name__`; a hint over it prints `~T` as CPython's."""

    __only_modeled__ = True

    def init(ctx: Ctx, self: Instance, name: Any, *constraints: Any, bound: Any = None, covariant: Any = False,
             contravariant: Any = False) -> None:
        self.attrs.update({"__name__": name, "__bound__": bound, "__constraints__": constraints,
                           "__covariant__": covariant, "__contravariant__": contravariant})


@native_class("typing._AnyMeta", identity_eq=True, recorded_attrs=True)
@_hint_methods("__repr__")
class AnyForm:
    """`typing.Any` (a class of its own since Python 3.11: no `_name`)."""

    __only_modeled__ = True


_ANY = Instance(AnyForm, {"__module__": "typing", "__name__": "Any", "__qualname__": "Any"})  # type: ignore[arg-type]


def _form(name: str) -> Instance:
    real = getattr(t, name)
    attrs: dict[str, Any] = {"_name": name, "__module__": "typing"}
    origin = getattr(real, "__origin__", None)
    if isinstance(origin, type):
        attrs["__origin__"] = lookup(f"{origin.__module__}.{origin.__qualname__}")
    return Instance(SpecialForm, attrs)  # type: ignore[arg-type]


for _name in FORMS:
    register(f"typing.{_name}", _form(_name))
register("typing.Any", _ANY)


# ----- the real typing object of a hint ------------------------------------------------------------------
class _Real:
    """Builds CPython's typing objects for values of the analysis, one stand-in class per class (so equal
    hints compare equal), and maps what CPython answers back to the analysis's values."""

    def __init__(self) -> None:
        self.made: dict[int, Any] = {}  # id of a value of the analysis -> its real object
        self.back: dict[int, Any] = {}  # id of a real object -> the value of the analysis it stands for
        self.keep: list[Any] = []  # the values whose ids are keys, alive while this object is

    def real(self, v: Any) -> Any:
        if v is None or v is Ellipsis or type(v) is str:
            return v
        if id(v) in self.made:
            return self.made[id(v)]
        out = self._build(v)
        self.made[id(v)] = out
        self.back.setdefault(id(out), v)
        self.keep.append(v)
        return out

    def _build(self, v: Any) -> Any:
        if type(v) in (tuple, list):
            return type(v)(self.real(x) for x in v)
        if isinstance(v, TypeUnion):
            return functools.reduce(operator.or_, [self.real(a) for a in v.args])
        if isinstance(v, Instance):
            kind = v.cls.qualname
            if kind == "typing._SpecialForm":
                return getattr(t, v.attrs["_name"])
            if kind == "typing._AnyMeta":
                return t.Any
            if kind == "typing._GenericAlias":
                return getattr(t, v.attrs[FORM])[self.real(v.attrs[PARAMS])]
            if kind == "typing.ForwardRef" and type(v.attrs.get("__forward_arg__")) is str:
                return t.ForwardRef(v.attrs["__forward_arg__"])
            if kind == "typing.TypeVar" and type(v.attrs.get("__name__")) is str and not v.attrs["__constraints__"]:
                return t.TypeVar(v.attrs["__name__"])
            raise NotAHint
        names = cpython_names(v)
        if names is None:
            raise NotAHint
        module, qual = names
        if module == "builtins":
            return type(None) if qual == "NoneType" else getattr(py, qual)
        return type(qual.rsplit(".", 1)[-1], (), {"__module__": module, "__qualname__": qual})

    def value(self, r: Any) -> Any:
        """The value of the analysis CPython's object `r` stands for (NotAHint when there is none)."""
        if id(r) in self.back:
            return self.back[id(r)]
        if r is None or r is Ellipsis or type(r) is str:
            return r
        if r is type(None):
            return lookup("types.NoneType")
        if isinstance(r, type) and r.__module__ == "builtins" and (found := lookup(f"builtins.{r.__qualname__}")) \
                is not MISSING:
            return found
        if r is t.Any:
            return _ANY
        if isinstance(r, t.ForwardRef) and r.__forward_module__ is None:  # `Optional["Tensor"].__args__[0]`
            return Instance(ForwardRef, {"__forward_arg__": r.__forward_arg__, "__forward_module__": None})  # type: ignore[arg-type]
        if isinstance(r, t._SpecialForm) or isinstance(r, t._SpecialGenericAlias):  # type: ignore[attr-defined]
            return lookup(f"typing.{getattr(r, '_name', '')}")
        raise NotAHint


def subscript(ctx: Ctx, form: str, params: Any) -> Any:
    """`typing.<form>[params]`: a hint whose attributes are CPython's (`Union[int]` is `int` itself)."""
    build = _Real()
    try:
        real = getattr(t, form)[build.real(params)]
    except NotAHint:
        return ctx.unknown("a typing hint of values not understood")
    except TypeError as e:  # `Optional[int, str]`: CPython's own error
        ctx.user_error("TypeError", str(e))
        return None
    if not isinstance(real, t._GenericAlias):  # type: ignore[attr-defined]
        try:
            return build.value(real)  # `Union[int]`, `Optional[None]`
        except NotAHint:
            return ctx.unknown("a typing hint")
    attrs: dict[str, Any] = {FORM: form, PARAMS: params, "__module__": "typing", "_name": real._name}
    for name in ("__origin__", "__args__"):
        try:
            found = getattr(real, name)
            attrs[name] = tuple(build.value(a) for a in found) if name == "__args__" else build.value(found)
        except NotAHint:
            pass  # (read: not known)
    return Instance(GenericAlias, attrs)  # type: ignore[arg-type]


def text_of(ctx: Ctx, v: Any) -> Any:
    """CPython's `repr` of a hint (its `str` too)."""
    try:
        return repr(_Real().real(v))
    except NotAHint:
        return ctx.unknown("the text of a typing hint")


def equal(ctx: Ctx, a: Any, b: Any) -> Any:
    """`a == b` of hints as CPython compares them (`Optional[X] == Union[X, None]`); of a value not
    understood, not known."""
    build = _Real()
    try:
        return build.real(a) == build.real(b)
    except NotAHint:
        return ctx.unknown("comparison of a typing hint")


@prop("builtins.TypeUnion.__args__")
def _union_args(ctx: Ctx, u: TypeUnion) -> Any:
    """`(int | None).__args__`: its members, `None` as `NoneType`."""
    return tuple(lookup("types.NoneType") if a is None else a for a in u.args)


# ----- evaluating hints ---------------------------------------------------------------------------------
def evaluate(ctx: Ctx, node: ast.expr, name_of: Any) -> Any:
    """The value of a hint's expression, its names read by `name_of(name)` (MISSING: not known); NotAHint
    for an expression a hint is not made of."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        found = name_of(node.id)
        if found is MISSING:
            raise NotAHint
        return found
    if isinstance(node, ast.Attribute):
        return ctx.getattr(evaluate(ctx, node.value, name_of), node.attr)
    if isinstance(node, ast.Subscript):
        return ctx.getitem(evaluate(ctx, node.value, name_of), evaluate(ctx, node.slice, name_of))
    if isinstance(node, (ast.Tuple, ast.List)):
        items = [evaluate(ctx, e, name_of) for e in node.elts]
        return tuple(items) if isinstance(node, ast.Tuple) else items
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        u = union_of(evaluate(ctx, node.left, name_of), evaluate(ctx, node.right, name_of))
        if u is None:
            raise NotAHint
        return u
    raise NotAHint


def _names(namespaces: list[Any]) -> Any:
    """A name's value in the first of `namespaces` (dicts) holding it, else a builtin's; MISSING if none."""
    def name_of(name: str) -> Any:
        for ns in namespaces:
            if isinstance(ns, dict) and name in ns:
                return ns[name]
        return lookup(f"builtins.{name}") if name in vars(py) else MISSING
    return name_of


_FUTURE = re.compile(r"^from\s+__future__\s+import\s+\(?[\w\s,]*\bannotations\b", re.M)


def annotation_value(ctx: Ctx, fn: Any, node: ast.expr | None, empty: Any) -> Any:
    """What `inspect.signature(fn)` reports for the annotation `node` of the function `fn` of the program or
    of a package read from source: `empty` without one, its text under `from __future__ import annotations`,
    else its value; not known where it cannot be evaluated here."""
    if node is None:
        return empty
    text = read_source(fn.path) if isinstance(getattr(fn, "path", None), str) else None
    if text is None:
        return ctx.unknown("annotation")
    if _FUTURE.search(text):
        return ast.unparse(node)
    owner = getattr(fn, "owner", None)
    if owner is not None and any(isinstance(n, ast.Name) and n.id in owner.ns for n in ast.walk(node)):
        return ctx.unknown("annotation")  # a name of the class body, bound or not when the def ran
    scopes, scope = [], getattr(fn, "closure", None)
    while scope is not None:
        scopes.append(scope.locals)
        scope = scope.parent
    try:
        return evaluate(ctx, node, _names([*scopes, fn.globals]))
    except NotAHint:
        return ctx.unknown("annotation")


@model("typing._eval_type")
def eval_type(ctx: Ctx, value: Any, globalns: Any, localns: Any = None, *args: Any, **kwargs: Any) -> Any:
    """`typing._eval_type`: a `ForwardRef`'s text evaluated in `globalns` then `localns` (and the builtins),
    itself evaluated again; a hint without one is itself; a hint holding one: not known."""
    if isinstance(value, Instance) and value.cls is ForwardRef:
        arg = value.attrs.get("__forward_arg__")
        try:
            node = ast.parse(arg, mode="eval").body if isinstance(arg, str) else None
        except SyntaxError:
            ctx.user_error("SyntaxError", f"Forward reference must be an expression -- got {arg!r}")
            return None
        if node is None:
            return ctx.unknown("typing._eval_type")
        try:
            found = evaluate(ctx, node, _names([localns, globalns]))
        except NotAHint:
            return ctx.unknown("typing._eval_type")
        return eval_type(ctx, found, globalns, localns)
    if isinstance(value, Instance) and value.cls is GenericAlias:
        held = value.attrs.get("__args__")
        if not isinstance(held, tuple) or any(isinstance(a, Instance) and a.cls in (ForwardRef, GenericAlias)
                                              for a in held):
            return ctx.unknown("typing._eval_type of a hint holding others")
        return value
    if isinstance(value, str) or value is None or isinstance(value, TypeUnion) or cpython_names(value) is not None \
            or isinstance(value, Instance) and value.cls in (SpecialForm, AnyForm, TypeVar):
        return value
    return ctx.unknown("typing._eval_type")


@model("typing.get_origin")
def get_origin(ctx: Ctx, tp: Any) -> Any:
    """CPython's `typing.get_origin` of a hint (`list` of `List[int]`, `Union` of `Optional[X]`, None of a class);
    of a value that is no hint known here, not known."""
    build = _Real()
    try:
        return build.value(t.get_origin(build.real(tp)))
    except NotAHint:
        return ctx.unknown("typing.get_origin")


@model("typing.get_args")
def get_args(ctx: Ctx, tp: Any) -> Any:
    """CPython's `typing.get_args` of a hint (its parameters; `()` of a class); else not known."""
    build = _Real()
    try:
        return tuple(build.value(a) for a in t.get_args(build.real(tp)))
    except NotAHint:
        return ctx.unknown("typing.get_args")
