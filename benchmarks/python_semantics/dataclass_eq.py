import dataclasses

import torch
import torch.nn as nn


@dataclasses.dataclass
class Cfg:
    width: int


h = torch.zeros(1, 4) if Cfg(2) == Cfg(2) else torch.zeros(1, 3)  # CPython: equal (generated __eq__)
y = nn.Linear(4, 2)(h)
