import torch
import torch.nn.functional as F
from torch import nn
from transformers import ViTConfig, ViTModel

config = ViTConfig(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64, image_size=32,
                   patch_size=8)
model = ViTModel(config)
pixels = torch.randn(2, 3, 32, 32)
cls = model(pixel_values=pixels).last_hidden_state[:, 0]
head = nn.Linear(64, 10)
logits = head(cls)
