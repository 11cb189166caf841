import math

import torch
import torch.nn as nn

bits = math.prod(range(6)).bit_length()  # 0
if any([bits, 4, 3]):  # CPython: True whatever bits is
    n = 3
else:
    n = 5
y = nn.Linear(n, 2)(torch.zeros(1, 3))
