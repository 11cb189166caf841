import torch
import mypkg

net = mypkg.Net()
y = net(torch.zeros(2, 8))
if "a" in mypkg.REG:
    z = torch.zeros(3, 4) @ torch.zeros(5, 6)
w = torch.zeros(2, len(mypkg.TABLE)) @ torch.zeros(300, 3)
