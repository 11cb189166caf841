import enum

import torch


class Kind(enum.Enum):
    FIXED = 1
    LEARNED = 2
    LEARNED_RANGE = 3


kind = Kind.FIXED
y = torch.randn(2, 3)
if kind in [Kind.LEARNED, Kind.LEARNED_RANGE]:
    mean, var = torch.split(y, 3, dim=1)
else:
    mean = y
