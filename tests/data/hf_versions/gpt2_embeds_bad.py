import torch
import torch.nn.functional as F
from torch import nn
from transformers import GPT2Config, GPT2Model

config = GPT2Config(n_embd=64, n_layer=1, n_head=2, vocab_size=100, n_positions=32)
model = GPT2Model(config)
proj = nn.Linear(16, 32)
feats = torch.randn(2, 8, 16)
out = model(inputs_embeds=proj(feats))
