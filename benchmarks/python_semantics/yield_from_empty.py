import torch
import torch.nn as nn


def layers(extra):
    yield 16
    yield from extra


sizes = list(layers([]))  # CPython: [16]
y = nn.Linear(len(sizes), 2)(torch.zeros(1, 1))
