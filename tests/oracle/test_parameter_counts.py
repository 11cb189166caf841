"""Parameter counts (`shapes`, hovers, the job summary) against torch's
`sum(p.numel() for p in m.parameters())`: each modeled layer, built as in the table, must have torch's
count; a module whose parameters the models cannot all see must have no count (unknown), never a
smaller one. Each constructor runs in real torch here (the oracle) and is analyzed, never run, by
pytea-ci as the one layer of a module checked alone."""

from __future__ import annotations

import os
import textwrap
from typing import Any

import pytest

from pytea_ci.library.results import analyze_module
from pytea_ci.solver import Decider
from tests.library.helpers import targets

torch = pytest.importorskip("torch")

KNOWN = [
    "nn.Linear(8, 4)", "nn.Linear(8, 4, bias=False)", "nn.Linear(8, 4, bias=None)", "nn.Linear(8, 4, bias=0)",
    "nn.Conv1d(3, 8, 3)", "nn.Conv1d(3, 8, 3, bias=False)", "nn.Conv2d(3, 8, 3, bias=True)",
    "nn.Conv2d(4, 8, 3, stride=2, groups=2)", "nn.Conv2d(3, 8, (3, 5), 1, 0, 1, 1, False)", "nn.Conv3d(2, 4, 3)",
    "nn.ConvTranspose1d(4, 6, 3)", "nn.ConvTranspose2d(4, 6, 3, bias=False)", "nn.ConvTranspose2d(4, 6, 3, groups=2)",
    "nn.ConvTranspose3d(2, 4, 2, stride=2)",
    "nn.BatchNorm1d(8)", "nn.BatchNorm2d(8, affine=False)", "nn.BatchNorm3d(8, 1e-3, 0.1, True)",
    "nn.LayerNorm(8)", "nn.LayerNorm([4, 8], elementwise_affine=False)", "nn.LayerNorm((4, 8), bias=False)",
    "nn.GroupNorm(2, 8)", "nn.GroupNorm(2, 8, affine=False)", "nn.InstanceNorm2d(8)",
    "nn.InstanceNorm1d(8, affine=True)", "nn.RMSNorm(8)", "nn.RMSNorm([4, 8], elementwise_affine=False)",
    "nn.Embedding(10, 4)", "nn.Embedding(10, 4, padding_idx=0)", "nn.EmbeddingBag(10, 4)",
    "nn.RNN(8, 16)", "nn.RNN(8, 16, 3, bias=False)", "nn.LSTM(8, 16)", "nn.LSTM(8, 16, num_layers=2, bidirectional=True)",
    "nn.LSTM(8, 16, num_layers=2, proj_size=4)", "nn.LSTM(8, 16, 2, bidirectional=True, proj_size=4)",
    "nn.GRU(8, 16, bias=False)", "nn.GRU(8, 16, num_layers=3, batch_first=True, bidirectional=True)",
    "nn.RNNCell(8, 16)", "nn.LSTMCell(8, 16)", "nn.GRUCell(8, 16, bias=False)",
    "nn.MultiheadAttention(16, 4)", "nn.MultiheadAttention(16, 4, bias=False)",
    "nn.MultiheadAttention(16, 4, add_bias_kv=True)", "nn.MultiheadAttention(16, 4, kdim=8, vdim=6)",
    "nn.TransformerEncoderLayer(16, 4, 32)", "nn.TransformerDecoderLayer(16, 4, 32, batch_first=True)",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 4, 32), num_layers=3)",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 4, 32), 2, norm=nn.LayerNorm(16))",
    "nn.TransformerDecoder(nn.TransformerDecoderLayer(16, 4, 32), num_layers=2)",
    "nn.PReLU()", "nn.PReLU(8)", "nn.Bilinear(4, 5, 6)", "nn.Bilinear(4, 5, 6, bias=False)",
    "nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Dropout(0.5), "
    "nn.Linear(16, 2))",
    "nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])", "nn.ModuleDict({'a': nn.Linear(2, 3), 'b': nn.GELU()})",
    "nn.ParameterList([nn.Parameter(torch.zeros(3, 4)), nn.Parameter(torch.zeros(5))])",
    "nn.ReLU()", "nn.AdaptiveAvgPool2d(1)", "nn.Upsample(scale_factor=2)", "nn.CrossEntropyLoss()",
]

# modules whose parameters are not all modeled: unknown, or torch's count, never another number
UNSURE = [
    "nn.TransformerEncoderLayer(16, 4, 32, bias=False)",
    "Scaled(nn.Linear(4, 4))",  # a user module holding an nn.Parameter of its own
    "Buffered()",  # a user module with a buffer (not a parameter) beside a Linear
    "nn.ModuleList([nn.Linear(2, 2) for _ in range(40)])",  # past the loop unrolling: representatives
    "nn.Sequential(*[nn.Linear(2, 2) for _ in range(40)])",
]

USER = '''
class Scaled(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner
        self.scale = nn.Parameter(torch.ones(4))

    def forward(self, x):
        return self.inner(x) * self.scale


class Buffered(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.register_buffer("mask", torch.ones(4))

    def forward(self, x):
        return self.fc(x) * self.mask
'''


def _torch_count(ctor: str) -> int:
    env: dict[str, Any] = {"torch": torch, "nn": torch.nn}
    exec(USER, env)  # noqa: S102  (the oracle runs real torch on purpose)
    m = eval(ctor, env)  # noqa: S307
    return sum(p.numel() for p in m.parameters())


def _analyzed_counts(tmp_path: Any, ctors: list[str]) -> dict[str, str]:
    """`params` of `shapes` for a module `M{i}` holding each constructor's layer (forward: identity)."""
    body = "import torch\nimport torch.nn as nn\n" + USER + "".join(textwrap.dedent(f'''

        class M{i}(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = {ctor}

            def forward(self, x):
                return x
        ''') for i, ctor in enumerate(ctors))
    path = tmp_path / "layers.py"
    path.write_text(body)
    out: dict[str, str] = {}
    decider = Decider()
    for i, ctor in enumerate(ctors):
        (t,) = targets(str(path), f"M{i}")[:1]
        res = analyze_module(t, os.path.dirname(t.path), decider, 10.0, strict=True).as_dict()
        out[ctor] = res["params"]
    return out


def test_every_modeled_layer_has_torchs_parameter_count(tmp_path: Any) -> None:
    got = _analyzed_counts(tmp_path, KNOWN)
    wrong = {c: (got[c], _torch_count(c)) for c in KNOWN if got[c] != str(_torch_count(c))}
    assert not wrong, "analyzed vs torch: " + repr(wrong)


def test_a_module_not_fully_modeled_has_no_count_rather_than_a_smaller_one(tmp_path: Any) -> None:
    got = _analyzed_counts(tmp_path, UNSURE)
    wrong = {c: (got[c], _torch_count(c)) for c in UNSURE if got[c] not in ("", str(_torch_count(c)))}
    assert not wrong, "analyzed vs torch: " + repr(wrong)
