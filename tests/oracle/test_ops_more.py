"""Oracle tests for `joining.py`, `products.py` and the numpy models: each case runs with real
torch (or numpy) and with pytea-ci, on accepted and rejected inputs."""

from __future__ import annotations

import pytest

from tests.oracle.harness import check_against_torch

CASES = [
    # split / chunk / unbind / narrow / select
    ("x = torch.randn(4, 10)\n", "torch.chunk(x, 3, dim=1)[2]"),
    ("x = torch.randn(4, 10)\n", "torch.chunk(x, 2, dim=2)[0]"),
    ("x = torch.randn(4, 10)\n", "x.split(4, dim=1)[2]"),
    ("x = torch.randn(4, 10)\n", "torch.split(x, [3, 7], dim=1)[1]"),
    ("x = torch.randn(4, 10)\n", "torch.split(x, [3, 8], dim=1)[1]"),
    ("x = torch.randn(4, 10)\n", "x.unbind(1)[0]"),
    ("x = torch.randn(4, 10)\n", "x.narrow(1, 2, 5)"),
    ("x = torch.randn(4, 10)\n", "x.narrow(1, 8, 5)"),
    ("x = torch.randn(4, 10)\n", "x.select(0, -1)"),
    ("x = torch.randn(4, 10)\n", "x.select(0, 4)"),
    # a 0-dim tensor has no dim to split or take
    ("x = torch.tensor(3.0)\n", "x.split(4)"),
    ("x = torch.tensor(3.0)\n", "x.split([1], dim=-1)"),
    ("x = torch.tensor(3.0)\n", "x.chunk(2, dim=1)"),
    ("x = torch.tensor(3.0)\n", "x.unbind(0)"),
    ("x = torch.tensor(3.0)\n", "x.narrow(0, 0, 1)"),
    ("x = torch.tensor(3.0)\n", "x.select(0, 0)"),
    ("x = torch.tensor(3.0)\n", "x.flip(0)"),
    # gather / scatter
    ("x = torch.randn(4, 10)\ni = torch.zeros(4, 3, dtype=torch.long)\n", "torch.gather(x, 1, i)"),
    ("x = torch.randn(4, 10)\ni = torch.zeros(5, 3, dtype=torch.long)\n", "torch.gather(x, 1, i)"),
    ("x = torch.randn(4, 10)\ni = torch.zeros(4, dtype=torch.long)\n", "torch.gather(x, 1, i)"),
    ("x = torch.zeros(4, 10)\ni = torch.zeros(4, 3, dtype=torch.long)\n", "x.scatter_add(1, i, torch.ones(4, 3))"),
    ("x = torch.zeros(4, 10)\ni = torch.zeros(4, 3, dtype=torch.long)\n", "x.scatter(1, i, torch.ones(4, 2))"),
    # data-dependent sizes
    ("x = torch.randn(4, 10)\n", "torch.nonzero(x > 0).t()"),
    ("x = torch.randn(4, 10)\n", "x.masked_select(torch.ones(3, 10, dtype=torch.bool))"),
    ("i = torch.zeros(4, 3, dtype=torch.long)\n", "torch.bincount(i)"),
    # rearranging
    ("x = torch.randn(2, 3, 4)\n", "torch.flip(x, [0, 2])"),
    ("x = torch.randn(2, 3, 4)\n", "torch.flip(x, [3])"),
    ("x = torch.randn(2, 3, 4)\n", "torch.movedim(x, (0, 1), (2, 0))"),
    ("x = torch.randn(2, 3, 4)\n", "x.tile((2, 1, 1, 1))"),
    ("x = torch.randn(2, 3, 4)\n", "torch.repeat_interleave(x, 3)"),
    ("x = torch.randn(2, 3, 4)\n", "x.repeat_interleave(2, dim=-1)"),
    ("a = torch.randn(3)\n", "torch.vstack([a, a, a])"),
    ("a = torch.randn(2, 3)\nb = torch.randn(2, 4)\n", "torch.vstack([a, b])"),
    ("a = torch.randn(2, 3)\nb = torch.randn(2, 4)\n", "torch.hstack([a, b])"),
    # triangular / diagonal
    ("x = torch.randn(5)\n", "torch.tril(x)"),
    ("x = torch.randn(2, 5, 5)\n", "torch.triu(x, 1)"),
    ("x = torch.randn(4)\n", "torch.diag(x, -2)"),
    ("x = torch.randn(4, 1)\n", "torch.diag(x)"),
    ("x = torch.randn(3, 5)\n", "torch.diag(x, 2)"),
    ("x = torch.randn(2, 3, 5)\n", "torch.diag(x)"),
    ("x = torch.randn(2, 3)\n", "torch.diag_embed(x)"),
    # products
    ("a = torch.randn(3)\nb = torch.randn(4)\n", "torch.outer(a, b)"),
    ("a = torch.randn(3)\nb = torch.randn(4)\n", "torch.dot(a, b)"),
    ("a = torch.randn(3, 1)\nb = torch.randn(3)\n", "torch.dot(a, b)"),
    ("a = torch.randn(5, 3)\n", "torch.cross(a, a, dim=1)"),
    ("a = torch.randn(5, 4)\n", "torch.cross(a, a, dim=1)"),
    ("a = torch.randn(2, 3)\nb = torch.randn(3, 5)\n", "torch.einsum('ij,jk->ik', a, b)"),
    ("a = torch.randn(2, 3)\nb = torch.randn(4, 5)\n", "torch.einsum('ij,jk->ik', a, b)"),
    ("a = torch.randn(7, 2, 3)\nb = torch.randn(7, 3, 5)\n", "torch.einsum('bij,bjk->bik', a, b)"),
    ("a = torch.randn(7, 2, 3)\nb = torch.randn(7, 3, 5)\n", "torch.einsum('bij,bjk', a, b)"),
    ("a = torch.randn(7, 2, 3)\n", "torch.einsum('ij->ji', a)"),
    ("a = torch.randn(4, 2, 3)\n", "torch.einsum('bij->b', a)"),
    # ellipsis: the dims it covers broadcast right-aligned across operands
    ("a = torch.randn(5, 7, 2, 3)\nb = torch.randn(3, 4)\n", "torch.einsum('...ij,jk->...ik', a, b)"),
    ("a = torch.randn(5, 7, 2, 3)\nb = torch.randn(7, 3, 4)\n", "torch.einsum('...ij,...jk->...ik', a, b)"),
    ("a = torch.randn(5, 7, 2, 3)\nb = torch.randn(6, 3, 4)\n", "torch.einsum('...ij,...jk->...ik', a, b)"),
    ("a = torch.randn(5, 1, 2, 3)\nb = torch.randn(6, 3, 4)\n", "torch.einsum('...ij,...jk', a, b)"),
    ("a = torch.randn(5, 7, 2, 3)\nb = torch.randn(2, 4)\n", "torch.einsum('...ij,jk->...ik', a, b)"),
    ("a = torch.randn(2, 3)\n", "torch.einsum('...->...', a)"),
    ("a = torch.randn(2, 3, 4)\n", "torch.einsum('i...->...i', a)"),
    ("a = torch.randn(2, 3, 4)\n", "torch.einsum('i...j', a)"),
    ("a = torch.randn(2, 3, 4)\nb = torch.randn(4, 3)\n", "torch.einsum('b...d,...d->b...', a, b)"),
    ("a = torch.randn(4)\n", "torch.einsum('ij...->...', a)"),
    ("q = torch.randn(2, 8, 5, 16)\nk = torch.randn(2, 8, 6, 16)\n", "torch.einsum('... i d, ... j d -> ... i j', q, k)"),
    ("m = torch.randn(2, 3)\nn = torch.randn(3, 5)\n", "torch.addmm(torch.randn(5), m, n)"),
    ("m = torch.randn(2, 3)\nn = torch.randn(3, 5)\n", "torch.addmm(torch.randn(4), m, n)"),
    ("m = torch.randn(7, 2, 3)\nn = torch.randn(7, 3, 5)\n", "torch.baddbmm(torch.randn(1, 2, 5), m, n)"),
    ("m = torch.randn(7, 2, 3)\nn = torch.randn(7, 4, 5)\n", "torch.baddbmm(torch.randn(7, 2, 5), m, n)"),
    ("a = torch.randn(6, 3)\nb = torch.randn(8, 3)\n", "torch.cdist(a, b)"),
    ("a = torch.randn(2, 6, 3)\nb = torch.randn(8, 4)\n", "torch.cdist(a, b)"),
    ("a = torch.randn(2, 3)\nb = torch.randn(4)\n", "torch.dist(a, b)"),
]


@pytest.mark.parametrize("setup,expr", CASES)
def test_against_torch(setup: str, expr: str) -> None:
    check_against_torch(setup, expr)


NUMPY_CASES = [
    ("a = np.zeros((2, 3))\n", "a + np.ones(3)"),
    ("a = np.zeros((2, 3))\n", "a - np.ones(4)"),
    ("a = np.zeros((10, 8, 8, 3))\nm = a.mean(axis=(0, 1, 2))\n", "a.transpose(0, 3, 1, 2) / m"),
    ("a = np.zeros((10, 8, 8, 3))\nm = a.mean(axis=(0, 1, 2), keepdims=True)\n", "a / m"),
    ("a = np.zeros((2, 3))\n", "np.concatenate([a, np.zeros((2, 4))], axis=1)"),
    ("a = np.zeros((2, 3))\n", "np.concatenate([a, np.zeros((2, 4))], axis=0)"),
    ("a = np.zeros((2, 3))\n", "np.stack([a, a], axis=2)"),
    ("a = np.zeros((2, 3))\n", "np.expand_dims(a, 2)"),
    ("a = np.zeros((2, 3))\n", "a.reshape(-1, 4)"),
    ("a = np.zeros((2, 3))\n", "np.argmax(a, axis=1)"),
    ("a = np.zeros((2, 3))\n", "np.vstack([a, np.zeros(3)])"),
    ("a = np.array([[1, 2], [3, 4], [5, 6]])\n", "np.transpose(a)"),
    # numpy counts int indices as advanced: an int between a slice and a list splits differently
    ("a = np.zeros((4, 3, 10, 12))\n", "a[:, 0, :, [2, 3]]"),
    ("a = np.zeros((4, 3, 10, 12))\n", "a[0, :, [1, 2]]"),
    ("a = np.zeros((4, 3, 10, 12))\n", "a[:, [0, 1], :, [2, 3]]"),
    ("a = np.zeros((4, 3, 10, 12))\n", "a[:, [0, 1], 2, [2, 3]]"),
    ("a = np.zeros((4, 3, 10, 12))\n", "a[:, :, [[1], [2]], [0, 3, 5]]"),
]


@pytest.mark.parametrize("setup,expr", NUMPY_CASES)
def test_numpy_against_numpy(setup: str, expr: str) -> None:
    check_against_torch("import numpy as np\n" + setup, expr)
