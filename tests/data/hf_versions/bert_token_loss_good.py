import torch
import torch.nn.functional as F
from torch import nn
from transformers import BertConfig, BertForTokenClassification

config = BertConfig(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64, vocab_size=100,
                    num_labels=5)
model = BertForTokenClassification(config)
ids = torch.randint(0, 100, (4, 10))
labels = torch.randint(0, 5, (4, 10))
logits = model(input_ids=ids).logits
loss = F.cross_entropy(logits.reshape(-1, 5), labels.reshape(-1))
