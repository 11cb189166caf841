"""diffusers 0.31.0, library-mode PT002 warnings of the stop-38 sweep, under torch 2.13 on diffusers' own code (the
package imports from the sweep's cache; huggingface_hub and the other pure-Python requirements from the sweep's
packages virtualenv, appended to sys.path):

- models/embeddings.py:288 (PatchEmbed) and models/resnet.py:417 (DownResnetBlock1D): "a forgotten transpose?" from an
  unbatched input; their batched inputs run (false alarms).
- pipelines/blip_diffusion/modeling_blip2.py:355: "ProjLayer works only when its constructor arguments coincide,
  whatever the input: out_dim == in_dim": true (LayerNorm(out_dim) and Linear(in_dim, ...) read the same input, and
  the residual adds it to an out_dim-wide output); the project builds ProjLayer(768, 768, 3072) (a bug of the API,
  not of the pipeline)."""
import glob
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(here))
from _load import source_dir  # noqa: E402

cache = os.path.dirname(os.path.dirname(source_dir("x")))
sys.path.insert(0, source_dir("diffusers-0.31.0"))
sys.path += glob.glob(os.path.join(cache, "packages-venv", "lib", "python3*", "site-packages"))
from diffusers.models.embeddings import PatchEmbed  # noqa: E402
from diffusers.models.unets.unet_1d_blocks import DownResnetBlock1D  # noqa: E402
from diffusers.pipelines.blip_diffusion.modeling_blip2 import ProjLayer  # noqa: E402

print("PatchEmbed() on [1, 3, 224, 224]:", tuple(PatchEmbed()(torch.randn(1, 3, 224, 224)).shape))
block = DownResnetBlock1D(in_channels=2, out_channels=8)
print("DownResnetBlock1D(2, 8) on [2, 2, 16] with temb [2, 32]:",
      tuple(block(torch.randn(2, 2, 16), temb=torch.randn(2, 32))[0].shape))
print("ProjLayer(768, 768, 3072) on [2, 5, 768]:", tuple(ProjLayer(768, 768, 3072)(torch.randn(2, 5, 768)).shape))
for width in (2, 3):
    try:
        ProjLayer(3, 2, 8)(torch.randn(2, 5, width))
    except RuntimeError as e:
        print(f"ProjLayer(3, 2, 8) on [2, 5, {width}] fails:", str(e)[:100])
