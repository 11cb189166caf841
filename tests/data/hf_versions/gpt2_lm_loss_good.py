import torch
import torch.nn.functional as F
from torch import nn
from transformers import GPT2Config, GPT2LMHeadModel

config = GPT2Config(n_embd=32, n_layer=1, n_head=2, vocab_size=50, n_positions=32)
model = GPT2LMHeadModel(config)
ids = torch.randint(0, 50, (2, 8))
logits = model(input_ids=ids).logits
loss = F.cross_entropy(logits.reshape(-1, 50), ids.reshape(-1))
