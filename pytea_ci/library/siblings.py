"""Library mode: the inputs a project passes to its *other* models, as evidence for a model nobody calls.

A folder of models (kuangliu's `models/`: `resnet.py`, `senet.py`, `lenet.py`, ...) is usually fed one
kind of data: its files' own call sites pass `torch.randn(1, 3, 32, 32)` to every model but one, which
the training script builds only in a commented-out line. That input is evidence for the one left: a
module that fails on it is reported, as a warning (the evidence is the folder's, not the module's own).

Only when it is strong: a target of no call site's input of its own, built with a construction of the
project or its literal defaults (no symbol: a generic block takes what its parent gives it), that no
other module class builds (a part of a larger model takes its parent's sizes, not the data's), with as
many tensor inputs as its siblings take; the siblings, at least `MIN_SIBLINGS` classes of the same
folder defined in at least half of its files of module classes (a convention of the folder, not two
1-D variants among sixty image models), are called with inputs that agree (the same rank and the same
sizes but the batch).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable

from pytea_ci.library.inputs import CallerInput, LibraryTarget

MIN_SIBLINGS = 2


# (folder, inputs) -> ("file::class" -> an input a site passes it, the folder's files defining module classes)
Called = Callable[[str, int], tuple[dict[str, CallerInput], int]]


def with_siblings(targets: list[LibraryTarget], parts: set[str], called: Called) -> list[LibraryTarget]:
    """`targets`, each top-level one without callers given its folder's agreed input (see the module);
    `called(folder, n)`: the inputs of n tensors the project's call sites pass to the module classes of
    the folder, by class, and how many of its files define module classes."""
    has = {(t.path, t.cls) for t in targets if t.callers}
    memo: dict[tuple[str, int], CallerInput | None] = {}
    out = []
    for t in targets:
        if (t.path, t.cls) not in has and _top(t, parts) and _concrete(t):
            key = (os.path.dirname(t.path), len(t.inputs))
            if key not in memo:
                memo[key] = _agreed(called(*key))
            found = memo[key]
            if found is not None:
                t = dataclasses.replace(t, callers=(dataclasses.replace(found, construct=t.construct),))
        out.append(t)
    return out


def _top(t: LibraryTarget, parts: set[str]) -> bool:
    return f"{t.path}::{t.cls}" not in parts and not t.via and bool(t.inputs) \
        and all(s.kind == "tensor" for s in t.inputs)


def _concrete(t: LibraryTarget) -> bool:
    return "__pytea_" not in t.construct


def _agreed(called: tuple[dict[str, CallerInput], int]) -> CallerInput | None:
    """One of the inputs, when at least `MIN_SIBLINGS` classes, defined in at least half of the folder's
    files of module classes, are called, and every call agrees but for the batch size (a folder of many
    models, two of which are called with 1-D signals, says nothing of the others' data)."""
    by_cls, files = called
    shapes = {tuple(s[1:] for s in k.shapes) for k in by_cls.values()}
    ranks = {tuple(len(s) for s in k.shapes) for k in by_cls.values()}
    homes = {key.rsplit("::", 1)[0] for key in by_cls}
    if len(by_cls) < MIN_SIBLINGS or 2 * len(homes) < files or len(shapes) != 1 or len(ranks) != 1:
        return None
    key, first = sorted(by_cls.items())[0]
    return dataclasses.replace(first, sibling=key.rsplit("::", 1)[1])
