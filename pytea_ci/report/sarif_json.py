"""Building sarif-om objects and turning them into JSON data, without jschema_to_python.

jschema_to_python drops a value equal to the attrs default even when it was set on purpose (a result's
`level="warning"` vanishes and is then read as the rule's default), writes `null` for unset fields whose
default is not None, and is slow. Here a field is left out only when it is *unset*: None, or equal to its
default without having been given explicitly to `build`. Names come from each field's
`metadata["schema_property_name"]`; plain dicts (property bags) and lists are walked as they are.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attr

T = TypeVar("T")
_GIVEN = "_pytea_given"  # instance attribute: names of the fields passed to `build`


def build(cls: type[T], **fields: Any) -> T:
    """Make a sarif-om object; every field given here (and not None) is serialized, even if default."""
    given = {k: v for k, v in fields.items() if v is not None}
    obj = cls(**given)
    setattr(obj, _GIVEN, frozenset(given))
    return obj


_NO_DEFAULT = object()
_Spec = tuple[tuple[str, str, Any], ...]  # per field: attribute name, JSON name, default
_SPECS: dict[type, _Spec | None] = {}  # None: not an attrs class


def _spec(cls: type) -> _Spec | None:
    if cls not in _SPECS:
        _SPECS[cls] = tuple(
            (f.name, f.metadata.get("schema_property_name", f.name), _default(f)) for f in attr.fields(cls)
        ) if attr.has(cls) else None
    return _SPECS[cls]


def _default(field: attr.Attribute[Any]) -> Any:
    default: Any = field.default
    if default is attr.NOTHING:
        return _NO_DEFAULT
    factory = getattr(default, "factory", None)  # an `attr.Factory(...)` default
    return factory() if callable(factory) else default


def to_data(value: Any) -> Any:
    """Convert a sarif-om object tree (with dicts, lists and scalars) into JSON-ready data."""
    spec = _spec(type(value))
    if spec is not None:
        given: frozenset[str] = getattr(value, _GIVEN, frozenset())
        out: dict[str, Any] = {}
        for name, json_name, default in spec:
            item = getattr(value, name)
            if item is None or (name not in given and item == default):
                continue
            out[json_name] = to_data(item)
        return out
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    return value
