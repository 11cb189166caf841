import collections

import torch
import torch.nn as nn

k = len(collections.Counter("ab"))  # 2, a length the analyzer keeps symbolic
widths = {k: 8, 2: 16}  # CPython: one key (k == 2)
y = nn.Linear(len(widths), 2)(torch.zeros(1, 1))
