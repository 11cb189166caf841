"""d2l 1.0.3's TransformerEncoderBlock (d2l/torch.py:1193, `transpose_qkv`'s reshape) under torch, with num_heads of
1, 2 and 4: library mode warned (PT002, sweep of stop 42 at main 2911f24) that it "works only when a constructor size
is 1, whatever the input: num_heads == 1 or num_hiddens == 1". d2l/torch.py imports plotting and data packages, so
the classes the block needs are taken from the sweep's cache (PYTEA_REAL_CACHE, default /work/sweep-cache) by name and
run with torch alone. A rank-3 input ([batch, tokens, num_hiddens], as the book feeds it) runs for every num_heads;
a rank-2 input fails for every num_heads (the reshape takes the features as the tokens): the warning is a false alarm
(a rank library mode tried that the block does not take), fixed by db292ad."""
import ast
import math
import os
import types

import torch
from torch import nn
from torch.nn import functional as F

PATH = os.path.join(os.environ.get("PYTEA_REAL_CACHE", "/work/sweep-cache"), "src", "d2l-1.0.3", "d2l", "torch.py")
NEEDED = {"sequence_mask", "masked_softmax", "DotProductAttention", "MultiHeadAttention", "PositionWiseFFN", "AddNorm",
          "TransformerEncoderBlock"}
tree = ast.parse(open(PATH).read())
d2l = types.SimpleNamespace(Module=nn.Module)  # d2l's Module adds plotting and training hooks, not layers
ns = {"torch": torch, "nn": nn, "F": F, "math": math, "d2l": d2l}
for node in tree.body:
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in NEEDED:
        exec(compile(ast.Module(body=[node], type_ignores=[]), PATH, "exec"), ns)
        setattr(d2l, node.name, ns[node.name])
for heads in (1, 2, 4):
    block = ns["TransformerEncoderBlock"](num_hiddens=8, ffn_num_hiddens=16, num_heads=heads, dropout=0.0).eval()
    print("num_heads", heads, "X [2, 5, 8] ->", tuple(block(torch.randn(2, 5, 8), None).shape))
    try:
        block(torch.randn(5, 8), None)
        print("  X [5, 8]: runs")
    except RuntimeError as e:
        print("  X [5, 8]: RuntimeError", str(e)[:70])
