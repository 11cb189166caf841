import torch
from torch import nn
import timm

backbone = timm.create_model("resnet18", pretrained=False, num_classes=0)
head = nn.Linear(backbone.num_features, 10)
images = torch.randn(2, 3, 64, 64)
logits = head(backbone(images))
