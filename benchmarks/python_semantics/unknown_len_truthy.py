import itertools

import torch
import torch.nn as nn

extra = list(itertools.chain.from_iterable([]))  # CPython: []
h = torch.zeros(1, 3) if extra else torch.zeros(1, 4)
y = nn.Linear(4, 2)(h)
