import itertools

import torch
import torch.nn.functional as F

pairs = []
pads = list(itertools.chain.from_iterable(pairs))
x = torch.zeros(2, 3, 4)
y = F.pad(x, pads)
