"""The torch.Tensor names `models/numpy_/array.py` says no NumPy array has (`TENSOR_ONLY`): checked against the
installed NumPy's `numpy.ndarray` and torch's `torch.Tensor` (CPython's `hasattr` is the oracle)."""

from __future__ import annotations

import pytest

from pytea_ci.models.numpy_.array import TENSOR_ONLY


def test_no_numpy_array_has_them() -> None:
    np = pytest.importorskip("numpy")
    arr = np.zeros((2, 3), dtype=np.float32)
    assert [n for n in TENSOR_ONLY if hasattr(arr, n)] == []
    assert [n for n in TENSOR_ONLY if hasattr(np.float32(1.0), n)] == []  # nor a NumPy scalar


def test_every_one_is_a_tensor_attribute() -> None:
    torch = pytest.importorskip("torch")
    assert [n for n in TENSOR_ONLY if not hasattr(torch.zeros(2), n)] == []
