import torch
import torch.nn.functional as F
from monai.networks.nets import BasicUNet

net = BasicUNet(spatial_dims=2, in_channels=1, out_channels=4, features=(8, 8, 16, 16, 32, 8))
x = torch.randn(2, 1, 32, 32)
logits = net(x)
target = torch.randint(0, 4, (2, 32, 32))
loss = F.cross_entropy(logits, target)
