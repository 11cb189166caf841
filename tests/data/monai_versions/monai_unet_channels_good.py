import torch
from monai.networks.nets import UNet

net = UNet(spatial_dims=2, in_channels=1, out_channels=2, channels=(8, 16, 32), strides=(2, 2), num_res_units=1)
scans = torch.randn(2, 1, 32, 32)
masks = net(scans)
