import torch
import pkg.torch, pkg.mm
print(pkg.torch.torch is torch, pkg.mm.torch is torch)
print(pkg.torch.FFN()(torch.randn(2, 8)).shape, pkg.mm.FFN2()(torch.randn(2, 8)).shape)
