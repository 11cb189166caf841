"""speechbrain 1.1.2: PT002 at nnet/attention.py:871 (library mode, target lobes/models/dual_path.py::SBTransformerBlock):
"SBTransformerBlock works only when its constructor arguments coincide, whatever the input: d_model == kdim".
torch 2.13 runs the project's own definitions (SBTransformerBlock, TransformerEncoder(Layer), speechbrain's
MultiheadAttention, PositionalwiseFeedForward, LayerNorm, read from the sweep's cache; speechbrain's package
import needs tqdm, hyperpyyaml, torchaudio, scipy, not installed here): the docstring's `SBTransformerBlock(1, 64, 8)`
runs, and with `kdim=32` (or `vdim=32`) every input fails at attention.py's nn.MultiheadAttention call: the
encoder is self-attention (query = key = value = the block's input, d_model wide), so a kdim other than d_model can
never work. The parameter is documented ("Dimension of the key (Optional)") and passed through; no caller in the
project gives it."""
import math
import os
import sys
import types
from typing import Optional

import torch
from torch import nn

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(here))
from _load import definitions  # noqa: E402

P = "speechbrain-1.1.2"
scope: dict = {"torch": torch, "nn": nn, "math": math, "Optional": Optional, "F": torch.nn.functional}
definitions(P, "speechbrain/nnet/normalization.py", ["LayerNorm"], scope)
definitions(P, "speechbrain/nnet/attention.py", ["MultiheadAttention", "PositionalwiseFeedForward"], scope)
sb = types.SimpleNamespace(nnet=types.SimpleNamespace(
    attention=types.SimpleNamespace(MultiheadAttention=scope["MultiheadAttention"],
                                    PositionalwiseFeedForward=scope["PositionalwiseFeedForward"]),
    normalization=types.SimpleNamespace(LayerNorm=scope["LayerNorm"])))
scope["sb"] = sb
definitions(P, "speechbrain/lobes/models/transformer/Transformer.py", ["TransformerEncoderLayer", "TransformerEncoder"], scope)
definitions(P, "speechbrain/lobes/models/dual_path.py", ["SBTransformerBlock"], scope)
Block = scope["SBTransformerBlock"]

x = torch.randn(10, 100, 64)
print("SBTransformerBlock(1, 64, 8):", tuple(Block(1, 64, 8)(x).shape))
for kw in ({"kdim": 32}, {"vdim": 32}, {"kdim": 32, "vdim": 32}):
    try:
        Block(1, 64, 8, **kw)(x)
        print(kw, "ran")
    except (RuntimeError, AssertionError) as e:
        print(kw, "fails:", type(e).__name__, str(e).splitlines()[0][:120])
