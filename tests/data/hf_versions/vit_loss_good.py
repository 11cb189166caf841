import torch
import torch.nn.functional as F
from torch import nn
from transformers import ViTConfig, ViTForImageClassification

config = ViTConfig(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64, image_size=32,
                   patch_size=8, num_labels=7)
model = ViTForImageClassification(config)
pixels = torch.randn(4, 3, 32, 32)
logits = model(pixel_values=pixels).logits
targets = torch.randint(0, 7, (4,))
loss = F.cross_entropy(logits, targets)
