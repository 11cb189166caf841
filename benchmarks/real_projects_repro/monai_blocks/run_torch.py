"""monai 1.6.1, two PT002 of the stop-38 sweep (library mode, the whole project's run), both false alarms:

- networks/blocks/crossattention.py:159, "CrossAttentionBlock works only when its constructor arguments coincide,
  whatever the input: hidden_input_size == context_input_size". Given its optional `context` (as a cross-attention
  block is used), any sizes run; only without a context do the two sizes have to agree.
- networks/blocks/patchembedding.py:233, PatchEmbed "a size of its input must equal a width already on another axis
  ... a forgotten transpose?": its intended batched inputs ([N, C, D, H, W] for spatial_dims=3, [N, C, H, W] for 2)
  run; only an unbatched rank-4 input to the 3-D block (which forward reads as a 2-D batch) fails.

torch 2.13 runs monai's own code (the package imports from the sweep's cache)."""
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(here))
from _load import source_dir  # noqa: E402

sys.path.insert(0, source_dir("monai-1.6.1"))
from monai.networks.blocks.crossattention import CrossAttentionBlock  # noqa: E402
from monai.networks.blocks.patchembedding import PatchEmbed  # noqa: E402

b = CrossAttentionBlock(hidden_size=8, num_heads=2, hidden_input_size=4, context_input_size=6)
print("CrossAttentionBlock(8, 2, hidden_input_size=4, context_input_size=6) with a context:",
      tuple(b(torch.randn(2, 5, 4), context=torch.randn(2, 7, 6)).shape))
try:
    b(torch.randn(2, 5, 4))
except RuntimeError as e:
    print("  without a context:", e)
print("PatchEmbed() on [1, 1, 32, 32, 32]:", tuple(PatchEmbed()(torch.randn(1, 1, 32, 32, 32)).shape))
print("PatchEmbed(spatial_dims=2) on [1, 1, 32, 32]:", tuple(PatchEmbed(spatial_dims=2)(torch.randn(1, 1, 32, 32)).shape))
try:
    PatchEmbed()(torch.randn(1, 32, 32, 32))
except RuntimeError as e:
    print("  PatchEmbed() on an unbatched rank-4 input:", str(e)[:120])
print("false alarms: both modules run on the inputs they are written for")
