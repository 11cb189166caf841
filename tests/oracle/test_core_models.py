"""Oracle tests for the core models: each case runs with real torch and with pytea-ci."""

from __future__ import annotations

import pytest

from tests.oracle.harness import check_against_torch

CASES = [
    # nn.Linear / F.linear
    ("fc = nn.Linear(320, 50)\nx = torch.randn(64, 320)\n", "fc(x)"),
    ("fc = nn.Linear(320, 50)\nx = torch.randn(64, 500)\n", "fc(x)"),
    ("fc = nn.Linear(8, 4)\nx = torch.randn(2, 3, 8)\n", "fc(x)"),
    ("w = torch.randn(4, 8)\nx = torch.randn(5, 8)\n", "F.linear(x, w)"),
    # conv / pool
    ("c = nn.Conv2d(1, 32, 3)\nx = torch.randn(8, 1, 28, 28)\n", "c(x)"),
    ("c = nn.Conv2d(3, 32, 3)\nx = torch.randn(8, 1, 28, 28)\n", "c(x)"),
    ("c = nn.Conv2d(3, 8, 5, stride=2, padding=2)\nx = torch.randn(2, 3, 31, 17)\n", "c(x)"),
    ("c = nn.Conv2d(3, 8, 7)\nx = torch.randn(2, 3, 5, 5)\n", "c(x)"),
    ("c = nn.Conv2d(3, 8, 3, padding='same')\nx = torch.randn(2, 3, 9, 10)\n", "c(x)"),
    # an empty input runs only with a zero batch (or zero channels); an empty image is an error, padded or not
    ("c = nn.Conv2d(4, 4, 1, stride=2, padding=1)\nx = torch.randn(8, 4, 0, 1)\n", "c(x)"),
    ("c = nn.Conv2d(4, 4, 1, padding=1)\nx = torch.randn(0, 4, 0, 1)\n", "c(x)"),
    ("c = nn.Conv2d(4, 4, 1, padding=1)\nx = torch.randn(0, 4, 5, 1)\n", "c(x)"),
    ("c = nn.Conv1d(4, 4, 1, padding=1)\nx = torch.randn(4, 0)\n", "c(x)"),
    ("c = nn.ConvTranspose2d(4, 4, 3)\nx = torch.randn(2, 4, 0, 3)\n", "c(x)"),
    ("c = nn.Conv2d(4, 4, 3, padding='same')\nx = torch.randn(2, 4, 0, 3)\n", "c(x)"),
    ("c = nn.Conv1d(4, 8, 3, dilation=2)\nx = torch.randn(2, 4, 20)\n", "c(x)"),
    ("c = nn.Conv2d(1, 4, 3)\nx = torch.randn(8, 100)\n", "c(x)"),
    ("c = nn.ConvTranspose2d(16, 8, 3, stride=2, padding=1, output_padding=1)\nx = torch.randn(2, 16, 7, 7)\n", "c(x)"),
    ("x = torch.randn(8, 32, 26, 26)\n", "F.max_pool2d(x, 2)"),
    ("x = torch.randn(8, 32, 7, 7)\n", "F.max_pool2d(x, 3, stride=2, ceil_mode=True)"),
    ("p = nn.AvgPool2d(3, stride=1, padding=1)\nx = torch.randn(1, 2, 5, 5)\n", "p(x)"),
    ("p = nn.AdaptiveAvgPool2d((1, 1))\nx = torch.randn(4, 256, 2, 3)\n", "p(x)"),
    # view / reshape / flatten / squeeze / permute / transpose
    ("x = torch.randn(64, 20, 4, 4)\n", "x.view(-1, 320)"),
    ("x = torch.randn(40, 1, 28, 28)\n", "x.view(64, -1)"),
    ("x = torch.randn(6, 4)\n", "x.reshape(3, 8)"),
    ("x = torch.randn(6, 4)\n", "x.reshape(5, -1)"),
    ("x = torch.randn(8, 3, 4, 4)\n", "torch.flatten(x, 1)"),
    ("x = torch.randn(8, 1, 5, 1)\n", "x.squeeze()"),
    ("x = torch.randn(8, 1, 5)\n", "x.squeeze(1).unsqueeze(-1)"),
    ("x = torch.randn(2, 3, 4)\n", "x.permute(2, 0, 1)"),
    ("x = torch.randn(2, 3, 4)\n", "x.permute(2, 0)"),
    ("x = torch.randn(2, 3, 4)\n", "x.transpose(0, 3)"),
    ("x = torch.randn(2, 3)\n", "x.t()"),
    # matmul and broadcasting
    ("a = torch.randn(3, 4)\nb = torch.randn(4, 5)\n", "a @ b"),
    ("a = torch.randn(3, 4)\nb = torch.randn(5, 4)\n", "a @ b"),
    ("a = torch.randn(7, 3, 4)\nb = torch.randn(4)\n", "torch.matmul(a, b)"),
    ("a = torch.randn(2, 1, 3, 4)\nb = torch.randn(5, 4, 6)\n", "torch.matmul(a, b)"),
    ("a = torch.randn(3, 4)\nb = torch.randn(3, 4)\n", "torch.mm(a, b)"),
    ("a = torch.randn(2, 3, 4)\nb = torch.randn(2, 4, 5)\n", "torch.bmm(a, b)"),
    ("a = torch.randn(8, 1, 5)\nb = torch.randn(3, 1)\n", "a + b"),
    ("a = torch.randn(8, 4)\nb = torch.randn(3)\n", "a * b"),
    # reductions
    ("x = torch.randn(8, 10)\n", "x.sum(dim=1, keepdim=True)"),
    ("x = torch.randn(8, 10)\n", "x.argmax(dim=1)"),
    ("x = torch.randn(8, 10)\n", "x.mean(dim=2)"),
    ("x = torch.randn(8, 10)\n", "x.max(1)"),
    ("x = torch.randn(8, 10)\n", "torch.softmax(x, dim=-1)"),
    # cat / stack
    ("a = torch.randn(2, 3)\nb = torch.randn(2, 5)\n", "torch.cat([a, b], dim=1)"),
    ("a = torch.randn(2, 3)\nb = torch.randn(2, 5)\n", "torch.cat([a, b], dim=0)"),
    ("a = torch.randn(2, 3)\nb = torch.randn(2, 3)\n", "torch.stack([a, b], dim=1)"),
    ("a = torch.randn(2, 3)\nb = torch.randn(3, 3)\n", "torch.stack([a, b])"),
    # indexing
    ("x = torch.randn(8, 5, 3)\n", "x[:, 1:4, -1]"),
    ("x = torch.randn(8, 5)\n", "x[None, ..., ::2]"),
    ("x = torch.randn(8, 5)\ni = torch.tensor([0, 2, 3])\n", "x[i]"),
    ("x = torch.randn(8, 5)\n", "x[9]"),
    # advanced indices split by a slice or None put their dims first; an int does not split them in torch
    ("x = torch.randn(4, 3, 10, 12)\n", "x[:, [0, 1], :, [2, 3]]"),
    ("x = torch.randn(4, 3, 10, 12)\n", "x[:, [0, 1], None, [2, 3]]"),
    ("x = torch.randn(4, 3, 10, 12)\n", "x[..., [0, 1], :, [2, 3]]"),
    ("x = torch.randn(4, 3, 10, 12)\n", "x[:, [0, 1], 2, [2, 3]]"),
    ("x = torch.randn(4, 3, 10, 12)\n", "x[:, 0, :, [2, 3]]"),
    ("x = torch.randn(4, 3, 10, 12)\n", "x[0, :, [1, 2]]"),
    ("x = torch.randn(4, 3, 10, 12)\n", "x[:, [0, 1], [2, 3]]"),
    ("x = torch.randn(4, 3, 10, 12)\ni = torch.tensor([0, 1])\n", "x[i, :, i]"),
    # nested lists are index arrays; a list of bools is a mask
    ("x = torch.randn(4, 3, 10, 12)\n", "x[:, :, [[1], [2]], [0, 3, 5]]"),
    ("x = torch.randn(4, 3, 10, 12)\n", "x[:, [[1], [2]], [0, 3, 5]]"),
    ("x = torch.randn(4, 3, 10, 12)\n", "x[:, :, [[1], [2]], [0, 3]]"),
    ("x = torch.randn(4, 3)\n", "x[[True, False, True, False]]"),
    ("x = torch.randn(4, 3)\n", "x[[True, False, True]]"),
    ("x = torch.randn(600, 3)\n", "x[list(range(500))]"),
    # mT / mH swap the last two dims only
    ("x = torch.randn(8, 5, 1)\n", "x + x.mT"),
    ("x = torch.randn(2, 3, 4)\n", "x.mT @ x"),
    ("x = torch.randn(2, 3, 4)\n", "x.mH.view(2, 12)"),
    ("x = torch.randn(3, 4)\n", "x.H @ x"),
    ("x = torch.randn(4)\n", "x.mT"),
    # comprehensions longer than the unrolling keep their length unknown, not three items
    ("xs = [torch.randn(4, 3) for _ in range(20)]\n", "torch.stack(xs).view(20, 12)"),
    ("t = torch.randn(100, 4)\n", "torch.stack([r for r in t]).view(100, 4)"),
    ("xs = tuple(torch.randn(1, 3) for _ in range(40))\n", "torch.cat(xs).view(40, 3)"),
    # losses
    ("o = torch.randn(64, 10)\nt = torch.randint(0, 10, (64,))\n", "F.cross_entropy(o, t)"),
    ("o = torch.randn(64, 10)\nt = torch.randint(0, 10, (64, 1))\n", "F.cross_entropy(o, t)"),
    ("o = torch.randn(64, 10)\nt = torch.randint(0, 10, (32,))\n", "F.nll_loss(o, t)"),
    ("o = torch.randn(64, 10)\nt = torch.rand(64, 10)\n", "F.cross_entropy(o, t)"),
    ("o = torch.randn(4)\nt = torch.tensor([2])\n", "F.cross_entropy(o, t)"),
    ("o = torch.randn(8, 5, 7, 7)\nt = torch.randint(0, 5, (8, 7, 7))\n", "nn.CrossEntropyLoss()(o, t)"),
    ("o = torch.randn(8, 1)\nt = torch.rand(8)\n", "nn.BCEWithLogitsLoss()(o, t)"),
    ("o = torch.rand(8)\nt = torch.rand(8)\n", "F.binary_cross_entropy(o, t)"),
    ("o = torch.randn(8, 3)\nt = torch.randn(8, 3)\n", "F.mse_loss(o, t)"),
    ("o = torch.randn(8, 2, 1)\nt = torch.randn(8, 2)\n", "nn.MSELoss()(o, t)"),
    # norm layers
    ("bn = nn.BatchNorm1d(64)\nx = torch.randn(8, 64)\n", "bn(x)"),
    ("bn = nn.BatchNorm1d(64)\nx = torch.randn(1, 64)\n", "bn(x)"),
    ("bn = nn.BatchNorm2d(16)\nx = torch.randn(2, 8, 4, 4)\n", "bn(x)"),
    ("ln = nn.LayerNorm(32)\nx = torch.randn(2, 5, 32)\n", "ln(x)"),
    ("ln = nn.LayerNorm(32)\nx = torch.randn(2, 5, 16)\n", "ln(x)"),
    # embedding, creation
    ("e = nn.Embedding(100, 16)\ni = torch.randint(0, 100, (4, 7))\n", "e(i)"),
    ("", "torch.arange(2, 11, 3)"),
    ("x = torch.randn(3, 4)\n", "torch.zeros_like(x).unsqueeze(0).expand(5, -1, -1)"),
    ("x = torch.randn(3, 1)\n", "x.expand(3, 4).repeat(2, 1)"),
    ("x = torch.randn(3, 2)\n", "x.expand(3, 4)"),
    ("p = torch.rand(3, 5)\n", "torch.multinomial(p, 2)"),
    ("p = torch.rand(5)\n", "torch.multinomial(p, 6)"),
]


@pytest.mark.parametrize("setup,expr", CASES, ids=[c[1] + f"#{i}" for i, c in enumerate(CASES)])
def test_rule_matches_torch(setup: str, expr: str) -> None:
    check_against_torch(setup, expr)


STRIDE_CASES = [
    ("x = torch.randn(4, 2, 2, 8)\n", "x.transpose(3, -3).view(-1, 2)"),
    ("x = torch.randn(3, 4)\n", "x.t().view(12)"),
    ("x = torch.randn(3, 4)\n", "x.t().view(4, 3)"),
    ("x = torch.randn(2, 3, 4)\n", "x.permute(0, 2, 1).view(2, 12)"),
    ("x = torch.randn(2, 3, 4)\n", "x.transpose(0, 1).view(3, 8)"),
    ("x = torch.randn(2, 3, 4)\n", "x.transpose(1, 2).view(2, 2, 2, 3)"),
    ("x = torch.randn(2, 3, 4)\n", "x.transpose(1, 2).contiguous().view(2, 12)"),
    ("x = torch.randn(2, 3, 4)\n", "x.transpose(1, 2).reshape(2, 12)"),
    ("x = torch.randn(2, 3, 4)\n", "x.transpose(1, 2).transpose(1, 2).view(6, 4)"),
    ("x = torch.randn(2, 3, 4)\n", "x.transpose(1, 2).relu().view(2, 12)"),
    # Linear writes a fresh contiguous output whatever its input's layout; a module call keeps the
    # layout its forward returned
    ("x = torch.randn(16, 6, 12)\nfc = nn.Linear(12, 2)\n", "fc(x).transpose(1, 0).view(-1, 2)"),
    ("x = torch.randn(6, 16, 12).transpose(0, 1)\nfc = nn.Linear(12, 2)\n", "fc(x).view(-1, 2)"),
    ("x = torch.randn(12, 16).t()\n", "F.linear(x, torch.randn(2, 12)).view(32)"),
    ("x = torch.randn(4, 6)\nm = nn.Identity()\n", "m(x.t()).view(24)"),
    ("x = torch.randn(4, 6)\nm = nn.Sequential(nn.Identity())\n", "m(x.t()).view(24)"),
]


@pytest.mark.parametrize("setup,expr", STRIDE_CASES, ids=[c[1] for c in STRIDE_CASES])
def test_view_of_non_contiguous_matches_torch(setup: str, expr: str) -> None:
    """view() needs compatible strides: pytea-ci reports the error at the line torch raises it, and
    never one torch does not raise (after an op whose layout it does not know, it reports nothing)."""
    from tests.oracle.harness import analyze_case, torch_outcome

    status, info = torch_outcome(setup, expr)
    line, found = analyze_case(setup, expr, info if status == "ok" else None)
    if status == "ok":
        assert not found
    else:
        assert (line, "PT001") in found


def test_elementwise_ops_keep_a_dense_layout_like_torch() -> None:
    """The layout facet LIKE_INPUT (models/call_facets.py): every model declaring it, applied by torch to a
    dense tensor in any order of its dims (with a Python number beside it for operators), returns
    the input's strides; a binary op (`torch.add` ...) given two tensors of that very layout does too.
    An op torch rejects for these inputs is skipped; most must be checked."""
    import itertools

    import torch

    from pytea_ci.models import registry
    from pytea_ci.models.torch.elementwise import BINARY

    registry.load_all()
    _LIKE_INPUT = {name for name, f in registry.FACETS.items() if f.layout == registry.LIKE_INPUT}

    base = torch.rand(2, 3, 4) + 0.5  # in the domain of log, sqrt, acosh-1, ...
    checked, skipped = [], []
    for name in sorted(_LIKE_INPUT):
        short = name.rsplit(".", 1)[-1]
        for order in itertools.permutations(range(3)):
            x = base.permute(*order)
            try:
                if short in ("__neg__", "__pos__", "__abs__", "__invert__"):
                    y = getattr(x, short)()
                elif short.startswith("__"):
                    y = getattr(x.clone(), short)(2)  # (a clone: in-place operators write into it)
                elif short.endswith("_"):
                    y = getattr(x.clone(), short)()
                elif short in BINARY:
                    y = getattr(torch, short)(x, x.clone())  # (the clone keeps the layout of its dense input)
                else:
                    y = getattr(x, short)()
            except (RuntimeError, TypeError, AttributeError, NotImplementedError, AssertionError):  # .cuda()
                skipped.append(name)
                break
            if not isinstance(y, torch.Tensor) or y.shape != x.shape:
                skipped.append(name)
                break
            assert y.stride() == x.stride(), f"{name} on strides {x.stride()} gave {y.stride()}"
        else:
            checked.append(name)
    assert len(checked) >= 0.7 * len(_LIKE_INPUT), (checked, skipped)


def test_cat_of_zero_dim_tensors_matches_torch() -> None:
    from tests.oracle.harness import check_against_torch

    check_against_torch("a = torch.tensor(1.0)\n", "torch.cat([a, a])")
