"""imagen-pytorch 2.1.0 `imagen_video.py:1003` (PT001 `rearrange`, library mode: "LinearAttention built with symbolic
dim, context_dim; fails for every input fmap: [N, C, D, H, W]"), new in the stop-43 branch's row. torch runs the
file's own LinearAttention (imagen_video.py loaded alone, its `tqdm` and T5 imports stubbed: LinearAttention uses
neither).

Verdict: a bug. Under torch 2.13 the class fails for every input tried: a video `[b, c, f, h, w]` reaches
`rearrange(q, 'b (h c) x y -> ...')` as a 5-d tensor (the file's `Conv2d` is a Conv3d over frames, so `to_q`
keeps the frames axis) and einops raises at line 1003, the finding's line; an image `[b, c, h, w]` already fails
in ChanLayerNorm, whose gain is `[1, dim, 1, 1, 1]`. Unet3D builds it through `LinearAttentionTransformerBlock`
when `use_linear_attn=True` (imagen_video.py:1494)."""

import importlib.util
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from _load import source_dir  # noqa: E402

import torch  # noqa: E402

for name, attrs in (("tqdm", {}), ("tqdm.auto", {"tqdm": lambda x, **k: x}), ("imagen_pytorch", {}),
                    ("imagen_pytorch.t5", {"t5_encode_text": None, "get_encoded_dim": lambda n: 768,
                                           "DEFAULT_T5_NAME": "t5"})):
    mod = types.ModuleType(name)
    mod.__dict__.update(attrs)
    sys.modules.setdefault(name, mod)
path = os.path.join(source_dir("imagen-pytorch-2.1.0"), "imagen_pytorch", "imagen_video.py")
spec = importlib.util.spec_from_file_location("imagen_video", path)
video = importlib.util.module_from_spec(spec)
spec.loader.exec_module(video)

with torch.no_grad():
    for dim in (8, 16):
        for shape in ((2, dim, 3, 8, 8), (2, dim, 1, 8, 8), (2, dim, 8, 8), (dim, 8, 8), (dim, dim, 8, 8)):
            try:
                out = video.LinearAttention(dim).eval()(torch.randn(*shape))
                print("dim", dim, shape, "->", tuple(out.shape))
            except Exception as e:
                print("dim", dim, shape, type(e).__name__, str(e).splitlines()[0][:110])
