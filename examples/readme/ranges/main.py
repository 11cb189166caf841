"""Class targets drawn from 0..11 for a 10-class model: a run whose draws all land below 10 passes."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(16, 10)
features = torch.randn(100, 16)
labels = torch.randint(1, 13, (100,)) - 1
loader = DataLoader(TensorDataset(features, labels), batch_size=20, shuffle=True)
for x, y in loader:
    loss = F.cross_entropy(model(x), y)
    loss.backward()
