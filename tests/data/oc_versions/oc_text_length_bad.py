import torch
from open_clip import CLIP

model = CLIP(embed_dim=64, vision_cfg=dict(layers=1, width=32, head_width=16, patch_size=8, image_size=32),
             text_cfg=dict(context_length=16, vocab_size=100, width=32, heads=2, layers=1))
tokens = torch.randint(0, 100, (2, 20))
text_features = model.encode_text(tokens)
