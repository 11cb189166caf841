import torch
import torch.nn.functional as F
from torch import nn
from transformers import CLIPVisionConfig, CLIPVisionModel

config = CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2,
                          image_size=32, patch_size=8)
model = CLIPVisionModel(config)
pixels = torch.randn(2, 3, 32, 32)
pooled = model(pixel_values=pixels).pooler_output
head = nn.Linear(config.hidden_size, 5)
logits = head(pooled)
