"""What `nn.BatchNorm1d/2d/3d` keep on the instance (`_NormBase.__init__`: `eps`, `momentum`, `affine`,
`track_running_stats`, and the `num_batches_tracked` buffer, None without running statistics), read by
subclasses' own `forward` (timm 1.0.31's `BatchNormAct2d`: `if self.training and self.track_running_stats:`
then `if self.num_batches_tracked is not None:`). On main they were values not understood: every
EfficientNet block forked twice, 9 paths and the step budget for `features_only=True`. Oracle: torch
runs the same probes."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from tests.test_attribute_presence import decided, wrong_answers
from tests.oracle.fuzz_python import Analyzer

LAYERS = ("nn.BatchNorm2d(4)", "nn.BatchNorm1d(3, 1e-3, None)", "nn.BatchNorm2d(4, momentum=0.3, affine=False)",
          "nn.BatchNorm3d(2, track_running_stats=False)", "nn.BatchNorm2d(4, 1e-4, 0.2, True, False)")
PROBES = ("int(round(m.eps * 1e5))", "7 if m.momentum is None else int(round(m.momentum * 10))",
          "3 if m.affine else 4", "3 if m.track_running_stats else 4", "3 if m.num_batches_tracked is None else 4",
          "3 if m.training and m.track_running_stats else 4")


def test_batch_norm_keeps_its_arguments_and_counter_as_torch() -> None:
    if importlib.util.find_spec("torch") is None:
        pytest.skip("the oracle needs torch")
    lines = ["import torch", "from torch import nn"]
    for i, layer in enumerate(LAYERS):
        lines.append(f"m = {layer}")
        lines += [f"p_{i}_{j} = torch.zeros({probe})" for j, probe in enumerate(PROBES)]
        lines.append(f"p_{i}_c = torch.zeros(m.num_batches_tracked.dim() + 2) if m.track_running_stats else None")
    source = "\n".join(lines)
    run = subprocess.run([sys.executable, "-c", source + "\nprint({k: tuple(v.shape) for k, v in list(globals().items()) "
                          "if k.startswith('p_') and v is not None})"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    truth = eval(run.stdout)  # noqa: S307 - our own program's printed dict of tuples
    analyzer = Analyzer()
    assert wrong_answers(analyzer, source, truth) == {}
    got = decided(analyzer, source, truth, sorted(truth))
    assert set(got.values()) == {"exact"}, {k: v for k, v in got.items() if v != "exact"}
