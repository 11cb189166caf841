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
base = torch.arange(5)
part = base[1:3]
part.zero_()
p_view = torch.zeros(base.tolist()[1] + 1)  # -> ?
left, right = torch.linspace(0, 1, 4).split([2, 2])
whole = torch.cat([left, right])
left.add_(5)
p_piece = torch.zeros(int(left[0].item()) + 1)  # -> ?
row = torch.tensor([3, 4, 5])
for item in row:
    item.mul_(2)
p_item = torch.zeros(row.tolist()[2])  # -> ?
