"""Oracle for `Tensor.layout` (models/torch/sparse.py): a tensor torch makes dense has the layout
`torch.strided` in the analysis too (a branch on it takes torch's side), a sparse tensor's layout is never
claimed strided (the analysis leaves it not known), and the layout constants compare as torch's do."""

from __future__ import annotations

import itertools
import warnings

import pytest

from tests.oracle.harness import InProcess

torch = pytest.importorskip("torch")

SETUP = "i = torch.tensor([[0, 1], [1, 2]])\nsp = torch.sparse_coo_tensor(i, torch.tensor([3.0, 4.0]), (2, 3))\n"
DENSE = [
    "torch.randn(3, 4)",
    "torch.zeros(2, dtype=torch.long)",
    "torch.zeros(2, 3, layout=torch.strided)",
    "torch.tensor([1, 2])",
    "torch.randn(3, 4).t()",
    "torch.randn(3, 4)[0]",
    "torch.randn(3, 4).view(12)",
    "torch.randn(3) * 2",
    "torch.randn(2, 3) @ torch.randn(3, 2)",
    "torch.cat([torch.randn(2), torch.randn(3)])",
    "torch.randn(3).to(torch.float64)",
    "torch.randn(2, 3).sum(0)",
    "torch.nn.Linear(3, 2)(torch.randn(4, 3))",
]
SPARSE = [
    "sp",
    "sp * 2",
    "torch.zeros_like(sp)",
    "sp.coalesce()",
    "torch.zeros(2, 3, layout=torch.sparse_coo)",
    "torch.randn(3, 4).to_sparse()",
    "torch.randn(3, 4).to_sparse_csr()",
]
LAYOUTS = ["strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "_mkldnn"]
_RUNNER: list[InProcess] = []
_BAD = "    bad = torch.zeros(2, 3) @ torch.zeros(4, 5)\nok = torch.zeros(2, 3) @ torch.zeros(3, 4)\n"


def _findings(body: str) -> set[tuple[int, str]]:
    if not _RUNNER:
        _RUNNER.append(InProcess("layouts"))
    return _RUNNER[0].findings(body)


def _torch_layout(expr: str) -> object:
    scope = {"torch": torch}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(SETUP, scope)  # noqa: S102  (the oracle runs real torch on purpose)
        return eval(expr, scope).layout  # noqa: S307


@pytest.mark.parametrize("expr", DENSE)
def test_dense_is_strided(expr: str) -> None:
    assert _torch_layout(expr) is torch.strided
    body = f"import torch\n{SETUP}y = {expr}\nif y.layout != torch.strided:\n{_BAD}"
    assert not _findings(body), f"{expr}: torch gives torch.strided"


@pytest.mark.parametrize("expr", SPARSE)
def test_sparse_is_never_strided(expr: str) -> None:
    assert _torch_layout(expr) is not torch.strided
    body = f"import torch\n{SETUP}y = {expr}\nif y.layout != torch.strided:\n{_BAD}"
    assert _findings(body), f"{expr}: torch gives {_torch_layout(expr)}, the analysis claims torch.strided"


@pytest.mark.parametrize("expr", DENSE + SPARSE)
@pytest.mark.parametrize("flag", ["is_sparse", "is_sparse_csr"])
def test_sparse_flags(expr: str, flag: str) -> None:
    """`is_sparse`/`is_sparse_csr` are False for a dense tensor; never claimed False for a sparse one."""
    scope = {"torch": torch}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(SETUP, scope)  # noqa: S102
        value = getattr(eval(expr, scope), flag)  # noqa: S307
    body = f"import torch\n{SETUP}y = {expr}\nif y.{flag}:\n{_BAD}"
    if value:
        assert _findings(body), f"{expr}.{flag} is True in torch, the analysis claims False"
    elif expr in DENSE:
        assert not _findings(body), f"{expr}.{flag} is False in torch"


@pytest.mark.parametrize("a,b", list(itertools.product(LAYOUTS, repeat=2)))
def test_layout_constants_compare_as_torch(a: str, b: str) -> None:
    same = getattr(torch, a) == getattr(torch, b)
    body = f"import torch\nif (torch.{a} == torch.{b}) != {same}:\n{_BAD}"
    assert not _findings(body), f"torch.{a} == torch.{b} is {same} in torch"


def test_made_from_a_value_not_understood_is_not_dense() -> None:
    """A tensor op's result on a value not understood (it may be a sparse tensor) has its layout not
    known; a Python number not known keeps the result dense, and so does `layout=torch.strided`."""
    from pytea_ci.models.call_facets import _dense_operands
    from pytea_ci.models.torch.sparse import LAYOUTS
    from pytea_ci.models.values import Unknown
    from pytea_ci.shapes.tensor import Tensor

    t = Tensor((2, 3))
    assert _dense_operands((t, 2), {})
    assert _dense_operands((t, Unknown("n", pytype="int")), {"layout": LAYOUTS["strided"]})
    assert not _dense_operands(([Unknown("not understood"), t],), {})
    assert not _dense_operands((t,), {"layout": LAYOUTS["sparse_csr"]})
    assert not _dense_operands((t, Tensor((2, 3), dense=None)), {})
