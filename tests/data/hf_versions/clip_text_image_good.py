import torch
import torch.nn.functional as F
from torch import nn
from transformers import CLIPTextConfig, CLIPTextModel, CLIPVisionConfig, CLIPVisionModel

text = CLIPTextModel(CLIPTextConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2,
                                     vocab_size=100, max_position_embeddings=16))
vision = CLIPVisionModel(CLIPVisionConfig(hidden_size=48, intermediate_size=64, num_hidden_layers=1,
                                          num_attention_heads=2, image_size=32, patch_size=8))
t = text(input_ids=torch.randint(0, 100, (2, 8))).pooler_output
v = vision(pixel_values=torch.randn(2, 3, 32, 32)).pooler_output
similarity = t @ nn.Linear(48, 32)(v).T
