import torch
from torch import nn
from monai.networks.nets import SegResNet

net = SegResNet(spatial_dims=2, init_filters=8, in_channels=1, out_channels=3, blocks_down=(1, 2), blocks_up=(1,))
x = torch.randn(2, 1, 32, 32)
out = net(x)
refine = nn.Conv2d(3, 1, kernel_size=1)
y = refine(out)
