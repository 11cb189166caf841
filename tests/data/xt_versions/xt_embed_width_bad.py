import torch
from x_transformers import ContinuousTransformerWrapper, Encoder

model = ContinuousTransformerWrapper(dim_in=32, dim_out=8, max_seq_len=16, attn_layers=Encoder(dim=64, depth=1, heads=2))
x = torch.randn(2, 10, 48)
out = model(x)
