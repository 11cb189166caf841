"""k-diffusion 0.1.1.post1 `models/image_transformer_v1.py:223` (PT003 rearrange "Could not infer sizes for
{'h', 'i'}", library mode: Patching built with symbolic features, patch_size). torch and einops run
Patching as the project builds it (`Patching(in_features, patch_size)` with a pair); einops never raises
that message when `i` and `j` are given. The analyzer treated a length given but not understood
(`patch_size[0]` of a symbol) as not given."""
import math
import sys

import torch
from einops import rearrange

sys.path.insert(0, __file__.rsplit("/", 2)[0])
from _load import definitions  # noqa: E402

scope = {"torch": torch, "nn": torch.nn, "rearrange": rearrange, "math": math}
definitions("k-diffusion-0.1.1.post1", "k_diffusion/models/axial_rope.py", ["centers", "make_grid", "bounding_box", "make_axial_pos"], scope)
definitions("k-diffusion-0.1.1.post1", "k_diffusion/models/image_transformer_v1.py", ["Patching"], scope)
for features, patch in ((3, (4, 4)), (4, (2, 2)), (3, (8, 4))):
    x, pos = scope["Patching"](features, patch)(torch.randn(2, features, 32, 32))
    print("Patching", features, patch, "->", tuple(x.shape), tuple(pos.shape))
print("false alarm: Patching runs")
