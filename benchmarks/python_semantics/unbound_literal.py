import torch


def parts(x, fused):
    if fused:
        a, b, c = torch.split(x, 2, dim=1)
    return a, b, c  # CPython: UnboundLocalError when fused is False


x = torch.randn(2, 6)
mean, var = parts(x, False)
