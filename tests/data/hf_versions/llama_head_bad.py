import torch
import torch.nn.functional as F
from torch import nn
from transformers import LlamaConfig, LlamaModel

config = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=1, num_attention_heads=4,
                     num_key_value_heads=2, vocab_size=100, max_position_embeddings=64)
model = LlamaModel(config)
ids = torch.randint(0, 100, (2, 8))
hidden = model(input_ids=ids).last_hidden_state
head = nn.Linear(128, 2)
logits = head(hidden[:, -1])
