import torch
from torch import nn
import open_clip

model = open_clip.create_model("RN50", pretrained=None)
images = torch.randn(1, 3, 224, 224)
features = model.encode_image(images)
head = nn.Linear(1024, 10)
scores = head(features)
