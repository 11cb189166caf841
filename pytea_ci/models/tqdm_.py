"""`tqdm` progress bars as pass-through iterators: iterating a bar iterates what it wraps (a
DataLoader keeps its representative full and short last batches), `len` is the wrapped length,
and the bar's own methods do nothing."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Instance, RangeVal, Unknown


def _noop(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return None


@native_class("tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm", "tqdm.std.tqdm", "tqdm.tqdm_notebook",
              identity_eq=True)
class Tqdm:
    def init(ctx: Ctx, self: Instance, iterable: Any = None, *args: Any, **kwargs: Any) -> None:
        self.attrs.update(iterable=iterable, total=kwargs.get("total"), n=0)

    def __iter__(ctx: Ctx, self: Instance) -> Any:
        inner = self.attrs["iterable"]
        if inner is None:
            return ctx.unknown("iteration over a tqdm bar without an iterable")
        if isinstance(inner, Instance):
            it = ctx.getattr(inner, "__iter__")
            if not isinstance(it, Unknown):
                return ctx.call(it)
        return inner

    def __len__(ctx: Ctx, self: Instance) -> Any:
        from pytea_ci.models.builtins import len_

        inner, total = self.attrs["iterable"], self.attrs["total"]
        if total is not None:
            return total
        return len_(ctx, inner) if inner is not None else ctx.unknown("len of a tqdm bar")

    def __enter__(ctx: Ctx, self: Instance) -> Any:
        return self

    def __exit__(ctx: Ctx, self: Instance, *args: object) -> Any:  # noqa: PYI036
        return None

    update = set_description = set_postfix = set_postfix_str = set_description_str = close = refresh = _noop
    write = clear = reset = display = unpause = _noop


@model("tqdm.trange", "tqdm.auto.trange", "tqdm.notebook.trange")
def trange(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    from pytea_ci.models.builtins import range_

    r = range_(ctx, *args)
    return Instance(Tqdm, {"iterable": r, "total": None, "n": 0})  # type: ignore[arg-type]


_ = RangeVal
