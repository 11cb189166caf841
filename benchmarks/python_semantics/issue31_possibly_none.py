import torch
import torch.nn as nn
from textenc import encode_prompt  # a library the analyzer does not follow

q = torch.randn(2, 5, 16)
context = encode_prompt("a cat")
attn_in = nn.Linear(32, 16)
if context is not None:
    k = attn_in(context)
else:
    k = attn_in(q)
