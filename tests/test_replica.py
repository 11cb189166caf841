"""Restores of a checkpoint restored often load a recording of its copy (interp/replica.py, issue 31 item 9):
the copy is the copier's (the same objects copied, the same ones shared, the same identities kept), each
restore is charged the same steps, and a library-mode run finds and is charged the same either way."""

from __future__ import annotations

import collections
from pathlib import Path
from typing import Any

import pytest

from pytea_ci.driver.check import check
from pytea_ci.driver.project import CheckRequest
from pytea_ci.interp import snapshot
from pytea_ci.interp.interpreter import Interpreter
from pytea_ci.models.values import ClassVal, Instance, NamedTupleVal, Unknown
from pytea_ci.shapes.dim import Sym
from pytea_ci.shapes.tensor import Tensor


class _Interp(Interpreter):
    def __init__(self) -> None:  # not run: only charged (`copy_state`) and handed out (the copier's interpreter)
        self.charges: list[int] = []

    def charge_work(self, steps: int) -> None:
        self.charges.append(steps)


class _Attrs(collections.OrderedDict):  # type: ignore[type-arg]
    pass


def _state(old: Interpreter) -> tuple[dict[str, Any], dict[str, Any]]:
    """A state with a value of every way the copier copies: containers, container subclasses with
    attributes, a program class and its instance, named tuples, tuples kept or copied, holders, atoms."""
    widths = [4, 8]
    base = ClassVal("Base", (), {"k": [1]}, "m.Base")
    cls = ClassVal("Net", (base,), {"sizes": widths}, "m.Net")
    cls.mro()  # a cached field
    inst = Instance(cls, {"w": widths, "t": Tensor((Sym("n"), 3))})
    attrs = _Attrs(a=widths)
    attrs.note = widths  # type: ignore[attr-defined]  # shared by the copier (a shallow copy), not copied
    default = collections.defaultdict(list, x=[1])
    kept = ("a", 1, (2, None))
    holder = Unknown("RRef(self)", None, None, (inst, widths))
    g = {"Net": cls, "net": inst, "widths": widths, "kept": kept, "mixed": (widths, kept), "attrs": attrs,
         "default": default, "nt": NamedTupleVal.of(cls, [widths, 2]), "holder": holder, "plain": Unknown("x"),
         "me": old, "set": {1, 2}, "frozen": frozenset({kept})}
    state = {"locals": [g["nt"], {"k": holder}], "inexact": {id(widths), id(inst), 12345},
             "known_len": {id(widths): 2}}
    return state, g


def _same(a: Any, b: Any, pairs: dict[int, int], interp: Interpreter) -> None:
    """`b` is a copy of `a` made as the copier makes it: one copy per object, what it keeps kept."""
    if isinstance(a, _Interp):
        assert b is interp
        return
    if id(a) in pairs:
        assert pairs[id(a)] == id(b)
        return
    pairs[id(a)] = id(b)
    assert type(a) is type(b)
    if isinstance(a, dict):
        assert list(a) == list(b) or all(type(k) is int for k in a)
        for va, vb in zip(a.values(), b.values()):
            _same(va, vb, pairs, interp)
        if isinstance(a, _Attrs):
            assert b.note is a.note  # type: ignore[attr-defined]
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y, pairs, interp)
    elif isinstance(a, (ClassVal, Instance)):
        for k, v in vars(a).items():
            _same(v, getattr(b, k), pairs, interp)
    elif isinstance(a, Unknown):
        _same(a.holds, b.holds, pairs, interp)
    else:
        assert a == b


def test_later_restores_load_the_same_copy_charged_the_same() -> None:
    old = _Interp()
    state, g = _state(old)
    cp = snapshot.Checkpoint((True,), *snapshot.copy_state(state, g, old))
    copies = []
    for _ in range(snapshot.RECORD_AT + 1):
        interp = _Interp()
        got = snapshot._copy_checkpoint(cp, interp)
        ref_interp = _Interp()
        ref = snapshot.copy_state(cp.state, cp.globals, ref_interp)
        assert interp.charges == ref_interp.charges  # the copier's objects, whichever way it was made
        pairs: dict[int, int] = {}
        _same(ref[1], got[1], pairs, interp)
        ref_rest = {k: v for k, v in ref[0].items() if k not in ("inexact", "known_len")}
        _same(ref_rest, {k: got[0][k] for k in ref_rest}, pairs, interp)
        assert got[0]["inexact"] == {pairs.get(i, i) for i in ref[0]["inexact"]}  # ids of the copies
        assert set(got[0]["known_len"]) == {pairs[i] for i in ref[0]["known_len"]}
        copies.append(got)
    assert cp.replica is not None and not cp.copier_only  # the last two were loaded
    second, third = (c[1] for c in copies[-2:])
    assert second["kept"] is cp.globals["kept"] and second["mixed"] is not cp.globals["mixed"]
    assert second["nt"].cls is cp.globals["nt"].cls  # the copier keeps a named tuple's class
    assert second["holder"].holds[1] is second["widths"] and second["plain"] is cp.globals["plain"]
    second["widths"].append(99)
    assert cp.globals["widths"] == [4, 8] and third["widths"] == [4, 8]  # copies: the checkpoint never changes


def test_a_value_it_cannot_record_keeps_the_copier() -> None:
    old = _Interp()
    Pair = collections.namedtuple("Pair", "a b")
    state, g = {"x": 1}, {"p": Pair([1], 2)}  # a namedtuple holding a list: made by `_make` (the copier)
    cp = snapshot.Checkpoint((), *snapshot.copy_state(state, g, old))
    for _ in range(snapshot.RECORD_AT + 1):
        got = snapshot._copy_checkpoint(cp, _Interp())[1]
        assert got["p"] == Pair([1], 2) and got["p"].a is not cp.globals["p"].a
    assert cp.copier_only and cp.replica is None


HEAVY = "".join(f"A{i} = {i} * 2\n" for i in range(1_500)) + """
from typing import NamedTuple
WIDTH = 8
REG = {}


class Shape(NamedTuple):
    c: int
    k: int


SHAPE = Shape(3, 5)


def register(cls):
    REG[cls.__name__] = cls
    return cls
"""
MODELS = """import torch.nn as nn
from pkg.heavy import WIDTH, SHAPE, register


@register
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(WIDTH, 4)
        self.out = nn.Linear(3, 2)

    def forward(self, x):
        return self.out(self.fc(x))


class Conv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(SHAPE.c, 8, SHAPE.k)

    def forward(self, x):
        return self.conv(x)


class Pair(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(WIDTH, 4)

    def forward(self, x, y):
        return self.fc(x) + y
"""


def _library_run(root: Path) -> list[tuple[str, str, int, list[tuple[str, int, str]]]]:
    entries = check(CheckRequest(root=str(root), no_cache=True, overrides={"library_mode": "only"})).result.entries
    return [(e.entry, e.status, e.stats.steps, sorted((d.rule, d.span.line, d.message) for d in e.diagnostics))
            for e in entries]


def test_a_library_run_is_the_same_with_the_copier_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "RECORD_AT", 2)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "heavy.py").write_text(HEAVY)
    for i in range(2):
        (tmp_path / "pkg" / f"models{i}.py").write_text(MODELS)
    _library_run(tmp_path)  # the process's first run pays a few steps more (models loaded on first use)
    loaded = []
    replay = snapshot.replay
    monkeypatch.setattr(snapshot, "replay", lambda rep, interp: loaded.append(1) or replay(rep, interp))
    recorded = _library_run(tmp_path)
    assert loaded  # restores after the first were loaded
    assert [(e, s) for e, s, _, _ in recorded].count(("pkg/models0.py::Net", "findings")) == 1

    def copier_only(cp: snapshot.Checkpoint) -> Any:
        raise snapshot.Unrecordable("test")

    monkeypatch.setattr(snapshot, "_record", copier_only)
    assert _library_run(tmp_path) == recorded
