import torch
from torch import nn
import timm

model = timm.create_model("efficientnet_b0", pretrained=False, features_only=True, out_indices=(2, 4))
images = torch.randn(2, 3, 64, 64)
low, high = model(images)
head = nn.Conv2d(model.feature_info.channels()[-1], 8, kernel_size=1)
scores = head(high)
