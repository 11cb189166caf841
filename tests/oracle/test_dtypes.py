"""Oracle for dtype tracking: the dtype pytea-ci gives the result of each expression is the one torch
gives (creation, conversion, promotion with tensors, zero-dim tensors and Python numbers, reductions,
indices, comparisons, indexing, numpy interop). A program branches on the dtype torch computed and
fails on the other side: a wrong or unknown dtype there is a finding."""

from __future__ import annotations

import pytest

from tests.oracle.harness import InProcess

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")  # torch without numpy is possible: skip, never a collection error

EXPRS = [
    "torch.tensor([1, 2])",
    "torch.tensor([1.0, 2.0])",
    "torch.tensor([True])",
    "torch.arange(5)",
    "torch.arange(5.0)",
    "torch.arange(0, 1, 0.1)",
    "torch.randint(0, 3, (4,))",
    "torch.randn(3).long()",
    "torch.zeros(3, dtype=torch.long)",
    "torch.zeros_like(torch.zeros(3, dtype=torch.long))",
    "torch.ones_like(torch.zeros(3, dtype=torch.long), dtype=torch.float)",
    "torch.full((2,), 3)",
    "torch.full((2,), 3.0)",
    "torch.randperm(4)",
    "torch.eye(3)",
    "torch.linspace(0, 1, 5)",
    "torch.randn(3).argmax()",
    "torch.randn(3, 4).max(1)[1]",
    "torch.randn(3, 4).max(1)[0]",
    "torch.randn(3, 4).topk(2)[1]",
    "torch.randn(3, 4).sort()[1]",
    "torch.randn(3, 4).argsort()",
    "torch.nonzero(torch.randn(3) > 0)",
    "torch.randn(3) > 0",
    "(torch.randn(3) > 0).sum()",
    "(torch.randn(3) > 0).float()",
    "torch.randint(0, 3, (4,)) / 2",
    "torch.randint(0, 3, (4,)) // 2",
    "torch.randint(0, 3, (4,)) * 2",
    "torch.randint(0, 3, (4,)) * 2.5",
    "torch.randint(0, 3, (4,)) + torch.randn(4)",
    "torch.randint(0, 3, (4,)) + torch.tensor(2.5)",
    "torch.randn(4).half() + torch.randn(4).double()",
    "torch.randn(4).double() + torch.tensor(1.0)",
    "torch.randn(4) * torch.tensor(2, dtype=torch.float64)",
    "torch.randint(0, 3, (4,)).float().mean()",
    "torch.randint(0, 3, (4,)).sum()",
    "torch.randint(0, 3, (4,), dtype=torch.int32).sum()",
    "torch.randint(0, 3, (4,), dtype=torch.int32) + torch.randint(0, 3, (4,))",
    "torch.randint(0, 3, (4,), dtype=torch.uint8) + torch.randint(0, 3, (4,), dtype=torch.int8)",
    "torch.where(torch.randn(3) > 0, torch.randint(0, 3, (3,)), torch.randn(3))",
    "torch.cat([torch.randint(0, 3, (3,)), torch.randn(3)])",
    "torch.stack([torch.randint(0, 3, (3,)), torch.randint(0, 3, (3,))])",
    "torch.nn.functional.one_hot(torch.randint(0, 3, (4,)), 3)",
    "torch.nn.functional.softmax(torch.randn(3), 0)",
    "torch.randint(0, 3, (4,))[torch.tensor([0, 1])]",
    "torch.randint(0, 3, (4,))[torch.randn(4) > 0]",
    "torch.randn(2, 3).view(-1)",
    "torch.randint(0, 3, (4,)).to(torch.float16)",
    "torch.randint(0, 3, (4,)).type(torch.float64)",
    "torch.randn(4).to(torch.randint(0, 3, (4,)))",
    "torch.randn(3).type_as(torch.randint(0, 3, (4,)))",
    "torch.from_numpy(np.zeros(3))",
    "torch.from_numpy(np.zeros(3, dtype=np.float32))",
    "torch.from_numpy(np.arange(3))",
    "torch.as_tensor(np.ones(2))",
    "torch.randn(3).numpy().astype(np.int64)",
    "torch.bincount(torch.randint(0, 3, (4,)))",
    "torch.clamp(torch.randint(0, 3, (4,)), min=1)",
    "torch.abs(torch.randint(-3, 3, (4,)))",
    "torch.randint(0, 3, (4,)).float().std()",
    "torch.matmul(torch.randn(2, 3), torch.randn(3, 2))",
    "torch.randint(0, 3, (4,)) == torch.randint(0, 3, (4,))",
    "~(torch.randn(3) > 0)",
    "torch.randn(3) ** 2",
    "2 ** torch.randint(0, 3, (4,))",
    "torch.randint(0, 3, (4,)) ** 2",
    "torch.randint(1, 3, (4,)) ** -1.0",
    "torch.sqrt(torch.randint(1, 3, (4,)))",
    "torch.exp(torch.randint(1, 3, (4,)))",
    "torch.randint(0, 3, (4,)).cumsum(0)",
    "torch.randint(0, 3, (4,)).prod()",
    "torch.count_nonzero(torch.randn(3))",
    "torch.randn(3).amax()",
    "torch.view_as_complex(torch.randn(2, 2))",
    "torch.polar(torch.ones(2), torch.zeros(2))",
]

_RUNNER: list[InProcess] = []


def _dtype_of(expr: str) -> tuple[str, str]:
    y = eval(expr, {"torch": torch, "np": np})  # noqa: S307  (the oracle runs real torch on purpose)
    if isinstance(y, np.ndarray):
        return "np", str(y.dtype)
    return "torch", str(y.dtype).replace("torch.", "")


@pytest.mark.parametrize("expr", EXPRS)
def test_dtype_matches_torch(expr: str) -> None:
    lib, name = _dtype_of(expr)
    if not _RUNNER:
        _RUNNER.append(InProcess("dtypes"))
    body = (f"import numpy as np\nimport torch\ny = {expr}\n"
            f"if y.dtype != {lib}.{name}:\n    bad = torch.zeros(2, 3) @ torch.zeros(4, 5)\n")
    assert not _RUNNER[0].findings(body), f"{expr}: torch gives {lib}.{name}"


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("field", ["bits", "eps", "max", "min", "tiny", "resolution"])
def test_finfo_matches_torch(dtype: str, field: str) -> None:
    """`torch.finfo(dtype).field` is the number torch gives: a branch on it takes torch's side."""
    value = getattr(torch.finfo(getattr(torch, dtype)), field)
    if not _RUNNER:
        _RUNNER.append(InProcess("dtypes"))
    body = (f"import torch\nv = torch.finfo(torch.{dtype}).{field}\n"
            f"if v != {value!r}:\n    bad = torch.zeros(2, 3) @ torch.zeros(4, 5)\n"
            f"if v == {value!r}:\n    good = torch.zeros(2, 3) @ torch.zeros(3, 5)\nelse:\n    worse = torch.zeros(2, 3) @ torch.zeros(4, 5)\n")
    assert not _RUNNER[0].findings(body), f"torch.finfo(torch.{dtype}).{field} is {value!r}"
