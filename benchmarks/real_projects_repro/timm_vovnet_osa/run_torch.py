"""timm 1.0.31 `layers/conv_bn_act.py:93` (PT002 from `models/vovnet.py`'s OsaBlock, library mode: "Conv2d: expected
3D (unbatched) or 4D (batched) input, but got input of size [D] (when `i == 0` is true at vovnet.py:36, which
depends on a size of unknown kind)"), found at main e76c912 (stop 43).

Verdict: a false alarm. OsaBlock runs on batched images `[N, C, H, W]` for every `layer_per_block` (below), and a
rank-1 input fails at its first ConvNormAct whichever side `i == 0` takes (`SequentialAppendList` feeds its first
layer `x` and every later one the last output, `x` itself on the first iteration): that input rank is the
module's contract (a rank the first layer rejects), not a finding. The analyzer's index of `enumerate` over the
layers a loop of symbolic length built is a size of unknown kind, so `i == 0` was undecided and the failure of
the rank-1 input on its sides was given as an unsure-side warning instead of dropping the rank."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from _load import source_dir  # noqa: E402

sys.path[:0] = [os.path.join(os.path.dirname(HERE), "_tvstub"), source_dir("timm-1.0.31")]
import importlib  # noqa: E402

import torch  # noqa: E402

vovnet = importlib.import_module("timm.models.vovnet")
with torch.no_grad():
    for layers in (1, 2, 3):
        m = vovnet.OsaBlock(8, 4, 16, layers).eval()
        print("layer_per_block", layers, "[2, 8, 9, 9] ->", tuple(m(torch.randn(2, 8, 9, 9)).shape))
        try:
            m(torch.randn(8))
            print("  rank 1 runs")
        except RuntimeError as e:
            print("  rank 1 RuntimeError:", str(e).splitlines()[0][:80])
