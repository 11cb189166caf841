import torch
from torch import nn
from diffusers import AutoencoderKL

vae = AutoencoderKL(in_channels=3, out_channels=3, down_block_types=("DownEncoderBlock2D", "DownEncoderBlock2D"),
                    up_block_types=("UpDecoderBlock2D", "UpDecoderBlock2D"), block_out_channels=(16, 32),
                    layers_per_block=1, latent_channels=4, norm_num_groups=8, sample_size=16)
images = torch.randn(2, 3, 16, 16)
latents = vae.encode(images).latent_dist.sample()
proj = nn.Conv2d(vae.config.latent_channels, 16, kernel_size=1)
features = proj(latents)
