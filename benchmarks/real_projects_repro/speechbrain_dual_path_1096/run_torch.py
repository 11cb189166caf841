"""speechbrain 1.1.2: PT003 at lobes/models/dual_path.py:1096 (library mode, target SepformerWrapper built with
defaults): "Conv1d: kernel size (1) can't be greater than the padded input size (min(... - 250, ...))" for every
input [N, D]. Dual_Path_Model pads its input to chunks (`_padding`/`_Segmentation`, K = 250) and trims the padding
again in `_over_add` with `input[:, :, :-gap]` under `if gap > 0`; the analyzer took the symbolic stop `-gap` as
non-negative, a length min(-gap, L) < 0. torch 2.13 runs the project's own `_Segmentation` and `_over_add` (read
from the sweep's cache) for lengths around each chunk boundary: the trimmed length is always the input's, and
`end_conv1x1`'s Conv1d(kernel 1) runs on it. Fixed at s39-sweep d3b3b19 (models/torch/indexing.py `_sign`)."""
import os
import sys
import types

import torch
from torch import nn

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(here))
from _load import definitions  # noqa: E402

scope: dict = {"torch": torch, "nn": nn}
definitions("speechbrain-1.1.2", "speechbrain/lobes/models/dual_path.py", ["Dual_Path_Model"], scope)
model = scope["Dual_Path_Model"]
me = types.SimpleNamespace()
me._padding = types.MethodType(model._padding, me)
conv = nn.Conv1d(4, 4, 1)
for L in (1, 2, 124, 125, 126, 249, 250, 251, 500, 1001):
    x = torch.randn(2, 4, L)
    seg, gap = model._Segmentation(me, x, 250)
    out = model._over_add(me, seg, gap)
    assert out.shape == (2, 4, L), (L, gap, out.shape)
    conv(out)
print("the trimmed length is the input's for every length tried; Conv1d(kernel 1) runs: false alarm")
