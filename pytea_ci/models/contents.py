"""The contents of small tensors made of known numbers, and floats known within bounds (DESIGN §3).

`Tensor.known` holds the elements of a tensor of rank 0 or 1 with at most `MAX` elements whose every
value the program fixes: `torch.linspace` and `torch.arange` of known numbers, `torch.tensor` of a
list of literal numbers. Each element is a pair `(lo, hi)`: the number itself when `lo == hi` (an
integer tensor's elements; a float the dtype holds exactly where the kernel computes it exactly), else
bounds the element lies within whatever floating-point kernel the machine runs (a few units in the
last place of the dtype, taken wide). Reading elements out (`t[i]`, iteration, `.item()`, `float()`,
`.tolist()`) gives the number, or a float `Unknown` carrying `bounds`; a comparison of such a float
with a number is decided when the bounds decide it (`drop_path > 0.` over
`[x.item() for x in torch.linspace(0, 0.1, depth)]`: 0.0 for the first block, positive after).

Only what is certain is kept: any operation not listed here forgets the contents; an in-place write
(`mul_`, `t[i] = v`, `out=`) to a tensor forgets them on every tensor that may share its memory (the
views, slices, items and split pieces made from one tensor are one family); a parameter (trained between
forward passes) has none.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field, replace
from typing import Any

from pytea_ci.models.ranges import arange_args, in_place
from pytea_ci.models.values import IterVal, Unknown
from pytea_ci.shapes.tensor import INT_DTYPES, Tensor
from pytea_ci.shapes.vrange import ValueRange

MAX = 256
Element = tuple[float, float]
# Slack of a computed float element, relative to the largest magnitude that made it: float32's unit in
# the last place is 2**-23; the kernels (vectorized, fused multiply-add or not) are within a few.
_SLACK = {"float64": 2.0 ** -44, "float32": 2.0 ** -18, "float16": 2.0 ** -7, "bfloat16": 2.0 ** -4}
_NUMPY_LITERALS = frozenset(("numpy.array", "numpy.asarray", "numpy.ascontiguousarray"))
_SAME = frozenset("clone detach contiguous cpu to type float double view reshape flatten ravel __pos__".split())


def _exact(x: float, dtype: str) -> float | None:
    """`x` as the dtype holds it (IEEE round to nearest, as a cast does on any machine), None when not computed."""
    try:
        if dtype == "float64":
            return float(x)
        if dtype == "float32":
            return float(struct.unpack("f", struct.pack("f", x))[0])
        if dtype == "float16":
            return float(struct.unpack("e", struct.pack("e", x))[0])
    except (OverflowError, struct.error):
        return None
    return None


def _num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def linspace(start: Any, end: Any, steps: Any, dtype: str | None) -> tuple[Element, ...] | None:
    """torch.linspace's elements: the first is `start` and the last `end` exactly (the kernel computes
    `start + step * i` below the middle and `end - step * (steps - 1 - i)` above it), the others within
    the dtype's slack of `start + i * (end - start) / (steps - 1)`."""
    if not (_num(start) and _num(end) and isinstance(steps, int) and not isinstance(steps, bool)) \
            or dtype not in _SLACK or not 0 < steps <= MAX:
        return None
    first, last = _exact(start, dtype), _exact(end, dtype)
    if start == end and first is not None:  # a step of 0: every element is the start
        return ((first, first),) * steps
    slack = _SLACK[dtype] * max(abs(start), abs(end), 1e-300)
    out: list[Element] = []
    for i in range(steps):
        if i == 0 and first is not None:
            out.append((first, first))
        elif i == steps - 1 and last is not None:
            out.append((last, last))
        else:
            v = start + i * (end - start) / (steps - 1) if steps > 1 else start
            out.append((v - slack, v + slack))
    return tuple(out)


def arange(args: tuple, dtype: str | None, kwargs: "dict[str, Any] | None" = None) -> tuple[Element, ...] | None:
    """torch.arange of ints into an integer tensor: every element exactly."""
    start, end, step = arange_args(args, kwargs)
    if dtype not in INT_DTYPES or not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end, step)) \
            or not step:
        return None
    values = range(start, end, step)
    return tuple((v, v) for v in values) if len(values) <= MAX else None


def literal(data: Any, dtype: str | None) -> tuple[Element, ...] | None:
    """torch.tensor of a literal number or flat list of numbers: each as the dtype holds it."""
    items = [data] if _num(data) else list(data) if isinstance(data, (list, tuple)) else None
    if items is None or len(items) > MAX or not all(_num(v) for v in items) or dtype is None:
        return None
    if dtype in INT_DTYPES:
        return tuple((v, v) for v in items) if all(isinstance(v, int) for v in items) else None
    held = [_exact(float(v), dtype) for v in items]
    return None if any(h is None for h in held) else tuple((h, h) for h in held)  # type: ignore[misc]


def number(e: Element, dtype: str | None, reason: str) -> Any:
    """The Python number an element reads out as (`.item()`): exact, or a float known within bounds."""
    lo, hi = e
    if dtype in INT_DTYPES:
        return int(lo)
    if lo == hi:
        return float(lo)
    out = Unknown(reason, "float")
    out.bounds = (lo, hi)
    return out


@dataclass(eq=False)
class Known:
    """The elements of a tensor, and the family of tensors that may share its memory (views, slices,
    iteration items, pieces of a split, the tensor they came from): an in-place write to any member ends
    what every member knows (`alive[0]` False), as writing through a view changes the base."""

    elements: tuple[Element, ...]
    alive: list[bool] = field(default_factory=lambda: [True])

    def derived(self, elements: tuple[Element, ...]) -> "Known":
        return Known(elements, self.alive)


def scalars(t: Any) -> tuple[Any, ...] | None:
    """The items of a 1-D numpy array of known contents as the Python numbers its scalars stand for (`int`
    of an integer dtype, `bool` of a boolean one, `float` otherwise); None unless every item is exact."""
    have = elements(t)
    if have is None or t.lib != "numpy" or t.shape is None or len(t.shape) != 1 or any(lo != hi for lo, hi in have):
        return None
    if t.dtype == "bool":
        return tuple(bool(lo) for lo, _ in have)
    return tuple(int(lo) for lo, _ in have) if t.dtype in INT_DTYPES else tuple(float(lo) for lo, _ in have)


def elements(t: Any) -> tuple[Element, ...] | None:
    """The known elements of a tensor (None: not known, or written since)."""
    k = t.known if isinstance(t, Tensor) else None
    return k.elements if isinstance(k, Known) and k.alive[0] else None


def sources(name: str, out: Tensor, args: tuple, kwargs: dict) -> tuple[Element, ...] | None:
    """The contents a creation call gives its result, when every number is known."""
    last = name.rsplit(".", 1)[-1]
    if name == "torch.linspace" and len(args) >= 3:
        return linspace(args[0], args[1], args[2], out.dtype)
    if name == "torch.linspace" and len(args) == 2 and "steps" in kwargs:
        return linspace(args[0], args[1], kwargs["steps"], out.dtype)
    if name == "torch.arange" and (args or kwargs):
        return arange(args, out.dtype, kwargs)
    if name in ("torch.tensor", "torch.as_tensor") and args and last in ("tensor", "as_tensor"):
        return literal(args[0], out.dtype)
    if name in _NUMPY_LITERALS and args and out.lib == "numpy":  # `np.asarray(in_shape, dtype=int)`
        return literal(args[0], out.dtype)
    if name == "torch.rand" and out.dtype in _SLACK and out.shape is not None and isinstance(n := out.numel(), int) \
            and n <= MAX:
        return ((0.0, 1.0),) * n  # each drawn from [0, 1): within these bounds on every machine (LayerDrop's draw)
    return None


def after(name: str, out: Any, args: tuple, kwargs: dict) -> Any:
    """`out` of the operation `name` with the contents it certainly has, and none otherwise."""
    src = args[0] if args and isinstance(args[0], Tensor) else None
    last = name.rsplit(".", 1)[-1]
    if src is not None and isinstance(src.known, Known) and _writes(name, kwargs):
        src.known.alive[0] = False  # every tensor that may share its memory sees the new values
    have = elements(src)
    if src is not None and have is not None:
        read = _read_out(name, last, src, have, out, args)
        if read is not MISSING_READ:
            return read
    if not isinstance(out, Tensor):
        return out
    if name.startswith("torch.") and not name.startswith("torch.Tensor.") or name in _NUMPY_LITERALS:
        made = sources(name, out, args, kwargs)
        known = Known(made) if made is not None else None
    else:
        kept = _carried(last, out, src, have, args) if src is not None and have is not None else None
        known = src.known.derived(kept) if kept is not None and src is not None else None
    if known is not None and out.shape is not None and len(out.shape) <= 1:
        return replace(out, known=known)
    return replace(out, known=None) if out.known is not None else out


MISSING_READ = object()
_READS = frozenset(("torch.Tensor.item", "builtins.float", "builtins.int"))
_PIECES = frozenset(("split", "chunk", "unbind", "tensor_split"))


def _read_out(name: str, last: str, src: Tensor, have: tuple[Element, ...], out: Any, args: tuple) -> Any:
    """What reading a tensor of known contents gives: a number, a list, items, pieces (else MISSING_READ)."""
    if len(have) == 1 and name in _READS:
        v = number(have[0], src.dtype, "value from tensor data (.item())")
        if name == "builtins.int":
            return int(v) if isinstance(v, (int, float)) else out  # (a float known within bounds: int() not decided)
        return float(v) if name == "builtins.float" and isinstance(v, int) else v
    one_d = src.shape is not None and len(src.shape) == 1
    if one_d and src.lib == "numpy" and last in ("__iter__", "__getitem__"):  # numpy gives its scalars: numbers
        numbers = scalars(src)
        if numbers is not None and last == "__iter__" and isinstance(out, IterVal):
            return IterVal(list(numbers))
        i = _element_index(args[1], len(have)) if numbers is not None and len(args) > 1 else None
        return numbers[i] if i is not None and numbers is not None else MISSING_READ
    if one_d and last == "tolist":  # (after `.tolist()` read the data: exactly its numbers)
        return [number(e, src.dtype, "value from tensor data (.tolist())") for e in have]
    if one_d and last == "__iter__" and isinstance(out, IterVal):
        return IterVal([_element(src, e) for e in have])
    if one_d and last in _PIECES and isinstance(out, (tuple, list)):
        return _pieces(out, src, have)
    return MISSING_READ


def _pieces(out: Any, src: Tensor, have: tuple[Element, ...]) -> Any:
    """`split`/`chunk`/`unbind` of a 1-D tensor of known contents: consecutive pieces (views), each with its
    elements."""
    if not all(isinstance(t, Tensor) and t.shape is not None and len(t.shape) <= 1 for t in out):
        return out
    sizes = [1 if not t.shape else t.shape[0] for t in out]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in sizes) or sum(sizes) != len(have):
        return out
    made, at = [], 0
    for t, n in zip(out, sizes):
        made.append(replace(t, known=src.known.derived(have[at:at + n])))  # type: ignore[union-attr]
        at += n
    return type(out)(made)


def _element(src: Tensor, e: Element) -> Tensor:
    """One element of a 1-D tensor of known contents, as iteration yields it (a 0-d view)."""
    item = replace(src.with_shape(()), known=src.known.derived((e,)))  # type: ignore[union-attr]
    if src.dtype in INT_DTYPES:
        item = replace(item, vrange=ValueRange(int(e[0]), int(e[0]), attained=True, note="an element of known value"))
    return item


def _writes(name: str, kwargs: dict) -> bool:
    """An operation that writes its first operand's memory: an in-place method (as value ranges see it), an
    item assignment, or an `out=` argument."""
    return in_place(name) or name.endswith(".__setitem__") or "out" in kwargs


def _element_index(idx: Any, n: int) -> int | None:
    if isinstance(idx, int) and not isinstance(idx, bool) and -n <= idx < n:
        return idx % n
    return None


def _carried(last: str, out: Tensor, src: Tensor, have: tuple[Element, ...], args: tuple) -> tuple[Element, ...] | None:
    """The elements an operation on a tensor of known contents keeps: an element or a slice it selects, or
    all of them through a view or a copy of the same values."""
    if out is src:
        return have
    if last in ("__getitem__", "select") and src.shape is not None and len(src.shape) == 1:
        idx = args[-1] if last == "select" else args[1] if len(args) > 1 else None
        if isinstance(idx, slice) and last == "__getitem__" and all(
                v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in (idx.start, idx.stop, idx.step)):
            kept = have[idx]  # `t[1:3]`: those elements
            return kept if out.shape == (len(kept),) else None
        i = _element_index(idx, len(have))
        return (have[i],) if i is not None and out.shape == () else None
    if last in _COMPARED and len(args) > 1 and bounds_of(args[1]) is not None and out.shape == src.shape:
        decided = [_against(_COMPARED[last], e, bounds_of(args[1])) for e in have]  # each element against the number
        return None if None in decided else tuple((1.0, 1.0) if d else (0.0, 0.0) for d in decided)
    if last in _SAME and out.shape is not None and out.numel() == len(have):
        if out.dtype == src.dtype or (src.dtype in INT_DTYPES and out.dtype in ("float32", "float64")
                                      and all(abs(lo) < 2 ** 24 for lo, _ in have)):
            return have
    return None


_COMPARED = {**{f"__{op}__": op for op in ("lt", "le", "gt", "ge", "eq", "ne")},
             **{op: op for op in ("lt", "le", "gt", "ge", "eq", "ne")}}


def _against(op: str, x: Element, y: Element | None) -> bool | None:
    """`a OP b` for every a in [x0, x1] and b in [y0, y1]: True or False when the bounds (inclusive) decide it."""
    if y is None:
        return None
    if op in ("eq", "ne"):
        same = True if x[0] == x[1] == y[0] == y[1] else False if x[1] < y[0] or x[0] > y[1] else None
        return same if op == "eq" or same is None else not same
    if op in ("gt", "ge"):  # `a > b` is `b < a`
        op, x, y = {"gt": "lt", "ge": "le"}[op], y, x
    if op == "lt":
        return True if x[1] < y[0] else False if x[0] >= y[1] else None
    return True if x[1] <= y[0] else False if x[0] > y[1] else None  # le


# ----- floats known within bounds ------------------------------------------------------------------
def bounds_of(v: Any) -> Element | None:
    """[lo, hi] of a number known exactly or within bounds; None for anything else."""
    if isinstance(v, Unknown):
        return v.bounds
    return (float(v), float(v)) if _num(v) else None


def compare(name: str, a: Any, b: Any) -> bool | None:
    """`a < b` (`lt le gt ge eq ne`) where one side is a float known within bounds: decided when the
    bounds decide it, else None."""
    if not (isinstance(a, Unknown) and a.bounds or isinstance(b, Unknown) and b.bounds):
        return None
    x, y = bounds_of(a), bounds_of(b)
    if x is None or y is None:
        return None
    if x[1] < y[0]:  # every a below every b
        return {"lt": True, "le": True, "gt": False, "ge": False, "eq": False, "ne": True}.get(name)
    if x[0] > y[1]:
        return {"lt": False, "le": False, "gt": True, "ge": True, "eq": False, "ne": True}.get(name)
    return None


def arith(name: str, a: Any, b: Any) -> Unknown | None:
    """`a + b`, `a - b`, `a * b` of floats known within bounds (one side may be exact): bounds widened
    outward by a unit in the last place, so rounding never leaves them."""
    x, y = bounds_of(a), bounds_of(b)
    if x is None or y is None or name not in ("add", "sub", "mul"):
        return None
    if name == "add":
        lo, hi = x[0] + y[0], x[1] + y[1]
    elif name == "sub":
        lo, hi = x[0] - y[1], x[1] - y[0]
    else:
        corners = [p * q for p in x for q in y]
        lo, hi = min(corners), max(corners)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return None
    out = Unknown("arithmetic on a float known within bounds", "float")
    out.bounds = (math.nextafter(lo, -math.inf), math.nextafter(hi, math.inf))
    return out


def truth(v: Unknown) -> bool | None:
    """`bool(x)` of a float known within bounds: True when 0 is outside them."""
    return True if v.bounds is not None and (v.bounds[0] > 0 or v.bounds[1] < 0) else None
