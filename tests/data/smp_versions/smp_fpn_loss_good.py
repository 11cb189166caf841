import torch
import torch.nn.functional as F
import segmentation_models_pytorch as smp

model = smp.FPN(encoder_name="resnet18", encoder_weights=None, in_channels=3, classes=4)
images = torch.randn(2, 3, 64, 64)
logits = model(images)
targets = torch.randint(0, 4, (2, 64, 64))
loss = F.cross_entropy(logits, targets)
