import torch
import torch.nn.functional as F
from x_transformers import Encoder, TransformerWrapper

model = TransformerWrapper(num_tokens=100, max_seq_len=32, attn_layers=Encoder(dim=64, depth=1, heads=2))
ids = torch.randint(0, 100, (2, 16))
targets = torch.randint(0, 100, (2, 16))
logits = model(ids)
loss = F.cross_entropy(logits.transpose(1, 2), targets)
