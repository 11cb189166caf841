"""Library mode: the inputs a project passes to its *other* models, as evidence for a model nobody calls.

A folder of models (kuangliu's `models/`: `resnet.py`, `senet.py`, `lenet.py`, ...) is usually fed one
kind of data: its files' own call sites pass `torch.randn(1, 3, 32, 32)` to every model but one, which
the training script builds only in a commented-out line. That input is evidence for the one left: a
module that fails on it is reported, as a warning (the evidence is the folder's, not the module's own).

Only when it is strong: a target of no call site's input of its own, built with a construction of the
project or its literal defaults (no symbol: a generic block takes what its parent gives it), that no
other module class builds (a part of a larger model takes its parent's sizes, not the data's), with as
many tensor inputs as its siblings take; the siblings, at least `MIN_SIBLINGS` distinct top-level
classes of the same folder, pass inputs that agree (the same rank and the same sizes but the batch).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable

from pytea_ci.library.inputs import CallerInput, LibraryTarget

MIN_SIBLINGS = 2


Called = Callable[[str, int], dict[str, CallerInput]]  # (folder, inputs) -> class -> an input a site passes it


def with_siblings(targets: list[LibraryTarget], parts: set[str], called: Called) -> list[LibraryTarget]:
    """`targets`, each top-level one without callers given its folder's agreed input (see the module);
    `called(folder, n)`: the inputs of n tensors the project's call sites pass to the module classes of
    the folder, by class."""
    has = {(t.path, t.cls) for t in targets if t.callers}
    memo: dict[tuple[str, int], CallerInput | None] = {}
    out = []
    for t in targets:
        if (t.path, t.cls) not in has and _top(t, parts) and _concrete(t):
            key = (os.path.dirname(t.path), len(t.inputs))
            if key not in memo:
                memo[key] = _agreed(called(*key))
            found = memo[key]
            if found is not None and found.sibling != t.cls:
                t = dataclasses.replace(t, callers=(dataclasses.replace(found, construct=t.construct),))
        out.append(t)
    return out


def _top(t: LibraryTarget, parts: set[str]) -> bool:
    return f"{t.path}::{t.cls}" not in parts and not t.via and bool(t.inputs) \
        and all(s.kind == "tensor" for s in t.inputs)


def _concrete(t: LibraryTarget) -> bool:
    return "__pytea_" not in t.construct


def _agreed(by_cls: dict[str, CallerInput]) -> CallerInput | None:
    """One of the inputs, when at least `MIN_SIBLINGS` classes are called and every call agrees but for
    the batch size."""
    shapes = {tuple(s[1:] for s in k.shapes) for k in by_cls.values()}
    ranks = {tuple(len(s) for s in k.shapes) for k in by_cls.values()}
    if len(by_cls) < MIN_SIBLINGS or len(shapes) != 1 or len(ranks) != 1:
        return None
    cls, first = sorted(by_cls.items())[0]
    return dataclasses.replace(first, sibling=cls)
