"""Oracle for PT006 dtype-mismatch and PT007 device-mismatch: each case runs under real torch on the
CPU; when torch raises, pytea-ci must report the rule on the expression's line, and when torch
accepts it pytea-ci must report nothing.

Devices: this torch build has no CUDA, so a second device is emulated with `meta`. The equivalence
relied on (and tested by `test_meta_stands_for_a_second_device`): for element-wise binary ops, `cat`,
`Linear`, losses and normalization layers, torch refuses a `meta` operand next to a CPU tensor of dims, as it refuses a CUDA one,
and accepts a 0-dim CPU tensor or a Python number next to it, as it does for CUDA. The analyzer
treats every device type alike ("meta" and "cuda" are two devices other than "cpu"). Where meta is
more permissive than CUDA (matrix products and convolutions with a CPU operand run on meta; a meta
tensor cannot be copied back to the CPU) there is no emulation and no case here: those rows
(`mm`/`matmul`/`bmm`, `Conv*`, RNNs) rest on torch's documented CUDA behaviour only.

Normalization layers' mixed dtypes are torch's CPU check ("mixed dtype (CPU)"): the analyzer claims
them only for tensors known to be on the CPU, so these CPU runs are the whole claim.
"""

from __future__ import annotations

import textwrap

import pytest

from tests.oracle.harness import InProcess

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")

PRELUDE = "import numpy as np\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"

# (setup, expression): the expression is the line checked
DTYPE_CASES = [
    # linear algebra takes floating matrices (models/torch/linalg.py)
    ("A = torch.ones(3, 3, dtype=torch.long)", "torch.linalg.inv(A)"),
    ("A = torch.ones(3, 3, dtype=torch.long)", "torch.linalg.svd(A)"),
    ("A = torch.ones(3, 3, dtype=torch.long)", "torch.linalg.matrix_power(A, 2)"),
    ("A = torch.eye(3)", "torch.linalg.solve(A, torch.ones(3, dtype=torch.long))"),
    ("A = torch.eye(3).double()", "torch.linalg.det(A)"),
    # averages need a floating or complex dtype (the input's, or `dtype=`'s for mean); logsumexp promotes integers
    ("x = torch.randn(2, 3, 4)", "(x > 0).mean()"),
    ("x = torch.randn(2, 3, 4)", "x.long().mean(1)"),
    ("x = torch.randn(2, 3, 4)", "x.long().mean(1, dtype=torch.float64)"),
    ("x = torch.randn(2, 3, 4)", "torch.mean(x, dtype=torch.int32)"),
    ("x = torch.randn(2, 3, 4)", "x.half().mean()"),
    ("x = torch.randn(2, 3, 4)", "x.long().nanmean()"),
    ("x = torch.randn(2, 3, 4)", "torch.nanmean(x.long(), dtype=torch.float32)"),
    ("x = torch.randn(2, 3, 4)", "torch.logsumexp(x.long(), 1).mean()"),
    ("x = torch.randn(2, 3, 4)", "x.long().std()"),
    ("x = torch.randn(2, 3, 4)", "(x > 0).var(1)"),
    ("x = torch.randn(2, 3, 4)", "x.var(1).mean()"),
    # kernels of floating dtypes only: norms, distances, quantiles, draws (every device), activations and softmax
    # (torch's CPU build: claimed for tensors known to be on the CPU)
    ("i = torch.randint(0, 3, (3, 4))", "F.normalize(i)"),
    ("i = torch.randint(0, 3, (3, 4))", "F.normalize(i.float())"),
    ("i = torch.randint(0, 3, (3, 4))", "i.norm(dim=1)"),
    ("i = torch.randint(0, 3, (3, 4))", "torch.linalg.vector_norm(i > 0)"),
    ("i = torch.randint(0, 3, (3, 4))", "torch.cdist(i, i)"),
    ("i = torch.randint(0, 3, (3, 4))", "torch.cdist(i.float(), i.float() + 1)"),
    ("i = torch.randint(0, 3, (3, 4))", "torch.quantile(i, 0.5)"),
    ("i = torch.randint(0, 3, (3, 4))", "torch.multinomial(i, 1)"),
    ("i = torch.randint(0, 3, (3, 4))", "torch.multinomial(i.float() + 1, 1)"),
    ("i = torch.randint(0, 3, (3, 4))", "F.gumbel_softmax(i)"),
    ("i = torch.randint(0, 3, (3, 4))", "F.softmax(i, 1)"),
    ("i = torch.randint(0, 3, (3, 4))", "F.log_softmax(i > 0, -1)"),
    ("i = torch.randint(0, 3, (3, 4))", "F.softmax(i, 1, dtype=torch.float32)"),
    ("i = torch.randint(0, 3, (3, 4))", "i.softmax(0)"),
    ("i = torch.randint(0, 3, (3, 4))", "nn.Softmax(dim=1)(i.float())"),
    ("i = torch.randint(0, 3, (3, 4))", "F.cross_entropy(i, torch.zeros(3, dtype=torch.long))"),
    ("i = torch.randint(0, 3, (3, 4))", "F.cross_entropy(i.float(), torch.zeros(3, dtype=torch.long))"),
    ("i = torch.randint(0, 3, (3, 4))", "F.gelu(i)"),
    ("i = torch.randint(0, 3, (3, 4))", "F.gelu(i.float())"),
    ("i = torch.randint(0, 3, (3, 4))", "nn.SiLU()(i)"),
    ("i = torch.randint(0, 3, (3, 4))", "nn.LeakyReLU()(i > 1)"),
    ("i = torch.randint(0, 3, (3, 4))", "F.elu(i)"),
    ("i = torch.randint(0, 3, (3, 4))", "F.softplus(i)"),
    ("i = torch.randint(0, 3, (3, 4))", "F.glu(i)"),
    ("i = torch.randint(0, 3, (3, 4))", "F.relu(i)"),
    ("i = torch.randint(0, 3, (3, 4))", "nn.ReLU()(i) + nn.Tanh()(i)"),
    ("i = torch.randint(0, 3, (3, 4))", "torch.sigmoid(i)"),
    # layers vs their parameters
    ("", "nn.Linear(4, 3)(torch.randint(0, 5, (8, 4)))"),
    ("", "nn.Linear(4, 3)(torch.randint(0, 5, (8, 4)).float())"),
    ("", "nn.Linear(4, 3)(torch.randn(8, 4).double())"),
    ("m = nn.Linear(4, 3).double()", "m(torch.randn(8, 4).double())"),
    ("m = nn.Linear(4, 3).double()", "m(torch.randn(8, 4))"),
    ("m = nn.Linear(4, 3).to(torch.float64)", "m(torch.randn(8, 4))"),
    ("m = nn.Sequential(nn.Linear(4, 3), nn.ReLU()).half().float()", "m(torch.randn(8, 4))"),
    ("m = nn.Linear(4, 3, dtype=torch.float64)", "m(torch.randn(8, 4))"),
    ("a = np.random.rand(8, 4)", "nn.Linear(4, 3)(torch.from_numpy(a))"),
    ("a = np.random.rand(8, 4)", "nn.Linear(4, 3)(torch.from_numpy(a).float())"),
    ("a = np.random.rand(8, 4).astype(np.float32)", "nn.Linear(4, 3)(torch.from_numpy(a))"),
    ("", "nn.Linear(2, 3)(torch.tensor([[1, 2], [3, 4]]))"),
    ("", "nn.Linear(2, 3)(torch.tensor([[1.0, 2], [3, 4]]))"),
    ("", "nn.Conv2d(1, 2, 3)(torch.zeros(1, 1, 5, 5, dtype=torch.long))"),
    ("", "nn.Conv2d(1, 2, 3)(torch.randn(1, 1, 5, 5).double())"),
    ("", "F.conv1d(torch.randn(1, 2, 5), torch.randn(3, 2, 1).double())"),
    ("", "nn.LSTM(4, 3)(torch.randn(5, 2, 4).double())"),
    ("", "nn.GRU(4, 3)(torch.randn(5, 2, 4))"),
    ("x = torch.randn(2, 3)", "x @ torch.randn(3, 2).double()"),
    ("x = torch.randn(2, 3)", "torch.matmul(x, torch.randint(0, 2, (3, 2)))"),
    ("x = torch.randint(0, 2, (2, 3))", "x @ torch.randint(0, 2, (3, 2))"),
    ("", "torch.mm(torch.randn(2, 3), torch.randn(3, 2).long())"),
    ("", "torch.bmm(torch.randn(2, 2, 3), torch.randn(2, 3, 2).half())"),
    # loss targets
    ("x = torch.randn(8, 3)", "F.nll_loss(x, torch.randint(0, 3, (8,)).float())"),
    ("x = torch.randn(8, 3)", "F.nll_loss(x, torch.randint(0, 3, (8,)))"),
    ("x = torch.randn(8, 3)", "F.cross_entropy(x, torch.randint(0, 3, (8,)).int())"),
    ("x = torch.randn(8, 3)", "F.cross_entropy(x, torch.randint(0, 3, (8,)).byte())"),
    ("x = torch.randn(8, 3)", "nn.CrossEntropyLoss()(x, torch.zeros(8))"),
    ("x = torch.randn(8, 3)", "nn.CrossEntropyLoss()(x, torch.rand(8, 3))"),
    ("y = torch.cat((torch.zeros(100), torch.ones(100))).type(torch.LongTensor)",
     "nn.CrossEntropyLoss()(torch.randn(200, 2), y)"),
    ("y = torch.cat((torch.zeros(100), torch.ones(100)))", "nn.CrossEntropyLoss()(torch.randn(200, 2), y.type(torch.long))"),
    ("y = torch.cat((torch.zeros(100), torch.ones(100)))", "nn.CrossEntropyLoss()(torch.randn(200, 2), y)"),
    ("p = torch.rand(8)", "F.binary_cross_entropy(p, torch.randint(0, 2, (8,)))"),
    ("p = torch.rand(8)", "F.binary_cross_entropy(p, torch.randint(0, 2, (8,)).float())"),
    ("p = torch.rand(8)", "nn.BCELoss()(p, torch.rand(8).double())"),
    ("p = torch.randn(8)", "nn.BCEWithLogitsLoss()(p, torch.randint(0, 2, (8,)))"),
    ("p = torch.randn(8)", "F.binary_cross_entropy_with_logits(p, torch.randint(0, 2, (8,)).float())"),
    ("p = torch.randn(8)", "F.mse_loss(p, torch.randint(0, 2, (8,)).float())"),
    # indices
    ("e = nn.Embedding(10, 4)", "e(torch.randint(0, 10, (2, 5)).float())"),
    ("e = nn.Embedding(10, 4)", "e(torch.randint(0, 10, (2, 5)).int())"),
    ("e = nn.Embedding(10, 4)", "e(torch.randint(0, 10, (2, 5)).short())"),
    # a function decorated with an autocast runs under it when called, not the code after the decoration
    ("@torch.autocast('cpu', enabled=False)\ndef f(t):\n    return t\n", "nn.Embedding(10, 4)(torch.randint(0, 10, (2, 5)).float())"),
    ("@torch.autocast('cpu')\ndef f(t):\n    return t\n", "nn.Embedding(10, 4)(torch.randint(0, 10, (2, 5)).float())"),
    ("@torch.autocast('cpu')\ndef f(t):\n    return t.long()\n", "nn.Embedding(10, 4)(f(torch.rand(2, 5)))"),
    ("", "F.one_hot(torch.randint(0, 3, (4,)).int(), 3)"),
    ("", "F.one_hot(torch.randint(0, 3, (4,)), 3)"),
    ("x = torch.randn(3, 4)", "x.gather(1, torch.zeros(3, 1))"),
    ("x = torch.randn(3, 4)", "x.gather(1, torch.zeros(3, 1, dtype=torch.int32))"),
    ("x = torch.randn(3, 4)", "x.index_select(1, torch.tensor([0.0, 1.0]))"),
    ("x = torch.randn(3, 4)", "x.index_select(1, torch.tensor([0, 1]))"),
    ("x = torch.zeros(3, 4)", "x.scatter(1, torch.zeros(3, 1), 1.0)"),
    ("x = torch.zeros(3, 4)", "x.scatter(1, torch.zeros(3, 1, dtype=torch.long), 1.0)"),
    ("x = torch.zeros(3, 4)", "x.masked_fill(torch.ones(3, 4), 0.0)"),
    ("x = torch.zeros(3, 4)", "x.masked_fill(torch.ones(3, 4) > 0, 0.0)"),
    ("x = torch.zeros(3, 4)", "x.masked_fill(torch.ones(3, 4).long(), 0.0)"),
    # promotion and in-place ops
    ("t = torch.zeros(3, dtype=torch.long)", "t.__iadd__(0.5)"),
    ("t = torch.zeros(3, dtype=torch.long)", "t.__iadd__(2)"),
    ("t = torch.zeros(3, dtype=torch.long)", "t.__itruediv__(2)"),
    ("t = torch.zeros(3, dtype=torch.long)", "t.add_(torch.randn(3))"),
    ("t = torch.zeros(3)", "t.add_(torch.zeros(3, dtype=torch.long))"),
    ("t = torch.zeros(3, dtype=torch.bool)", "t.__iadd__(torch.zeros(3, dtype=torch.long))"),
    ("t = torch.zeros(3, dtype=torch.long)", "t + 0.5"),
    ("t = torch.zeros(3, dtype=torch.long)", "torch.cat([t, torch.randn(3)])"),
    ("t = torch.zeros(3, dtype=torch.long)", "nn.Linear(3, 1)(t * 0.5)"),
    ("t = torch.zeros(3, dtype=torch.long)", "nn.Linear(3, 1)(t / 2)"),
    ("t = torch.zeros(3, dtype=torch.long)", "nn.Linear(3, 1)(t + torch.randn(3).double())"),
    ("t = torch.zeros(3, dtype=torch.long)", "nn.Linear(3, 1)(t.to(torch.zeros(1)))"),
    ("t = torch.zeros(3, dtype=torch.long)", "nn.Linear(3, 1)(t.type_as(torch.zeros(1)))"),
    ("t = torch.zeros(3, dtype=torch.long)", "nn.Linear(3, 1)(t.new_zeros(2, 3))"),
    ("t = torch.zeros(3, dtype=torch.long)", "nn.Linear(3, 1)(t.new_zeros(2, 3, dtype=torch.float))"),
    ("t = torch.zeros(3)", "nn.Linear(3, 1)(torch.zeros_like(t, dtype=torch.long))"),
    ("t = torch.zeros(3)", "nn.Linear(3, 1)(t.type(torch.DoubleTensor))"),
    ("t = torch.zeros(3)", "nn.Linear(3, 1)(t.type('torch.LongTensor'))"),
    ("t = torch.zeros(3)", "nn.Linear(3, 1)(torch.full((2, 3), 7))"),
    ("t = torch.zeros(3)", "nn.Linear(3, 1)(torch.arange(3))"),
    ("t = torch.zeros(3)", "nn.Linear(3, 1)(torch.arange(3.0))"),
    # cat/stack: promotion never errs; an out= tensor must take the promoted dtype (torch's can_cast)
    ("a, i = torch.randn(2, 3), torch.zeros(2, 3, dtype=torch.long)", "torch.cat([a, i])"),
    ("a = torch.randn(2, 3)", "torch.cat([a, a], out=torch.empty(4, 3, dtype=torch.long))"),
    ("a, i = torch.randn(2, 3), torch.zeros(2, 3, dtype=torch.long)", "torch.cat([i, a], out=torch.empty(4, 3, dtype=torch.long))"),
    ("i = torch.zeros(2, 3, dtype=torch.long)", "torch.cat([i, i], out=torch.empty(4, 3))"),
    ("i = torch.zeros(2, 3, dtype=torch.long)", "torch.cat([i, i], out=torch.empty(4, 3, dtype=torch.int32))"),
    ("a = torch.randn(2, 3).double()", "torch.cat([a, a], out=torch.empty(4, 3, dtype=torch.float16))"),
    ("a = torch.randn(2, 3)", "torch.cat([a, a], out=torch.empty(4, 3, dtype=torch.complex64))"),
    ("b = torch.ones(2, 3, dtype=torch.bool)", "torch.cat([b, b], out=torch.empty(4, 3, dtype=torch.long))"),
    ("i = torch.zeros(2, 3, dtype=torch.long)", "torch.stack([i, i], out=torch.empty(2, 2, 3, dtype=torch.bool))"),
    ("i = torch.zeros(2, 3, dtype=torch.long)", "torch.stack([i, i], out=torch.empty(2, 2, 3))"),
    ("a = torch.randn(2, 3)", "torch.stack([a, a], out=torch.empty(2, 2, 3, dtype=torch.long))"),
    ("a = torch.randn(2, 3)", "torch.hstack([a, a], out=torch.empty(2, 6, dtype=torch.int32))"),
    ("a = torch.randn(2, 3)", "torch.vstack([a, a], out=torch.empty(4, 3, dtype=torch.float64))"),
    ("f = torch.empty(4)", "torch.arange(1, 5, out=f).mul_(3.14)"),
    ("f = torch.empty(4)", "torch.arange(1, 5).mul_(3.14)"),
    ("f = torch.empty(2, 2, dtype=torch.long)", "torch.add(torch.ones(2, 2, dtype=torch.long), 1, out=f).add_(0.5)"),
    # normalization layers on the CPU: one dtype, or a float16/bfloat16 input with float32 parameters
    ("bn = nn.BatchNorm1d(3)", "bn(torch.randn(4, 3).double())"),
    ("bn = nn.BatchNorm1d(3)", "bn(torch.randn(4, 3).half())"),
    ("bn = nn.BatchNorm1d(3)", "bn(torch.randn(4, 3).bfloat16())"),
    ("bn = nn.BatchNorm1d(3)", "bn(torch.zeros(4, 3, dtype=torch.long))"),
    ("bn = nn.BatchNorm1d(3).double()", "bn(torch.randn(4, 3))"),
    ("bn = nn.BatchNorm1d(3).double()", "bn(torch.randn(4, 3).double())"),
    ("bn = nn.BatchNorm2d(3).half()", "bn(torch.randn(2, 3, 4, 4))"),
    ("bn = nn.BatchNorm2d(3, affine=False)", "bn(torch.randn(2, 3, 4, 4).double())"),
    ("bn = nn.BatchNorm1d(3, dtype=torch.float64)", "bn(torch.randn(4, 3).double())"),
    ("bn = nn.BatchNorm1d(3, affine=False, track_running_stats=False)", "bn(torch.randn(4, 3).double())"),
    ("x = torch.randn(4, 3).double()", "F.batch_norm(x, torch.zeros(3), torch.ones(3), training=True)"),
    ("x = torch.randn(4, 3).double()", "F.batch_norm(x, torch.zeros(3).double(), torch.ones(3).double())"),
    ("ln = nn.LayerNorm(3)", "ln(torch.randn(2, 3).double())"),
    ("ln = nn.LayerNorm(3)", "ln(torch.randn(2, 3).half())"),
    ("ln = nn.LayerNorm(3).half()", "ln(torch.randn(2, 3))"),
    ("ln = nn.LayerNorm(3).half()", "ln(torch.randn(2, 3).half())"),
    ("ln = nn.LayerNorm(3).bfloat16()", "ln(torch.randn(2, 3).half())"),
    ("ln = nn.LayerNorm(3, elementwise_affine=False)", "ln(torch.randn(2, 3).double())"),
    ("ln = nn.LayerNorm(3, elementwise_affine=False)", "ln(torch.zeros(2, 3, dtype=torch.long))"),
    ("x = torch.randn(2, 3).double()", "F.layer_norm(x, (3,), torch.ones(3), torch.zeros(3))"),
    ("x = torch.randn(2, 3).double()", "F.layer_norm(x, (3,))"),
    ("gn = nn.GroupNorm(1, 3)", "gn(torch.randn(2, 3, 4).double())"),
    ("gn = nn.GroupNorm(1, 3)", "gn(torch.randn(2, 3, 4).bfloat16())"),
    ("gn = nn.GroupNorm(1, 3).double()", "gn(torch.randn(2, 3, 4))"),
    ("gn = nn.GroupNorm(1, 3, affine=False)", "gn(torch.randn(2, 3, 4).double())"),
    ("gn = nn.GroupNorm(1, 3)", "gn(torch.zeros(2, 3, 4, dtype=torch.long))"),
    ("m = nn.InstanceNorm1d(3)", "m(torch.randn(2, 3, 5).double())"),
    ("m = nn.InstanceNorm1d(3, affine=True)", "m(torch.randn(2, 3, 5).double())"),
    ("m = nn.InstanceNorm2d(3)", "m(torch.zeros(2, 3, 4, 4, dtype=torch.long))"),
    ("m = nn.RMSNorm(3).double()", "m(torch.randn(2, 3))"),
    ("m = nn.RMSNorm(3)", "m(torch.randn(2, 3).double())"),
]

DEVICE_CASES = [
    ("m = nn.Linear(4, 3).to(torch.device('meta'))", "m(torch.randn(2, 4))"),
    ("m = nn.Linear(4, 3).to('meta')", "m(torch.randn(2, 4).to('meta'))"),
    ("m = nn.Linear(4, 3, device='meta')", "m(torch.randn(2, 4))"),
    ("m = nn.Linear(4, 3).to('meta')", "m(torch.randn(2, 4, device='meta'))"),
    ("x = torch.randn(3, device='meta')", "x + torch.randn(3)"),
    ("x = torch.randn(3, device='meta')", "x + torch.tensor(2.0)"),
    ("x = torch.randn(3, device='meta')", "x * 2"),
    ("x = torch.randn(3).to('meta')", "x - torch.randn(3).to(x.device)"),
    ("x = torch.randn(3).to('meta')", "x - torch.zeros_like(x)"),
    ("x = torch.randn(3).to('meta')", "x - torch.zeros(3, device=x.device)"),
    ("x = torch.randn(3).to('meta')", "x - x.new_zeros(3)"),
    ("x = torch.randn(3).to('meta')", "x - torch.randn(3).to(x)"),
    ("x = torch.randn(4, 3, device='meta')", "F.cross_entropy(x, torch.zeros(4, dtype=torch.long))"),
    ("x = torch.randn(4, 3, device='meta')", "F.cross_entropy(x, torch.zeros(4, dtype=torch.long).to(x.device))"),
    ("x = torch.randn(4, 3, device='meta')", "F.mse_loss(x, torch.zeros(4, 3))"),
    ("x = torch.randn(4, 3, device='meta')", "F.binary_cross_entropy_with_logits(x, torch.zeros(4, 3))"),
    ("bn = nn.BatchNorm1d(3).to('meta')", "bn(torch.randn(4, 3))"),
    ("bn = nn.BatchNorm1d(3)", "bn(torch.randn(4, 3, device='meta'))"),
    ("bn = nn.BatchNorm1d(3).to('meta')", "bn(torch.randn(4, 3, device='meta'))"),
    ("ln = nn.LayerNorm(3).to('meta')", "ln(torch.randn(2, 3))"),
    ("gn = nn.GroupNorm(1, 3).to('meta')", "gn(torch.randn(2, 3, 4))"),
]


def _torch_raises(setup: str, expr: str) -> bool:
    env: dict = {}
    exec(PRELUDE + textwrap.dedent(setup), env)  # noqa: S102  (the oracle runs real torch on purpose)
    try:
        eval(expr, env)  # noqa: S307
    except (RuntimeError, ValueError, IndexError, TypeError):
        return True
    return False


_RUNNER: list[InProcess] = []


def _check(setup: str, expr: str, rule: str) -> None:
    raises = _torch_raises(setup, expr)
    if not _RUNNER:
        _RUNNER.append(InProcess("dtype-device"))
    body = PRELUDE + textwrap.dedent(setup) + f"\ny = {expr}\n"
    line = body.count("\n")
    found = _RUNNER[0].findings(body)
    if raises:
        assert (line, rule) in found, f"torch raises; pytea-ci found {found}"
        assert found == {(line, rule)}, f"only the expected finding; got {found}"
    else:
        assert not found, f"torch accepts it; pytea-ci found {found}"


@pytest.mark.parametrize(("setup", "expr"), DTYPE_CASES, ids=[e for _, e in DTYPE_CASES])
def test_dtype_rule_matches_torch(setup: str, expr: str) -> None:
    _check(setup, expr, "PT006")


@pytest.mark.parametrize(("setup", "expr"), DEVICE_CASES, ids=[e for _, e in DEVICE_CASES])
def test_device_rule_matches_torch(setup: str, expr: str) -> None:
    _check(setup, expr, "PT007")


# the line runs inside `with torch.autocast("cpu"):`; an explicit conversion is not an autocast op: its
# dtype is the one asked for (the index of an embedding, a gather); what autocast does choose stays unsure
AUTOCAST_CASES = [
    ("e = nn.Embedding(10, 4)", "e(torch.randint(0, 10, (2, 5)).float())"),
    ("e = nn.Embedding(10, 4)", "e(torch.rand(2, 5).long())"),
    ("x = torch.randn(3, 4)", "x.gather(1, torch.zeros(3, 1).to(torch.float32))"),
    ("x = torch.randn(3, 4)", "x.gather(1, torch.zeros(3, 1).type_as(x))"),
    ("x = torch.randn(3, 4)", "x.gather(1, torch.zeros(3, 1).type_as(x).long())"),
]


@pytest.mark.parametrize(("setup", "expr"), AUTOCAST_CASES, ids=[e for _, e in AUTOCAST_CASES])
def test_conversions_under_autocast_are_exact(setup: str, expr: str) -> None:
    with torch.autocast("cpu"):
        raises = _torch_raises(setup, expr)
    if not _RUNNER:
        _RUNNER.append(InProcess("dtype-device"))
    body = PRELUDE + textwrap.dedent(setup) + f"\nwith torch.autocast('cpu'):\n    y = {expr}\n"
    found = _RUNNER[0].findings(body)
    assert found == ({(body.count("\n"), "PT006")} if raises else set()), f"torch raises: {raises}; found {found}"


def test_meta_stands_for_a_second_device() -> None:
    """The equivalence the device cases rely on, stated on torch itself: a meta tensor (or module)
    refuses CPU operands of dims in the operations used above, and takes 0-dim CPU tensors and numbers."""
    meta = torch.randn(3, device="meta")
    for bad in (lambda: meta + torch.randn(3), lambda: torch.cat([meta, torch.randn(3)]),
                lambda: torch.nn.Linear(3, 1).to("meta")(torch.randn(2, 3)),
                lambda: torch.nn.functional.mse_loss(meta, torch.zeros(3)),
                lambda: torch.nn.BatchNorm1d(3).to("meta")(torch.randn(2, 3)),
                lambda: torch.nn.LayerNorm(3).to("meta")(torch.randn(2, 3))):
        with pytest.raises(RuntimeError):
            bad()
    assert (meta + torch.tensor(2.0)).device.type == "meta"
    assert (meta * 2).device.type == "meta"
