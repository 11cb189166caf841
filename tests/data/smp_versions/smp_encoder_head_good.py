import torch
from torch import nn
import segmentation_models_pytorch as smp

model = smp.create_model("unet", encoder_name="resnet34", encoder_weights=None, in_channels=3, classes=1)
images = torch.randn(2, 3, 64, 64)
deepest = model.encoder(images)[-1].mean((2, 3))
head = nn.Linear(model.encoder.out_channels[-1], 5)
scores = head(deepest)
