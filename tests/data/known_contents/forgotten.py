import torch
import torch.nn as nn

t = torch.linspace(0, 1, 3)
t.mul_(-1)
p_inplace = torch.zeros(int(t[1].item() > 0))  # -> ?
u = torch.arange(4)
u[2] = 7
p_setitem = torch.zeros(u.tolist()[2])  # -> ?
w = nn.Parameter(torch.tensor([0.5]))
p_param = torch.zeros(int(w.item() > 0))  # -> ?
v = torch.linspace(0, 1, 3) * 2
p_arith = torch.zeros(int(v[1].item() > 0))  # -> ?
