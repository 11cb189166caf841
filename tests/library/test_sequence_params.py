"""Library mode: required parameters annotated as sequences of ints (fixtures/sequence_params.py).

They are built as sizes per stage (`__pytea_stages__`), whose number is a guess; a module that no way of
running gets through with the guessed number is run again with other numbers (`results.other_stage_counts`),
so a number that disagrees with another parameter (a fixed `spatial_dims`) is never reported as the module's
bug. torch is the oracle: each class built consistently runs, and the one marked in the fixture raises.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from typing import Any

import pytest

from pytea_ci.library.results import analyze_module, other_stage_counts
from pytea_ci.library.targets import int_sequence
from pytea_ci.solver import Decider
from tests.library.helpers import FIXTURES, expectations, targets

PATH = os.path.join(FIXTURES, "sequence_params.py")


@pytest.mark.parametrize("text,expected", [
    ("Sequence[int]", True), ("typing.Sequence[int]", True), ("list[int]", True), ("Tuple[int, ...]", True),
    ("'Sequence[int]'", True), ("Tuple[int, int]", False), ("Sequence[float]", False), ("int", False),
    ("Sequence[int] | int", False)])
def test_int_sequence_annotations(text: str, expected: bool) -> None:
    import ast

    assert int_sequence(ast.parse(text, mode="eval").body) is expected


def test_sequences_are_sizes_per_stage() -> None:
    built = {t.cls: t.construct for t in targets(PATH)}
    assert "in_shape=__pytea_stages__('in_shape', 2)" in built["Encoder"]
    assert "channels=__pytea_stages__('channels', 2)" in built["Encoder"]
    (volume,) = [t for t in targets(PATH) if t.cls == "Volume"]
    assert [o.construct.count("__pytea_stages__('in_shape', 3)") for o in other_stage_counts(volume)] == [1, 0, 0]


def test_findings_match_the_markers() -> None:
    found = set()
    for t in targets(PATH):
        res = analyze_module(t, FIXTURES, Decider(), 20.0, strict=True)
        found |= {(d.span.line, d.rule) for d in res.diagnostics if d.severity.value != "note"}
    assert found == expectations(PATH)


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("libfixture_sequence_params", PATH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("spatial", [1, 2, 3])
def test_consistent_constructions_under_torch(spatial: int) -> None:
    torch = pytest.importorskip("torch")
    mod = _load()
    size = (8,) * spatial
    x = torch.randn(2, 3, *size)
    with torch.no_grad():
        if spatial == 2:
            mod.Encoder((3, *size), (4, 8), (2, 2), 5)(x)
            with pytest.raises(RuntimeError):
                mod.EncoderWrongHead((3, *size), (4, 8), (2, 2), 5)(x)
        mod.Shaped(spatial, (3, *size), 4)(x)
        if spatial == 3:
            mod.Volume((3, *size), 4)(x)
    assert sys.modules.get("libfixture_sequence_params") is None
