"""`inspect.signature` of a function read from source, as CPython builds it: an ordered mapping of
`Parameter`s (name, kind, default) that a decorator reads to find or rename an argument
(`set(inspect.signature(fn).parameters)`, `"self" in sig.parameters`). A parameter's kind is an int
that is also a singleton, as CPython's enum member is. A function's annotations are CPython's values
(models/typing_.py `annotation_value`; `Parameter.empty` where there is none); the signature of a modeled torch.nn class is torch's (parameter names and kinds, the
defaults' values unknown); of another modeled callable or of a value not understood, not known.
`inspect.getattr_static` of a class of the program or of an instance of one is the attribute as stored
(a function, not a bound method; no property or `__getattr__` runs);
`inspect.getsource` of a module or function read from source is its text; `inspect.get_annotations` of a
class of the program, the names its body annotates; `typing.get_type_hints` reads (not known).
"""

from __future__ import annotations

import ast
import functools
from typing import Any

from pytea_ci.fsio import read_source
from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.attributes import class_lacks
from pytea_ci.models.typing_ import annotation_value
from pytea_ci.models.values import OPAQUE, BoundMethod, ClassVal, EnumInt, Instance, PropertyVal

# CPython's `inspect._ParameterKind` members: ints, and singletons (`p.kind is Parameter.VAR_KEYWORD`)
POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, KEYWORD_ONLY, VAR_KEYWORD = (
    EnumInt(i, name) for i, name in enumerate(("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD", "VAR_POSITIONAL",
                                               "KEYWORD_ONLY", "VAR_KEYWORD")))


def _parameters(args: ast.arguments, defaults: list[Any], kw_defaults: list[Any]) -> list[tuple[str, EnumInt, Any]]:
    """(name, kind, default or `Parameter.empty`) of each parameter, in order."""
    positional = [*args.posonlyargs, *args.args]
    pad: list[Any] = [EMPTY] * (len(positional) - len(defaults)) + list(defaults)
    out = [(a.arg, POSITIONAL_ONLY if i < len(args.posonlyargs) else POSITIONAL_OR_KEYWORD, pad[i])
           for i, a in enumerate(positional)]
    out += [(args.vararg.arg, VAR_POSITIONAL, EMPTY)] if args.vararg else []
    declared = list(args.kw_defaults) + [None] * (len(args.kwonlyargs) - len(args.kw_defaults))
    values = list(kw_defaults) + [None] * (len(args.kwonlyargs) - len(kw_defaults))
    out += [(a.arg, KEYWORD_ONLY, EMPTY if d is None else v) for a, d, v in zip(args.kwonlyargs, declared, values)]
    return out + ([(args.kwarg.arg, VAR_KEYWORD, EMPTY)] if args.kwarg else [])


@native_class("inspect._empty", identity_eq=True)
class _Empty:
    pass


EMPTY: ClassVal = _Empty  # type: ignore[assignment]


@native_class("inspect.Parameter")
class Parameter:
    empty = EMPTY
    POSITIONAL_ONLY = POSITIONAL_ONLY
    POSITIONAL_OR_KEYWORD = POSITIONAL_OR_KEYWORD
    VAR_POSITIONAL = VAR_POSITIONAL
    KEYWORD_ONLY = KEYWORD_ONLY
    VAR_KEYWORD = VAR_KEYWORD

    def init(ctx: Ctx, self: Instance, name: Any, kind: Any, *, default: Any = EMPTY,
             annotation: Any = EMPTY) -> None:
        self.attrs.update(name=name, kind=kind, default=default, annotation=annotation)


@native_class("inspect.Signature")
class Signature:
    empty = EMPTY


def _native_rows(ctx: Ctx, cls: ClassVal, forward: bool = False) -> list[tuple[str, EnumInt, Any]] | None:
    """The constructor's parameters of a modeled torch.nn class (`forward`: its bound `forward`'s), as the
    installed torch declared them (models/torch/nn/signatures.py); their defaults' values are not recorded
    (unknown)."""
    from pytea_ci.models.torch.nn.signatures import FORWARD_PARAMETERS, INIT_PARAMETERS

    row = (FORWARD_PARAMETERS if forward else INIT_PARAMETERS).get(cls.qualname)
    if row is None:
        return None
    kinds = {"**": VAR_KEYWORD, "*": VAR_POSITIONAL, "/": POSITIONAL_ONLY, "!": KEYWORD_ONLY}
    out = []
    for word in row.split():
        mark = next((m for m in kinds if word.startswith(m)), "")
        name = word[len(mark):].rstrip("=")
        out.append((name, kinds.get(mark, POSITIONAL_OR_KEYWORD), ctx.unknown("a default of torch") if
                    word.endswith("=") else EMPTY))
    return out


def _signature_of(ctx: Ctx, rows: list[tuple[str, EnumInt, Any]], fn: Any = None) -> Instance:
    """The signature of `rows`; with `fn` (a function read from source) its annotations as CPython reports
    them (models/typing_.py), else not known."""
    notes = _annotations(fn) if fn is not None else {}

    def hint(name: str) -> Any:
        return annotation_value(ctx, fn, notes[name], EMPTY) if name in notes else ctx.unknown("annotation")

    params = {name: Instance(Parameter, {"name": name, "kind": kind, "default": default,  # type: ignore[arg-type]
                                         "annotation": hint(name)}) for name, kind, default in rows}
    return Instance(Signature, {"parameters": params, "return_annotation": hint("return")})  # type: ignore[arg-type]


def _annotations(fn: Any) -> dict[str, Any]:
    """Each parameter's annotation node (None: not annotated) and the return's (`"return"`)."""
    node = fn.node
    args = node.args
    every = [*args.posonlyargs, *args.args, *([args.vararg] if args.vararg else []), *args.kwonlyargs,
             *([args.kwarg] if args.kwarg else [])]
    out: dict[str, Any] = {a.arg: a.annotation for a in every}
    out["return"] = None if isinstance(node, ast.Lambda) else node.returns
    return out


@model("inspect.signature")
def signature(ctx: Ctx, obj: Any, *args: Any, **kwargs: Any) -> Any:
    """The signature of a function of the program or of a package read from source (of a bound method:
    without its first parameter), or of a modeled torch.nn class; anything else is not known."""
    if isinstance(obj, ClassVal) and obj.native and not args and not kwargs:
        native = _native_rows(ctx, obj)
        return _signature_of(ctx, native) if native is not None else ctx.unknown("introspection")
    if isinstance(obj, BoundMethod) and isinstance(obj.self_val, Instance) and obj.self_val.cls.native \
            and getattr(obj.func, "name", None) == f"{obj.self_val.cls.qualname}.forward" and not args and not kwargs:
        native = _native_rows(ctx, obj.self_val.cls, forward=True)  # a torch layer's own `forward`, bound
        return _signature_of(ctx, native) if native is not None else ctx.unknown("introspection")
    fn, bound = (obj.func, True) if isinstance(obj, BoundMethod) else (obj, False)
    node = getattr(fn, "node", None)
    if type(fn).__name__ != "FunctionVal" or args or kwargs or not isinstance(node, (ast.FunctionDef,
                                                                                    ast.AsyncFunctionDef, ast.Lambda)):
        return ctx.unknown("introspection")
    rows = _parameters(node.args, list(fn.defaults), list(fn.kw_defaults))
    if bound:
        if not rows or rows[0][1] not in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD):
            return ctx.unknown("introspection")
        rows = rows[1:]
    return _signature_of(ctx, rows, fn)


_NO_DEFAULT = object()


@model("inspect.getattr_static")
def getattr_static(ctx: Ctx, obj: Any, attr: Any, default: Any = _NO_DEFAULT) -> Any:
    """The attribute `attr` as `obj` stores it, without running descriptors or `__getattr__` (CPython's
    `inspect.getattr_static`): an instance's own attribute unless its class holds a property of that name,
    else the value the first class of the MRO holding the name has (kornia's `__init_subclass__` reads the
    inherited `forward` so, to copy it). Not known where a class on the way is native or may hold names not
    known, or for anything else."""
    cls = obj.cls if isinstance(obj, Instance) else obj
    if not isinstance(attr, str) or not isinstance(cls, ClassVal) or cls.native:
        return ctx.unknown("inspect.getattr_static")
    if isinstance(obj, Instance) and not isinstance(cls.lookup(attr), PropertyVal):
        if attr in obj.attrs:
            return obj.attrs[attr]
        if OPAQUE in obj.attrs:
            return ctx.unknown("inspect.getattr_static")
    for c in cls.mro():
        if c.native or OPAQUE in c.ns:
            break
        if attr in c.ns:
            return c.ns[attr]
    if class_lacks(cls, attr) and not isinstance(obj, Instance):
        if default is not _NO_DEFAULT:
            return default
        ctx.user_error("AttributeError", f"type object {cls.name!r} has no attribute {attr!r}")
    return ctx.unknown("inspect.getattr_static")


@model("inspect.getsource")
def getsource(ctx: Ctx, obj: Any) -> Any:
    """The source text CPython reads back: of a module read from source, its whole file; of a function
    of the program or of a package read from source, its lines from the first decorator to the end
    (indented as written). Anything else (a class, a modeled callable, a value not understood): not known."""
    if isinstance(obj, ClassVal) and not obj.native:
        return _class_source(ctx, obj)
    kind = type(obj).__name__
    path = getattr(obj, "path", None)
    if kind not in ("ModuleVal", "FunctionVal") or not isinstance(path, str) or not path.endswith(".py"):
        return ctx.unknown("introspection")
    text = read_source(path)
    if text is None:
        return ctx.unknown("introspection")
    if kind == "ModuleVal":
        return text
    node = obj.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.end_lineno is None:
        return ctx.unknown("introspection")  # a lambda: CPython gives its whole line(s)
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    lines = text.splitlines(keepends=True)
    return "".join(lines[first - 1:node.end_lineno])


def _class_source(ctx: Ctx, cls: ClassVal) -> Any:
    """CPython's `inspect.getsource(cls)` of a class read from source: the lines of its `class` statement, from
    its first decorator to its end, found as the statement of that name in the file of a method it defines
    that holds that method (CPython finds it by qualified name); not known for a class without such a method."""
    fn = next((v for v in cls.ns.values() if type(v).__name__ == "FunctionVal" and getattr(v, "owner", None) is cls
               and isinstance(getattr(v, "path", None), str) and v.path.endswith(".py")), None)
    text = read_source(fn.path) if fn is not None else None
    if fn is None or text is None or not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return ctx.unknown("introspection")
    found = [c for c in ast.walk(_parsed(fn.path, text)) if isinstance(c, ast.ClassDef) and c.name == cls.name
             and any(isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.lineno == fn.node.lineno
                     and f.name == fn.node.name for f in c.body)]
    if len(found) != 1 or found[0].end_lineno is None:
        return ctx.unknown("introspection")
    node = found[0]
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    return "".join(text.splitlines(keepends=True)[first - 1:node.end_lineno])


@functools.lru_cache(maxsize=8)
def _parsed(path: str, text: str) -> ast.Module:
    return ast.parse(text)


def _own_annotations(cls: Any) -> dict[str, Any] | None:
    """The names a class of the program annotates in its own body; None when not known (not a class of the
    program, or one that may have been given attributes of any name)."""
    own = cls.ns.get("__annotations__", {}) if isinstance(cls, ClassVal) and not cls.native \
        and OPAQUE not in cls.ns else None
    return own if isinstance(own, dict) else None


@model("inspect.get_annotations")
def get_annotations(ctx: Ctx, obj: Any, *, globals: Any = None, locals: Any = None, eval_str: Any = False) -> Any:
    """Of a class of the program: a new dict of the names its own body annotates (not its bases'), as
    CPython's `inspect.get_annotations(cls)`, each value not known (annotations are not evaluated here). A
    read: the class is not handed to code not followed. Of anything else: not known."""
    own = _own_annotations(obj)
    return ctx.unknown("introspection") if own is None else {name: ctx.unknown("annotation") for name in own}


@model("typing.get_type_hints")
def get_type_hints(ctx: Ctx, obj: Any, globalns: Any = None, localns: Any = None, include_extras: Any = False) -> Any:
    """Not known (CPython evaluates each annotation, and raises NameError for one it cannot resolve), but a
    read: what it is given is not handed to code not followed."""
    return ctx.unknown("introspection")
