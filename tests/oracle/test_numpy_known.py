"""Small arrays of known numbers (models/numpy_/known.py) compute what numpy computes."""

from __future__ import annotations

import operator

import pytest

from pytea_ci.models.numpy_.known import elementwise, _truth, items_of, known_array

np = pytest.importorskip("numpy")  # the oracle: numpy (absent where the suite runs without torch's family)


class _Ctx:
    def unknown(self, reason: str) -> str:
        return "unknown"


CASES = [((5, 3), 1, operator.sub), ((5, 3), (2, 2), operator.floordiv), ((4,), (1, 2, 3), operator.mul),
         ((4, 6), 2, operator.truediv), ((7, 2), 2, operator.mod), ((1, 3), (1, 4), operator.eq),
         ((9,), 4, operator.ge)]


@pytest.mark.parametrize("a,b,op", CASES)
def testelementwise_as_numpy(a: tuple, b: object, op: object) -> None:
    ours = elementwise(_Ctx(), known_array(list(a)), known_array(list(b)) if isinstance(b, tuple) else b, op, "op")  # type: ignore[arg-type]
    real = op(np.atleast_1d(a), np.atleast_1d(b))  # type: ignore[operator]
    assert list(items_of(ours) or ()) == real.tolist()


def test_mismatched_lengths_are_not_known_and_any_all_decide() -> None:
    assert elementwise(_Ctx(), known_array([1, 2]), known_array([1, 2, 3]), operator.add, "add") == "unknown"  # type: ignore[arg-type]
    assert _truth(_Ctx(), known_array([False, True]), False) is bool(np.any([False, True]))  # type: ignore[arg-type]
    assert _truth(_Ctx(), known_array([False, True]), True) is bool(np.all([False, True]))  # type: ignore[arg-type]
