"""Values at a key path of a document the program reads at run time (issue 20, item 1): a config
loaded from a file not known (`json.load`, `yaml.safe_load`, `pickle.load`, `torch.load` of a file
the run did not write).

`cfg['model']['dim']` is the same value every time the program reads it: each distinct key path of
one document is one `Keyed` value (the same object for every read), and where it is used as a size
(an `int()` of it, a size argument of a tensor creation, a layer's size) it is one input symbol, a
positive size by assumption like an environment variable's `int()`. A key path used in no size
position stays a value not understood (it may be a float, a string or a nested dict).
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.random_ import _READ
from pytea_ci.models.values import Unknown
from pytea_ci.shapes.dim import ASSUMED_SIZE, INPUT
from pytea_ci.shapes.tensor import Origin

KEYS = "read keys"  # ctx.facts key: (document, key path) -> Keyed; ("size", document, key path) -> symbol


class Keyed(Unknown):
    """The value at `path` of the document `doc` (an Unknown read at run time)."""

    __slots__ = ("doc", "path")

    def __init__(self, doc: Unknown, path: tuple[Any, ...], origin: Origin) -> None:
        super().__init__(origin.what, None, origin)
        self.doc, self.path = doc, path


def _is_document(v: Any) -> bool:
    what = v.origin.what if isinstance(v, Unknown) and v.origin is not None else ""
    return isinstance(v, Unknown) and (what.startswith(_READ) or what.startswith("YAML document"))


def subscript(ctx: Any, obj: Any, idx: Any) -> Keyed | None:
    """`obj[idx]` when `obj` is a document read at run time (or a key path of one) and `idx` a
    constant key; None otherwise."""
    if not (isinstance(idx, str) or (isinstance(idx, int) and not isinstance(idx, bool))):
        return None
    if isinstance(obj, Keyed):
        doc, path = obj.doc, (*obj.path, idx)
    elif _is_document(obj):
        doc, path = obj, (idx,)
    else:
        return None
    table = ctx.facts.setdefault(KEYS, {})
    if (doc, path) not in table:
        assert doc.origin is not None
        where = "".join(f"[{k!r}]" for k in path)
        # born where the document was read (the file to look at), named with its key path
        table[(doc, path)] = Keyed(doc, path, Origin(doc.origin.span, f"{doc.origin.what}{where}"))
    out: Keyed = table[(doc, path)]
    return out


def as_size(ctx: Ctx, v: Any) -> Any:
    """A `Keyed` value used as a size: its one input symbol (any other value as it is)."""
    if not isinstance(v, Keyed):
        return v
    table = ctx.facts.setdefault(KEYS, {})
    key = ("size", v.doc, v.path)
    if key not in table:
        table[key] = ctx.fresh("n", kind=INPUT, lo=1, note=f"{v.reason} {ASSUMED_SIZE}")
    return table[key]
