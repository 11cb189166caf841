import enum

import torch
import torch.nn as nn


class Feature(enum.Flag):
    RGB = enum.auto()
    DEPTH = enum.auto()
    NORMALS = enum.auto()


width = Feature.NORMALS.value  # CPython: 4 (Flag's auto() gives powers of two)
y = nn.Linear(width, 2)(torch.zeros(1, 4))
