"""A module whose `forward` is declared `@staticmethod` (yolov5's `SiLU`, `Hardswish`, `Mish`): CPython's
`module(x)` calls `forward(x)`, so library mode's inputs are all of its parameters (it took the first for
`self`, called `forward()` with none and ended every path in a TypeError, issue 31 item 9)."""

from __future__ import annotations

from pathlib import Path

from pytea_ci.driver.check import check
from pytea_ci.driver.project import CheckRequest

ACTIVATIONS = """\
import torch
import torch.nn as nn
import torch.nn.functional as F


class SiLU(nn.Module):
    @staticmethod
    def forward(x):
        return x * torch.sigmoid(x)


class Pair(nn.Module):
    @staticmethod
    def forward(x, y):
        return F.hardtanh(x + 3, 0.0, 6.0) @ y.view(-1, 5)
"""


def test_a_static_forward_takes_every_parameter_as_an_input(tmp_path: Path) -> None:
    (tmp_path / "activations.py").write_text(ACTIVATIONS)
    out = check(CheckRequest(root=str(tmp_path), no_cache=True, overrides={"jobs": 1, "library_mode": "only"})).result
    entries = {e.entry: e.stats for e in out.entries}
    assert set(entries) == {"activations.py::SiLU", "activations.py::Pair"}
    assert all(s.ops_reached and s.ops_checked == s.ops_reached for s in entries.values())
    assert not [p for s in entries.values() for p in s.ended_paths if p["kind"] == "exception"]
