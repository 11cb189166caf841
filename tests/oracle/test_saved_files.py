"""Oracle tests for files written and read back in the same run (models/saved.py) and for the key
paths of a config read from a file (models/read_keys.py): real torch runs each case, pytea-ci must
agree (the loaded value keeps the saved shape; two reads of one key path are one size)."""

from __future__ import annotations

import pytest

from tests.oracle.harness import check_against_torch

SETUP = """\
import json
import os
import tempfile
import numpy as np
d = tempfile.mkdtemp()
"""

NPY = SETUP + """\
np.save(os.path.join(d, "a"), np.zeros((3, 4), dtype=np.float32))
a = torch.from_numpy(np.load(os.path.join(d, "a.npy")))
"""
PT = SETUP + """\
torch.save({"w": torch.randn(6, 3), "parts": [torch.randn(2, 5), torch.randn(2, 7)]}, os.path.join(d, "ck.pt"))
s = torch.load(os.path.join(d, "ck.pt"))
"""
LABELS = SETUP + """\
torch.save(torch.arange(8) % 4, os.path.join(d, "y.pt"))
y = torch.load(os.path.join(d, "y.pt"))
"""
FROM_TORCH = SETUP + """\
np.save(os.path.join(d, "t.npy"), torch.zeros(5, 2).numpy())
t = torch.from_numpy(np.load(os.path.join(d, "t.npy")))
"""
CFG = SETUP + """\
with open(os.path.join(d, "cfg.json"), "w") as f:
    json.dump({"model": {"dim": 4}, "data": {"n": 6}}, f)
with open(os.path.join(d, "cfg.json")) as f:
    cfg = json.load(f)
x = torch.randn(2, cfg["model"]["dim"])
"""

CASES = [
    (NPY, "nn.Linear(4, 2)(a)"),
    (NPY, "nn.Linear(5, 2)(a)"),
    (PT, "s['w'] @ torch.randn(3, 2)"),
    (PT, "s['w'] @ torch.randn(6, 2)"),
    (PT, "torch.cat(s['parts'], 1)"),
    (PT, "torch.cat(s['parts'], 0)"),
    (LABELS, "F.one_hot(y, 4)"),
    (LABELS, "F.one_hot(y, 3)"),
    (LABELS, "nn.Embedding(4, 2)(y)"),
    (FROM_TORCH, "t.view(10)"),
    (FROM_TORCH, "t.view(3, -1)"),
    (CFG, "nn.Linear(cfg['model']['dim'], 3)(x)"),
    (CFG, "nn.Linear(cfg['model']['dim'], 3)(torch.cat([x, x], 1))"),
    (CFG, "torch.randn(int(cfg['data']['n']), 2) + torch.randn(int(cfg['data']['n']), 2)"),
]


@pytest.mark.parametrize("setup,expr", CASES)
def test_against_torch(setup: str, expr: str) -> None:
    check_against_torch(setup, expr)
