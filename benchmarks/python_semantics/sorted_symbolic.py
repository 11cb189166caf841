import collections

import torch
import torch.nn as nn

k = len(collections.Counter("ab"))  # 2, a length the analyzer keeps symbolic
sizes = sorted([k + 1, 0])  # CPython: [0, 3]
y = nn.Linear(sizes[1], 2)(torch.zeros(1, 3))
