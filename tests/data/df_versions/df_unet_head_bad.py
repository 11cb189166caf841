import torch
from torch import nn
from diffusers import UNet2DModel

unet = UNet2DModel(sample_size=16, in_channels=3, out_channels=3, layers_per_block=1, block_out_channels=(32, 64),
                   down_block_types=("DownBlock2D", "DownBlock2D"), up_block_types=("UpBlock2D", "UpBlock2D"),
                   norm_num_groups=8)
x = torch.randn(2, 3, 16, 16)
out = unet(x, 5).sample
head = nn.Linear(3 * 16 * 16 + 1, 10)
logits = head(out.flatten(1))
