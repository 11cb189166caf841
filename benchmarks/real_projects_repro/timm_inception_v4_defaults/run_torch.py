"""timm 1.0.31 `inception_v4.py:38, 86, 149, 220` (PT001 `cat`, library mode: "Mixed3a / Mixed5a / ReductionA /
ReductionB built with defaults; fails for every input"), found at main e76c912 (stop 43). torch runs timm's own
blocks, imported from the sweep's cache beside the torchvision stand-in (`../_tvstub/`).

Verdict: true for the modules as built with their defaults: `conv_block=ConvNormAct` pads a stride-2 3x3 conv
by 1 (timm's default `padding=''` is PyTorch-style 'same'-ish), the block's unpadded stride-2 max pool does not,
so the two branches are one row apart for every input size and `torch.cat` raises. InceptionV4 itself never
builds them so: it passes `conv_block = partial(ConvNormAct, padding=0, ...)`, with which each block runs (the
input sizes below are those the network feeds them at 299x299). A default argument no caller uses: the finding
is the module's as written, not a failure of the model timm registers."""

import os
import sys
from functools import partial

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from _load import source_dir  # noqa: E402

sys.path[:0] = [os.path.join(os.path.dirname(HERE), "_tvstub"), source_dir("timm-1.0.31")]
import torch  # noqa: E402
from timm.layers import ConvNormAct  # noqa: E402
import importlib  # noqa: E402

iv4 = importlib.import_module("timm.models.inception_v4")  # the package binds the name to the model function

cases = [(iv4.Mixed3a, 64, 147), (iv4.Mixed5a, 192, 71), (iv4.ReductionA, 384, 35), (iv4.ReductionB, 1024, 17)]
with torch.no_grad():
    for cls, c, s in cases:
        for size in (s, s + 1, 64):
            try:
                cls().eval()(torch.randn(1, c, size, size))
                print(cls.__name__, "defaults", size, "runs")
            except RuntimeError as e:
                print(cls.__name__, "defaults", size, "RuntimeError:", str(e).splitlines()[0][:90])
        out = cls(partial(ConvNormAct, padding=0)).eval()(torch.randn(1, c, s, s))
        print(cls.__name__, "as InceptionV4 builds it", s, "->", tuple(out.shape))
