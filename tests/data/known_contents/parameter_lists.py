import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(4)
        self.mlp = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 4, bias=False))


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.scale = nn.Parameter(torch.ones(1))  # a parameter of its own: not declared anywhere


b = Block()
params = tuple(b.parameters())
p_count = torch.zeros(len(params))  # -> [5]
p_order = torch.zeros(params[3].shape[0], params[2].shape[1], params[4].shape[0])  # -> [8, 4, 4]
p_list = torch.zeros(len(list(nn.Linear(3, 2).parameters())))  # -> [2]
p_scaled = torch.zeros(len(tuple(Scaled().parameters())))  # -> ?
p_own = torch.zeros(len(tuple(b.parameters(recurse=False))))  # -> ?
