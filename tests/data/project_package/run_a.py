import torch
import mypkg

mypkg.CONF.width = 16
mypkg.REG["a"] = 1
mypkg.TABLE.clear()
net = mypkg.Net()
y = net(torch.zeros(2, 16))
