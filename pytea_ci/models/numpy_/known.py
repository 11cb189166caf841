"""Small numpy arrays of known numbers: `np.atleast_1d(kernel_size)` of a configuration's int or tuple
is a 1-D array whose items are known, with numpy's element-wise arithmetic and comparisons (broadcast
against scalars and arrays of one item), `np.any`/`np.all`, iteration, indexing, `len`, `tolist`,
`ndim`/`shape`/`size` — so sizes a program computes from its configuration through numpy (same
padding, output sizes of a chain of convolutions) stay known. What such an array meets beyond that
(a torch or numpy model, an operand not known) is not known; nothing here produces a finding.
"""

from __future__ import annotations

import operator
from typing import Any, Callable

from pytea_ci.models import contents
from pytea_ci.models.context import Ctx
from pytea_ci.models.builtins import NUMPY_SCALARS
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Instance
from pytea_ci.shapes.dim import is_dim
from pytea_ci.shapes.tensor import Tensor

_MAX_ITEMS = 64


def _number(v: Any) -> bool:
    return isinstance(v, (bool, float)) or is_dim(v)


def known_array(items: list[Any]) -> Instance:
    return Instance(KnownArray, {"items": tuple(items), "ndim": 1, "shape": (len(items),),  # type: ignore[arg-type]
                                 "size": len(items)})


def items_of(v: Any) -> tuple[Any, ...] | None:
    """The items of a known array, or of a 1-D ndarray whose contents are known (`np.asarray((32, 32),
    dtype=int)`: models/contents.py), else None."""
    if isinstance(v, Instance) and v.cls is KnownArray:
        return v.attrs["items"]  # type: ignore[no-any-return]
    return contents.scalars(v) if isinstance(v, Tensor) else None


def as_ndarray(v: Any) -> Any:
    """A known array as the ndarray it stands for where a model of numpy's takes it as an operand: 1-D, as
    many items, numpy's dtype of them (bool, int64 or float64); anything else as it is."""
    items = items_of(v) if isinstance(v, Instance) else None
    if items is None:
        return v
    kinds = {"bool" if isinstance(x, bool) else "float64" if isinstance(x, float) else "int64" for x in items}
    dtype = "float64" if "float64" in kinds else "int64" if "int64" in kinds else "bool"
    return Tensor((len(items),), dtype, "numpy")


def _operand(v: Any) -> tuple[Any, ...] | None:
    """An operand as items: a known array's, a number's (one, broadcast)."""
    items = items_of(v)
    if items is not None:
        return items
    return (v,) if _number(v) else None


def elementwise(ctx: Ctx, a: Any, b: Any, fn: Callable[[Any, Any], Any], what: str) -> Any:
    """`a <op> b` item by item, numpy's broadcast of one item; not known when an item's result is not a
    number (a symbolic comparison) or an operand is not known."""
    xs, ys = _operand(a), _operand(b)
    if xs is None or ys is None or (len(xs) != len(ys) and 1 not in (len(xs), len(ys))):
        return ctx.unknown(f"numpy {what} of an array not known")
    n = max(len(xs), len(ys))
    try:
        out = [fn(xs[i if len(xs) > 1 else 0], ys[i if len(ys) > 1 else 0]) for i in range(n)]
    except (ZeroDivisionError, TypeError):
        return ctx.unknown(f"numpy {what} not known")
    return known_array(out) if all(_number(v) for v in out) else ctx.unknown(f"numpy {what} not known")


def _binary(op: Callable[[Any, Any], Any], name: str, reflected: bool = False) -> Callable[..., Any]:
    def method(ctx: Ctx, self: Instance, other: Any) -> Any:
        return elementwise(ctx, other, self, op, name) if reflected else elementwise(ctx, self, other, op, name)
    return method


ITEM_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
    "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow}
COMPARE_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge}


class _Body:
    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return len(self.attrs["items"])

    def __iter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return list(self.attrs["items"])

    def __getitem__(ctx: Ctx, self: Instance, idx: Any) -> Any:  # noqa: N805
        items = self.attrs["items"]
        if isinstance(idx, int) and not isinstance(idx, bool) and -len(items) <= idx < len(items):
            return items[idx]
        return ctx.unknown("an item of a numpy array")

    def __neg__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return elementwise(ctx, self, 0, lambda x, _: -x, "negation")

    def tolist(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return list(self.attrs["items"])


for _name, _fn in {**ITEM_OPS, **COMPARE_OPS}.items():
    setattr(_Body, f"__{_name}__", _binary(_fn, _name))
    if _name in ITEM_OPS:
        setattr(_Body, f"__r{_name}__", _binary(_fn, _name, reflected=True))

KnownArray = native_class("builtins.KnownArray", identity_eq=False)(_Body)


@model("numpy.atleast_1d")
def atleast_1d(ctx: Ctx, *arys: Any) -> Any:
    """Of a number or a short list/tuple of numbers: a known array; of an ndarray: itself (rank >= 1)."""
    if len(arys) != 1:
        return ctx.unknown("numpy.atleast_1d of several arrays")
    a = arys[0]
    if _number(a):
        return known_array([a])
    if isinstance(a, (list, tuple)) and 0 < len(a) <= _MAX_ITEMS and all(_number(v) for v in a):
        return known_array(list(a))
    items = items_of(a)
    if items is not None:
        return a if isinstance(a, Instance) else known_array(list(items))
    if isinstance(a, Tensor) and a.lib == "numpy" and a.shape is not None and len(a.shape) >= 1:
        return a
    return ctx.unknown("numpy.atleast_1d of a value not known")


def _truth(ctx: Ctx, a: Any, every: bool) -> Any:
    items = items_of(a)
    if items is None and isinstance(a, (list, tuple)) and all(isinstance(v, (bool, int, float)) for v in a):
        items = tuple(a)
    if items is None and isinstance(a, (bool, int, float)):
        items = (a,)
    if items is None or not all(isinstance(v, (bool, int, float)) for v in items):
        return ctx.unknown(f"numpy.{'all' if every else 'any'} of values not known")
    return all(items) if every else any(items)


@model("numpy.any")
def any_(ctx: Ctx, a: Any, *args: Any, **kwargs: Any) -> Any:
    return _truth(ctx, a, False) if not args and not kwargs else ctx.unknown("numpy.any along an axis")


@model("numpy.all")
def all_(ctx: Ctx, a: Any, *args: Any, **kwargs: Any) -> Any:
    return _truth(ctx, a, True) if not args and not kwargs else ctx.unknown("numpy.all along an axis")


# numpy's scalar types, as classes `isinstance` can test against: a Python container, a string, None or a torch
# tensor is never one of them (`builtins._type_matches`); a Python number may stand for a numpy scalar, so
# whether it is one stays not known (torchrl's `isinstance(shape, np.integer)` of a torch.Size took both ways)
for _qual in NUMPY_SCALARS:
    native_class(_qual)(type(_qual.rsplit(".", 1)[1], (), {}))
