import torch
from torch import nn
from open_clip import CLIP

model = CLIP(embed_dim=64, vision_cfg=dict(layers=1, width=32, head_width=16, patch_size=8, image_size=32),
             text_cfg=dict(context_length=16, vocab_size=100, width=32, heads=2, layers=1))
images = torch.randn(2, 3, 32, 32)
features = model.encode_image(images)
head = nn.Linear(32, 3)
scores = head(features)
