import torch
import segmentation_models_pytorch as smp

model = smp.Unet(encoder_name="resnet18", encoder_weights=None, in_channels=3, classes=2)
images = torch.randn(2, 3, 64, 64)
masks = model(images)
