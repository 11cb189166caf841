import torch
import torch.nn.functional as F
from torch_geometric.nn.models import GCN

model = GCN(in_channels=16, hidden_channels=32, num_layers=2, out_channels=4)
x = torch.randn(10, 16)
edge_index = torch.randint(0, 10, (2, 30))
logits = model(x, edge_index)
y = torch.randint(0, 4, (10, 1))
loss = F.cross_entropy(logits, y)
