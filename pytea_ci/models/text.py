"""Text of plain values: `str`, `repr`, `format`, `chr`, `ord`, `hex`, `bin`, `oct`, `ascii` of numbers,
strings, None and tuples/lists of them whose items are all known are what CPython prints, computed by
CPython itself (`[int(c) for c in str(len(xs))]` has as many items as the number has digits); of
anything else (a tensor, an object, a size not known, a list holding only some of its items) a string
not known. `str(cls)`/`repr(cls)` of a class of the program or of a package read from source is CPython's
`<class 'module.Qualname'>` (a registry keyed on `str(model.__class__)` finds what it stored)."""

from __future__ import annotations

import builtins as py
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import register
from pytea_ci.models.values import Builtin, ClassVal
from pytea_ci.shapes.dim import Term

_SCALARS = (bool, int, float, complex, str, bytes, type(None))


def plain(ctx: Ctx, v: Any) -> bool:
    """A value CPython prints the same as the analyzer holds it: a scalar, or a tuple/list of them
    whose items are all known."""
    if isinstance(v, _SCALARS):
        return not isinstance(v, Term)
    if isinstance(v, (tuple, list)):
        items = ctx.iterate(v)
        return items is not None and all(plain(ctx, x) for x in items)
    return False


def _text(name: str) -> Any:
    fn = getattr(py, name)

    def run(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
        if name in ("str", "repr") and len(args) == 1 and not kwargs and isinstance(args[0], ClassVal) \
                and not args[0].native:
            module, qual = args[0].ns.get("__module__"), args[0].ns.get("__qualname__")
            if isinstance(module, str) and isinstance(qual, str):
                return f"<class '{module}.{qual}'>"
        if all(plain(ctx, a) for a in (*args, *kwargs.values())):
            try:
                return fn(*args, **kwargs)
            except (TypeError, ValueError, OverflowError) as e:  # CPython's own error: the path ends there
                ctx.user_error(type(e).__name__, name)
        return ctx.unknown("string")

    return run


for _name in ("str", "repr", "format", "chr", "ord", "hex", "bin", "oct", "ascii"):
    register(f"builtins.{_name}", Builtin(f"builtins.{_name}", _text(_name)))
