import torch
import timm

model = timm.create_model("vit_tiny_patch16_224", pretrained=False, num_classes=3, img_size=32, patch_size=8)
images = torch.randn(2, 3, 32, 32)
logits = model(images)
