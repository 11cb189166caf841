"""`isinstance` against collections.abc's ABCs and `enum.EnumMeta` (models/abc_kinds.py) and the
torch.nn constructor signatures (models/torch/nn/signatures.py) agree with CPython and the installed
torch."""

from __future__ import annotations

import collections.abc as cabc
import enum
import inspect

import pytest

from pytea_ci.models.abc_kinds import ONE_TRICK, abc_matches, enum_meta_matches
from pytea_ci.models.torch.nn.signatures import FORWARD_PARAMETERS, INIT_PARAMETERS
from pytea_ci.models.values import RangeVal
from pytea_ci.shapes.tensor import Tensor

np = pytest.importorskip("numpy")  # the oracle: numpy (absent where the suite runs without torch's family)

torch = pytest.importorskip("torch")
ABCS = sorted(set(ONE_TRICK) | {"Iterable", "Sequence", "Mapping", "MutableMapping"})
# (a value as the analyzer holds it, the same value in CPython)
PAIRS = [(1, 1), (1.5, 1.5), (True, True), (None, None), ("ab", "ab"), (b"ab", b"ab"), ((1, [2]), (1, [2])),
         ([1], [1]), ({}, {}), ({1}, {1}), (frozenset(), frozenset()), (RangeVal(0, 3, 1), range(3)),
         (Tensor((2, 3)), torch.zeros(2, 3)), (Tensor((2,), lib="numpy"), np.zeros(2))]


@pytest.mark.parametrize("abc", ABCS)
def test_builtin_kinds_answer_as_cpython(abc: str) -> None:
    for ours, real in PAIRS:
        assert abc_matches(ours, abc) == isinstance(real, getattr(cabc, abc)), (abc, real)


def test_enum_classes_and_members() -> None:
    from pytea_ci.models.registry import lookup
    from pytea_ci.models.values import ClassVal, Instance

    ours = ClassVal("Color", (lookup("enum.Enum"),), {})
    member = Instance(ours, {"name": "RED", "value": 1})

    class Color(enum.Enum):
        RED = 1

    assert enum_meta_matches(ours) is isinstance(Color, enum.EnumMeta) is True
    assert enum_meta_matches(member) is isinstance(Color.RED, enum.EnumMeta) is False
    assert enum_meta_matches(3) is False
    for abc in ABCS:
        assert abc_matches(ours, abc) in (isinstance(Color, getattr(cabc, abc)), None), abc
    assert abc_matches(member, "Hashable") is True


def test_nn_signatures_are_torchs() -> None:
    """Regenerate with `python scripts/gen_nn_signatures.py` when torch changes."""
    for qualname, row in INIT_PARAMETERS.items():
        cls = getattr(torch.nn, qualname.rsplit(".", 1)[-1])
        names = [p.name for p in inspect.signature(cls).parameters.values()]
        assert [w.lstrip("*/!").rstrip("=") for w in row.split()] == names, qualname
    for qualname, row in FORWARD_PARAMETERS.items():  # a layer's bound `forward`
        layer_forward = getattr(torch.nn, qualname.rsplit(".", 1)[-1]).forward
        names = [p.name for p in inspect.signature(layer_forward).parameters.values()][1:]
        assert [w.lstrip("*/!").rstrip("=") for w in row.split()] == names, qualname


def test_layer_modules_are_torchs() -> None:
    """`vars(torch.nn.modules.X)`'s torch.nn classes, in its order (scripts/gen_tensor_attrs.py)."""
    import importlib

    from pytea_ci.models.torch.tensor_attrs import LAYER_MODULES

    for qual, names in LAYER_MODULES.items():
        space = vars(importlib.import_module(qual))
        assert list(names) == [n for n, v in space.items() if isinstance(v, type) and issubclass(v, torch.nn.Module)
                               and getattr(torch.nn, n, None) is v and n == v.__name__], qual
