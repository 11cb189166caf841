import itertools

import torch
import torch.nn as nn

n = 3
# islice of itertools.count: an iteration the analyzer does not follow; CPython's list is [2, 3, 4]
missing = n not in list(itertools.islice(itertools.count(2), n))
h = torch.zeros(1, 3) if missing else torch.zeros(1, 4)
y = nn.Linear(4, 2)(h)
