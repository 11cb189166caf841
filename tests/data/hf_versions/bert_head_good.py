import torch
import torch.nn.functional as F
from torch import nn
from transformers import BertConfig, BertModel

config = BertConfig(hidden_size=64, num_hidden_layers=1, num_attention_heads=2, intermediate_size=128, vocab_size=100)
model = BertModel(config)
head = nn.Linear(config.hidden_size, 3)
ids = torch.randint(0, 100, (4, 12))
out = model(input_ids=ids)
logits = head(out.pooler_output)
