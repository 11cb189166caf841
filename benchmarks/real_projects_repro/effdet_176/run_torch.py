"""effdet 0.4.1 `efficientdet.py:176` (PT003 interpolate "either size or scale_factor should be defined",
library mode: Interpolate2d built with defaults). The project builds Interpolate2d only with scale_factor
or size (efficientdet.py:238-248); torch rejects only `Interpolate2d()`, which the project never builds."""
import sys
from typing import Optional, Tuple, Union

import torch
import torch.nn.functional as F

sys.path.insert(0, __file__.rsplit("/", 2)[0])
from _load import definitions  # noqa: E402

scope = definitions("effdet-0.4.1", "effdet/efficientdet.py", ["Interpolate2d"],
                    {"torch": torch, "nn": torch.nn, "F": F, "Optional": Optional, "Union": Union, "Tuple": Tuple})
Interpolate2d = scope["Interpolate2d"]
x = torch.randn(1, 8, 16, 16)
print(tuple(Interpolate2d(scale_factor=2.0, mode="nearest")(x).shape))
print(tuple(Interpolate2d(size=(8, 8), mode="bilinear")(x).shape))
try:
    Interpolate2d()(x)
except ValueError as e:
    print("defaults, never built by the project:", e)
print("false alarm: as the project builds it, Interpolate2d runs")
