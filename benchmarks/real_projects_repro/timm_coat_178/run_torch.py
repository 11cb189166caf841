"""timm 1.0.31 `coat.py:178` (PT001 `view`, library mode: "CoaT built with defaults; fails for every
input"). torch runs timm's own CoaT, imported from the sweep's cache beside a torchvision stand-in
(`../_tvstub/`: timm imports torchvision names at import time and CoaT uses none of them).

Verdict: the module does fail for every input when built with its defaults (`patch_size=16` while the
later stages assume the stem divides by 4: `img_size=[x // 4 ...]`), but torch raises earlier, at the
second PatchEmbed's `_assert(H == self.img_size[0], ...)` (timm/layers/patch_embed.py), not at the
`view` of coat.py:178; with `patch_size=4` (every registered CoaT) it runs. The analyzer did not
model `torch._assert`, so it went past the assertion to the view."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from _load import source_dir  # noqa: E402

sys.path[:0] = [os.path.join(os.path.dirname(HERE), "_tvstub"), source_dir("timm-1.0.31")]
import torch  # noqa: E402
from timm.models.coat import CoaT  # noqa: E402

m = CoaT().eval()
for size in (224, 112):
    try:
        m(torch.randn(1, 3, size, size))
        print(size, "runs")
    except AssertionError as e:
        print(size, "AssertionError:", e)
print("patch_size=4:", tuple(CoaT(patch_size=4).eval()(torch.randn(1, 3, 224, 224)).shape))
