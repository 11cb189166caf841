"""`torch.nn.modules.utils`: `_single`, `_pair`, `_triple`, `_quadruple` and `_ntuple(n)`, which layer code
outside torch uses to normalize size arguments (`padding = _pair(padding)`): an iterable becomes the tuple
of its items, anything else is repeated n times — as torch's `_ntuple` does. An iterable whose items are
not known, or a value not understood, stays not understood."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import is_number
from pytea_ci.models.registry import model
from pytea_ci.models.values import Builtin, Unknown


def ntuple(ctx: Ctx, x: Any, n: int) -> Any:
    if is_number(x) or x is None:  # (a number of unknown value has a known kind: `is_number` says so)
        return (x,) * n
    items = ctx.iterate(x) if not isinstance(x, Unknown) else None
    return tuple(items) if items is not None else ctx.unknown(f"_ntuple({n}) of a value not understood")


def _fixed(n: int) -> Any:
    def parse(ctx: Ctx, x: Any) -> Any:
        return ntuple(ctx, x, n)
    return parse


for _n, _name in ((1, "_single"), (2, "_pair"), (3, "_triple"), (4, "_quadruple")):
    model(f"torch.nn.modules.utils.{_name}")(_fixed(_n))


@model("torch.nn.modules.utils._ntuple")
def ntuple_factory(ctx: Ctx, n: Any, name: Any = "parse") -> Any:
    if not isinstance(n, int) or isinstance(n, bool):
        return ctx.unknown("_ntuple of a count not known")
    return Builtin(f"torch.nn.modules.utils._ntuple({n})", _fixed(int(n)))
