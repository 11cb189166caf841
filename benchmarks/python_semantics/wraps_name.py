import functools

import torch
import torch.nn as nn


def scaled(fn):
    @functools.wraps(fn)
    def inner(*args):
        return fn(*args)
    return inner


@scaled
def features(a):
    return a


name = features.__name__  # CPython: "features" (functools.wraps copies it)
y = nn.Linear(len(name), 2)(torch.zeros(1, 8))
