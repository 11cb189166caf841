import torch
import torch.nn.functional as F
import timm

model = timm.create_model("convnext_atto", pretrained=False, num_classes=5)
images = torch.randn(4, 3, 64, 64)
logits = model(images)
targets = torch.randint(0, 5, (4,))
loss = F.cross_entropy(logits, targets)
