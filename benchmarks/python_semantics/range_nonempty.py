import collections

import torch
import torch.nn as nn

width = len(collections.Counter("abcde"))  # 5, a length the analyzer keeps symbolic
extra = list(range(width, 4))  # CPython: [] (an empty range is fine)
y = nn.Linear(width, 2)(torch.zeros(1, 5))
