import torch
from diffusers import UNet2DModel

unet = UNet2DModel(sample_size=16, in_channels=3, out_channels=3, layers_per_block=1, block_out_channels=(32, 64),
                   down_block_types=("DownBlock2D", "DownBlock2D"), up_block_types=("UpBlock2D", "UpBlock2D"),
                   norm_num_groups=8)
noisy = torch.randn(2, 4, 16, 16)
t = torch.tensor([10, 20])
pred = unet(noisy, t).sample
