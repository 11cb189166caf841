"""Sizes drawn at random: a check that fails for some draws (a warning) and one that fails for all."""
import random

import torch
import torch.nn as nn

fc = nn.Linear(3072, 10)
size = random.randint(16, 64)
x = torch.randn(8, 3, size, size).flatten(1)
# a 32x32 image passes, every other size fails
y = fc(x)
print(y.shape)

# none of the crop sizes is a multiple of 3
crop = random.choice([28, 32, 64])
row = torch.randn(2, crop)
print(row.shape)


# every draw of crop fails: 2 * 28 = 56, 2 * 32 = 64 and 2 * 64 = 128 elements never
# split into [2, 3, -1] (none is a multiple of 6), so this is an error whatever the draw,
# not a warning

z = row.view(2, 3, -1)
