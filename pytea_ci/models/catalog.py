"""The catalogue of modeled APIs, read from the registry: one entry per model (aliases of one
Builtin/ClassVal object are one API, listed under its first registered name), plus computed
attributes. `scripts/gen_models_doc.py` renders it as docs/models.md."""

from __future__ import annotations

from dataclasses import dataclass

import pytea_ci.models.all  # noqa: F401  (registers every model)
from pytea_ci.models.registry import PROPERTIES, REGISTRY
from pytea_ci.models.values import Builtin, ClassVal

# Roots whose names count towards the API breadth target (the libraries tensors come from).
LIBRARY_ROOTS = ("torch", "torchvision", "numpy", "PIL", "einops")


@dataclass(frozen=True)
class Entry:
    name: str  # the first registered fully-qualified name
    aliases: tuple[str, ...]  # the other names of the same model
    kind: str  # "function", "class" or "attribute"


def entries() -> list[Entry]:
    groups: dict[int, list[str]] = {}
    kinds: dict[int, str] = {}
    for name, value in REGISTRY.items():
        if not isinstance(value, (Builtin, ClassVal)):
            continue  # constants such as dtypes
        groups.setdefault(id(value), []).append(name)
        kinds[id(value)] = "class" if isinstance(value, ClassVal) else "function"
    for name, p in PROPERTIES.items():
        key = id(p.fn)
        groups.setdefault(key, []).append(name)
        kinds[key] = "attribute"
    out = [Entry(names[0], tuple(sorted(set(names[1:]))), kinds[key]) for key, names in groups.items()]
    return sorted(out, key=lambda e: e.name)


def modeled_names() -> list[str]:
    """Distinct modeled APIs by their first registered fully-qualified name, sorted."""
    return [e.name for e in entries()]


def library_names() -> list[str]:
    """Distinct modeled APIs of the tensor libraries (torch, torchvision, numpy, PIL, einops)."""
    return [e.name for e in entries() if any(n.split(".")[0] in LIBRARY_ROOTS for n in (e.name,) + e.aliases)]
