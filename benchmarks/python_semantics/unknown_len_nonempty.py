import itertools

import torch
import torch.nn as nn

extra = list(itertools.combinations([], 2))  # CPython: []
y = nn.Linear(len(extra) + 2, 3)(torch.zeros(1, 2))
