import torch
import torch.nn as nn


def width(kind):
    match kind:
        case "small":
            return 4
        case _:
            return 8


name = f"{width('small')}x"  # CPython: "4x"
y = nn.Linear(len(name), 2)(torch.zeros(1, 2))
