import torch
import torch.nn as nn


class AtLeastOne:
    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, objtype=None):
        return getattr(obj, self.name)

    def __set__(self, obj, value):
        setattr(obj, self.name, max(value, 1))


class Layer:
    width = AtLeastOne()

    def __init__(self, width):
        self.width = width


y = nn.Linear(Layer(0).width, 2)(torch.zeros(1, 1))  # CPython: the descriptor made the width 1
