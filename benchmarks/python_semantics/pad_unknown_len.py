import collections

import torch
import torch.nn.functional as F

pads = list(collections.Counter([0, 3]).values())  # CPython: [1, 1]
y = F.pad(torch.zeros(2, 3, 4, 5), pads)
