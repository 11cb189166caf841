import torch
from torch_geometric.nn import GCNConv

conv = GCNConv(16, 32)
x = torch.randn(10, 16)
edge_index = torch.randint(0, 10, (2, 30))
h = conv(x, edge_index)
