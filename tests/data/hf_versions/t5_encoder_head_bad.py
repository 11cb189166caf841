import torch
import torch.nn.functional as F
from torch import nn
from transformers import T5Config, T5EncoderModel

config = T5Config(d_model=32, d_ff=64, d_kv=16, num_layers=1, num_heads=2, vocab_size=100)
model = T5EncoderModel(config)
ids = torch.randint(0, 100, (3, 10))
hidden = model(input_ids=ids).last_hidden_state
head = nn.Linear(64, 4)
logits = head(hidden.mean(dim=1))
