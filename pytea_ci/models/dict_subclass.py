"""Classes of the program deriving from `dict` or `OrderedDict` (transformers' `ModelOutput`,
`ClassInstantier`): the base they get keeps their items like a dict's (`stmts.ex_ClassDef` swaps
the base in), so `output[0]`, `output.to_tuple()`, `"key" in output` stay known. `collections.defaultdict`
is such a dict whose missing keys are made by its factory (timm's registries: `defaultdict(DefaultCfg)`)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.builtins import len_
from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import native_class
from pytea_ci.models.values import Instance, Unknown

_ITEMS = "__dict_items__"  # where an instance of a dict subclass keeps its items


def _items(ctx: Ctx, self: Any) -> dict[Any, Any] | None:
    if not isinstance(self, Instance):
        return None
    found = self.attrs.get(_ITEMS)
    if not isinstance(found, dict):
        found = self.attrs[_ITEMS] = {}
    return found


def _hashable(key: Any) -> bool:
    try:
        hash(key)
    except TypeError:
        return False
    return not isinstance(key, Unknown)


def _fill(ctx: Ctx, self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    items = _items(ctx, self)
    if items is None:
        return
    source = args[0] if len(args) == 1 else {}
    if isinstance(source, dict):
        items.update(source)
        if id(source) in getattr(ctx, "inexact", ()):
            ctx.mark_inexact(items)  # type: ignore[arg-type]
    elif isinstance(source, (list, tuple)) and all(isinstance(p, tuple) and len(p) == 2 and _hashable(p[0])
                                                     for p in source):
        items.update(source)
    else:
        ctx.mark_inexact(items)  # type: ignore[arg-type]  # items not known
    items.update(kwargs)


@native_class("builtins.dict.__base__")
class dict_base:
    """The base a program's class deriving from `dict` or `OrderedDict` gets (`class Output(OrderedDict)`,
    transformers' ModelOutput): its items are kept like a dict's; a key not known makes the answer unknown."""

    def init(ctx: Ctx, self: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N805
        _fill(ctx, self, args, kwargs)

    def __setitem__(ctx: Ctx, self: Any, key: Any, value: Any) -> None:  # noqa: N805
        items = _items(ctx, self)
        if items is not None and _hashable(key):
            items[key] = value
            ctx.note_mutation(items)  # type: ignore[arg-type]
        elif items is not None:
            ctx.mark_inexact(items)  # type: ignore[arg-type]

    def __getitem__(ctx: Ctx, self: Any, key: Any) -> Any:  # noqa: N805
        items = _items(ctx, self)
        return ctx.getitem(items, key) if items is not None else ctx.unknown("dict item")

    def get(ctx: Ctx, self: Any, key: Any, default: Any = None) -> Any:  # noqa: N805
        items = _items(ctx, self)
        if items is not None and _hashable(key) and key in items:
            return items[key]
        return ctx.unknown("dict item") if items is None or not _hashable(key) else default

    def keys(ctx: Ctx, self: Any) -> Any:  # noqa: N805
        items = _items(ctx, self)
        return ctx.same_items(items, list(items)) if items is not None else ctx.unknown("dict keys")

    def values(ctx: Ctx, self: Any) -> Any:  # noqa: N805
        items = _items(ctx, self)
        return ctx.same_items(items, list(items.values())) if items is not None else ctx.unknown("dict values")

    def items(ctx: Ctx, self: Any) -> Any:  # noqa: N805
        items = _items(ctx, self)
        return ctx.same_items(items, list(items.items())) if items is not None else ctx.unknown("dict items")

    def __contains__(ctx: Ctx, self: Any, key: Any) -> Any:  # noqa: N805
        items = _items(ctx, self)
        return key in items if items is not None and _hashable(key) else ctx.unknown("membership")

    def __len__(ctx: Ctx, self: Any) -> Any:  # noqa: N805
        items = _items(ctx, self)
        return len_(ctx, items) if items is not None else ctx.unknown("len")

    def __iter__(ctx: Ctx, self: Any) -> Any:  # noqa: N805
        items = _items(ctx, self)
        return ctx.same_items(items, list(items)) if items is not None else ctx.unknown("iteration")



@native_class("collections.defaultdict", bases=(dict_base,))
class defaultdict:
    """A dict whose item of a key it lacks is made by `default_factory()` and kept; when its items are
    not all known, a key not seen may be there: the item is not known."""

    def init(ctx: Ctx, self: Any, default_factory: Any = None, *args: Any, **kwargs: Any) -> None:  # noqa: N805
        _fill(ctx, self, args, kwargs)
        if isinstance(self, Instance):
            self.attrs["default_factory"] = default_factory

    def __getitem__(ctx: Ctx, self: Any, key: Any) -> Any:  # noqa: N805
        items = _items(ctx, self)
        factory = self.attrs.get("default_factory") if isinstance(self, Instance) else None
        if items is not None and factory is not None and isinstance(key, Unknown) and not any(k is key for k in items):
            ctx.mark_inexact(items)  # type: ignore[arg-type]  # a key not known: maybe a new item, maybe one there
            return ctx.unknown("defaultdict item at a key not known")
        if items is None or not _hashable(key) or key in items or factory is None \
                or id(items) in getattr(ctx, "inexact", ()):
            return ctx.getitem(items, key) if items is not None else ctx.unknown("dict item")
        items[key] = ctx.call(factory)
        ctx.note_mutation(items)  # type: ignore[arg-type]
        return items[key]
