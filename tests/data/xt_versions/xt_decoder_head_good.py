import torch
from torch import nn
from x_transformers import Decoder, TransformerWrapper

model = TransformerWrapper(num_tokens=100, max_seq_len=32, attn_layers=Decoder(dim=64, depth=1, heads=2))
ids = torch.randint(0, 100, (2, 16))
hidden = model(ids, return_embeddings=True)
head = nn.Linear(64, 3)
logits = head(hidden[:, -1])
