import torch
import torch.nn.functional as F
from torch import nn
from transformers import GPT2Config, GPT2Model

config = GPT2Config(n_embd=64, n_layer=1, n_head=2, vocab_size=100, n_positions=32)
model = GPT2Model(config)
ids = torch.randint(0, 100, (2, 8))
hidden = model(input_ids=ids).last_hidden_state
score = nn.Linear(32, 1)
value = score(hidden[:, -1])
