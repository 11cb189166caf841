import torch
import torch.nn as nn

keys = list(dict.fromkeys([4, 0, 5]))
groups = {}
for k in keys:
    groups[k] = 1
y = nn.Linear(len(groups), 2)(torch.zeros(1, 3))  # CPython: three groups
