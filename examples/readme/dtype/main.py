import torch
import torch.nn.functional as F

out = F.log_softmax(torch.randn(8, 10), dim=1)
target = torch.randint(0, 10, (8,))
loss = F.nll_loss(out, target.float())
