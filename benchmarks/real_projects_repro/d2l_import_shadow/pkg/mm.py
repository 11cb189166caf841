"""A sibling of pkg/torch.py: its `import torch` is the real torch too (imported as pkg.mm)."""
import torch
from torch import nn


class FFN2(nn.Module):
    def __init__(self, a=8, b=4):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(a, b), nn.ReLU())

    def forward(self, X):
        return self.layers(X)
