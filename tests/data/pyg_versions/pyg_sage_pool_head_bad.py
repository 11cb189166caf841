import torch
from torch import nn
from torch_geometric.nn import SAGEConv, global_mean_pool

conv = SAGEConv(16, 64)
x = torch.randn(10, 16)
edge_index = torch.randint(0, 10, (2, 30))
batch = torch.tensor([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
pooled = global_mean_pool(conv(x, edge_index).relu(), batch)
head = nn.Linear(32, 2)
scores = head(pooled)
