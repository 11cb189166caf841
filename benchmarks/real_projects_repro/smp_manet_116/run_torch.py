"""segmentation-models-pytorch 0.6.0 `segmentation_models_pytorch/decoders/manet/decoder.py:116` (PT001 Conv2d,
library mode: "MFABBlock built with symbolic in_channels, skip_channels, out_channels; fails for every input
x: [N, C, H, W]", i.e. `forward(x)` with `skip` left at its default None).

torch runs smp's own MFABBlock (its class definition read from the sweep's cache); `md.Conv2dReLU` is a
stand-in (Conv2d, BatchNorm2d, ReLU: what smp's builds with `use_norm="batchnorm"`).

Verdict: a bug of the signature's default. `forward(x, skip=None)` accepts `skip=None`, but conv1 is built
for `skip_channels + skip_channels` input channels, and without a skip `x` has `skip_channels`: torch raises
at line 116 for every input. The decoder itself always passes a skip to an MFABBlock (it builds one only when
`skip_ch > 0`), so the project's models run; the public block's `skip=None` path never can."""

import sys
import traceback
import types

import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, __file__.rsplit("/", 2)[0])
from _load import definitions  # noqa: E402


class Conv2dReLU(nn.Sequential):
    def __init__(self, in_channels, out_channels, kernel_size, padding=0, stride=1, use_norm="batchnorm"):
        super().__init__(nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=False),
                         nn.BatchNorm2d(out_channels), nn.ReLU(inplace=True))


from typing import Any, Dict, Optional, Union  # noqa: E402

scope = {"torch": torch, "nn": nn, "F": F, "md": types.SimpleNamespace(Conv2dReLU=Conv2dReLU), "Optional": Optional,
         "Union": Union, "Dict": Dict, "Any": Any}
definitions("segmentation-models-pytorch-0.6.0", "segmentation_models_pytorch/decoders/manet/decoder.py", ["MFABBlock"], scope)
MFABBlock = scope["MFABBlock"]

block = MFABBlock(64, 32, 16).eval()
print("with a skip:", tuple(block(torch.randn(2, 64, 8, 8), torch.randn(2, 32, 16, 16)).shape))
try:
    block(torch.randn(2, 64, 8, 8))
    print("without a skip: ran (NOT the reported failure)")
except RuntimeError:
    line = [f for f in traceback.extract_tb(sys.exc_info()[2]) if f.filename.endswith("decoder.py")][-1].lineno
    print(f"without a skip: RuntimeError at decoder.py:{line}: {str(sys.exc_info()[1]).splitlines()[0]}")
