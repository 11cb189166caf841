import torch
import torch.nn.functional as F
from torch import nn
from transformers import BartConfig, BartModel

config = BartConfig(d_model=32, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                    decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64, vocab_size=100,
                    max_position_embeddings=64)
model = BartModel(config)
ids = torch.randint(3, 100, (2, 12))
hidden = model(input_ids=ids, decoder_input_ids=ids[:, :6]).last_hidden_state
head = nn.Linear(32, 3)
logits = head(hidden)
