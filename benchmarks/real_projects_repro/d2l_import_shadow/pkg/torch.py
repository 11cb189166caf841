"""A package module named like the library it imports (d2l/torch.py): `import torch` in it, and in its
sibling modules, is the real torch when they are imported as pkg.torch / pkg.mm."""
import torch
from torch import nn


class FFN(nn.Module):
    def __init__(self, a=8, b=4):
        super().__init__()
        self.dense1 = nn.Linear(a, b)

    def forward(self, X):
        return self.dense1(X)
