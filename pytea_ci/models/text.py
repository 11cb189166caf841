"""Text of plain values: `str`, `repr`, `format`, `chr`, `ord`, `hex`, `bin`, `oct`, `ascii` of numbers,
strings, None and tuples/lists of them whose items are all known are what CPython prints, computed by
CPython itself (`[int(c) for c in str(len(xs))]` has as many items as the number has digits); of
anything else (a tensor, an object, a size not known, a list holding only some of its items) a string
not known. `str(cls)`/`repr(cls)` of a class of the program or of a package read from source is CPython's
`<class 'module.Qualname'>` (a registry keyed on `str(model.__class__)` finds what it stored), also
inside a tuple or list (`str(cls.__bases__)`)."""

from __future__ import annotations

import builtins as py
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import register
from pytea_ci.models.value_types import printed
from pytea_ci.models.type_union import TypeUnion
from pytea_ci.models.typing_ import text_of as typing_text
from pytea_ci.models.values import MISSING, Builtin, ClassVal, EnumMember, Instance
from pytea_ci.shapes.dim import Term

_SCALARS = (bool, int, float, complex, str, bytes, type(None))


def plain(ctx: Ctx, v: Any) -> bool:
    """A value CPython prints the same as the analyzer holds it: a scalar, or a tuple/list of them
    whose items are all known."""
    if isinstance(v, _SCALARS):
        return not isinstance(v, (Term, EnumMember))
    if isinstance(v, (tuple, list)):
        items = ctx.iterate(v)
        return items is not None and all(plain(ctx, x) for x in items)
    return False


class _Shown:
    """Stands for a class read from source where CPython prints a value: `<class 'module.Qualname'>`."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _shown(ctx: Ctx, v: Any, how: str = "repr") -> Any:
    """`v` with every class of the program or of a package read from source replaced by its stand-in
    (`str(cls.__bases__)`), to be printed by CPython (`how`: "str" of `v` itself, else repr); None when it
    holds anything else not plain. `str()` of an enum member is its class's text (`Kind.SDPA`, or the
    value of a StrEnum/IntEnum), its repr not known here."""
    if isinstance(v, EnumMember):
        return _Shown(v.shown) if how == "str" and v.shown is not None else None
    if (text := printed(v)) is not None:
        return _Shown(text)  # `str(type(x))` of a tensor, of an int
    if isinstance(v, Instance) and (text := _exception_text(ctx, v, how)) is not None:
        return _Shown(text)
    if isinstance(v, Instance) and v.cls.native and (text := _modeled_text(ctx, v, how)) is not None:
        return _Shown(text)  # a typing hint (models/typing_.py)
    if isinstance(v, TypeUnion) and isinstance(text := typing_text(ctx, v), str):
        return _Shown(text)  # `int | None`
    if isinstance(v, ClassVal):
        module, qual = v.ns.get("__module__"), v.own_qualname or None
        ok = not v.native and isinstance(module, str) and isinstance(qual, str)
        return _Shown(f"<class '{module}.{qual}'>") if ok else None
    if type(v) in (tuple, list):
        items = ctx.iterate(v)
        parts = [_shown(ctx, x) for x in items] if items is not None else [None]
        return None if any(p is None for p in parts) else type(v)(parts)
    return v if plain(ctx, v) else None


def _modeled_text(ctx: Ctx, v: Instance, how: str) -> str | None:
    """The text an instance of a modeled class prints, where its model gives one (a `__str__`, else for
    both a `__repr__`, computed by the model); None otherwise."""
    method = v.cls.lookup("__str__") if how == "str" else MISSING
    method = v.cls.lookup("__repr__") if method is MISSING else method
    out = method.fn(ctx, v) if isinstance(method, Builtin) else None
    return out if isinstance(out, str) else None


_OWN_TEXT = {"builtins.OSError", "builtins.UnicodeError"}  # `[Errno 2] ...`, codec positions: printed their own way


def _exception_text(ctx: Ctx, v: Instance, how: str) -> str | None:
    """`str(e)` / `repr(e)` of an instance of a builtin exception class or a program's subclass of one, from
    its `args` as `BaseException` prints them (`KeyError`'s str is its key's repr); None where a class of the
    program prints it its own way (`__str__`, `__repr__`) or the args are not all known."""
    natives = {c.qualname for c in v.cls.mro() if c.native}
    if "builtins.BaseException" not in natives or natives & _OWN_TEXT:
        return None
    mro = v.cls.mro()
    own = ("__str__",) if how == "str" else ("__repr__",)
    if any(name in c.ns for c in mro if not c.native for name in own):
        return None
    args = v.attrs.get("args")
    if type(args) is not tuple or not plain(ctx, args):
        return None
    if how == "repr":
        return f"{v.cls.name}({repr(args[0]) if len(args) == 1 else repr(args)[1:-1]})"
    if len(args) != 1:
        return str(args) if args else ""
    return repr(args[0]) if "builtins.KeyError" in natives else str(args[0])


def _text(name: str) -> Any:
    fn = getattr(py, name)

    def run(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
        if name in ("str", "repr") and len(args) == 1 and not kwargs and not plain(ctx, args[0]):
            shown = _shown(ctx, args[0], name)
            return ctx.unknown("string") if shown is None else fn(shown)
        if all(plain(ctx, a) for a in (*args, *kwargs.values())):
            try:
                return fn(*args, **kwargs)
            except (TypeError, ValueError, OverflowError) as e:  # CPython's own error: the path ends there
                ctx.user_error(type(e).__name__, name)
        if name == "ord":  # a character's code point: an int of unknown value, as CPython's
            out = ctx.unknown("code point of a character not known")
            out.pytype = "int"
            return out
        return ctx.unknown("string")

    return run


for _name in ("str", "repr", "format", "chr", "ord", "hex", "bin", "oct", "ascii"):
    register(f"builtins.{_name}", Builtin(f"builtins.{_name}", _text(_name)))
