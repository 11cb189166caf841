"""One of several values, not knowing which (an item of a list at an unknown position, such as the
item of a custom Dataset at the index a DataLoader draws): the values joined position by position.

Equal parts stay as they are; ints and dims that differ become one fresh symbol that takes one of
them (its set when they are concrete, else a disjunction added to the path condition); tensors of
one rank join shape by shape, so items whose lengths differ give a tensor of symbolic length; numbers
some of which are not known, a number of unknown value of their kind (an int and a bool: an int, as
CPython's `True + 1`; with a float: a float).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pytea_ci.models.prim import is_number, number_kind
from pytea_ci.models.values import Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.pred import Pred
from pytea_ci.shapes.dim import INPUT, UNKNOWN, Sym, is_dim, symbols
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.shapes.vrange import hull

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

_NOT_JOINED = Unknown("values that differ in kind")


def one_of(it: "Interpreter", values: list[Any], what: str) -> Any:
    """An item of a list at a position not known: the join of its items (Unknown when they differ in kind)."""
    out = join(it, values) if values else _NOT_JOINED
    return it.unknown(what) if isinstance(out, Unknown) else out


def join(it: "Interpreter", values: list[Any]) -> Any:
    """The join of `values` (non-empty), or an Unknown when they differ in kind."""
    first = values[0]
    if all(_same(first, v) for v in values[1:]):
        return first
    if all(is_dim(v) for v in values):
        return _join_dims(it, values)
    if all(isinstance(v, Tensor) for v in values):
        return _join_tensors(it, values)
    exact = not any(id(v) in it.inexact for v in values)
    if exact and (all(isinstance(v, tuple) and len(v) == len(first) for v in values) or
                  all(isinstance(v, list) and len(v) == len(first) for v in values)):
        parts = [join(it, [v[k] for v in values]) for k in range(len(first))]
        return tuple(parts) if isinstance(first, tuple) else parts
    if all(isinstance(v, list) for v in values):  # lists of different lengths (sentences of a corpus)
        return _join_lists(it, values)
    if all(is_number(v) or isinstance(v, Pred) for v in values):  # numbers, some not known: a number of their kind
        kinds = {"bool" if isinstance(v, (bool, Pred)) or getattr(v, "pytype", None) == "bool" else number_kind(v)
                 for v in values}
        return Unknown("one of several numbers", pytype=next(iter(kinds)) if len(kinds) == 1 else
                       "float" if "float" in kinds else "int")
    return _NOT_JOINED


def _join_lists(it: "Interpreter", lists: list[Any]) -> Any:
    """One of several lists whose lengths differ or are not all known: the join of all their items as the
    representative of each item, of the join of their lengths (a sentence of a corpus: a list of ids of some
    length). Not known when a length is not known or the items do not join."""
    known = [it.known_length(v) for v in lists]
    lengths = [n for n in known if n is not None]
    items = [x for v in lists for x in v]
    if len(lengths) < len(known) or not items:
        return _NOT_JOINED
    item = join(it, items)
    if isinstance(item, Unknown) and item.pytype is None:
        return _NOT_JOINED
    n = lengths[0] if all(_same(lengths[0], m) for m in lengths) else _join_dims(it, lengths)
    return it.sized_items([item], n)


def _same(a: Any, b: Any) -> bool:
    try:
        return a is b or (type(a) is type(b) and bool(a == b))
    except Exception:
        return False


def _join_dims(it: "Interpreter", dims: list[Any]) -> Any:
    ints = sorted({int(d) for d in dims if isinstance(d, int)})
    syms = [s for d in dims for s in symbols(d)]
    # sizes the program draws or reads per item (input symbols) differ from item to item in every run;
    # items of different literal sizes are told apart by an index the analyzer does not follow
    kind = INPUT if syms and all(s.kind == INPUT for s in syms) else UNKNOWN
    los = [d if isinstance(d, int) else _bound(d, "lo") for d in dims]
    his = [d if isinstance(d, int) else _bound(d, "hi") for d in dims]
    lo = min(los) if all(x is not None for x in los) else None  # type: ignore[type-var]
    hi = max(his) if all(x is not None for x in his) else None  # type: ignore[type-var]
    s = it.fresh("item", kind=kind, lo=lo, hi=hi, note="one of the items, whose sizes differ")
    if len(ints) == len(dims):
        return replace(s, values=tuple(ints))
    it.pc.append(P.or_(*[P.eq(s, d) for d in dims]))
    return s


def _bound(d: Any, side: str) -> int | None:
    return getattr(d, side, None) if isinstance(d, Sym) else None


def _join_tensors(it: "Interpreter", ts: list[Tensor]) -> Any:
    first = ts[0]
    if any(t.shape is None or len(t.shape) != len(first.shape or ()) for t in ts):
        return _NOT_JOINED
    shape = tuple(_join_dims(it, list(col)) if any(c != col[0] for c in col) else col[0]
                  for col in zip(*[t.shape or () for t in ts]))
    dtype = first.dtype if all(t.dtype == first.dtype for t in ts) else None
    ranges = [t.vrange for t in ts]
    vrange = None
    if all(r is not None for r in ranges):
        vrange = ranges[0]
        for r in ranges[1:]:
            vrange = hull(vrange, r)  # type: ignore[arg-type]
    return Tensor(shape, dtype, first.lib, vrange=vrange, dense=True if all(t.dense for t in ts) else None)
