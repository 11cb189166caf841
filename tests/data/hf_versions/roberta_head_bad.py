import torch
import torch.nn.functional as F
from torch import nn
from transformers import RobertaConfig, RobertaModel

config = RobertaConfig(hidden_size=48, num_hidden_layers=1, num_attention_heads=3, intermediate_size=96, vocab_size=120)
model = RobertaModel(config)
ids = torch.randint(3, 120, (2, 16))
hidden = model(input_ids=ids).last_hidden_state
head = nn.Linear(64, 2)
logits = head(hidden[:, 0])
