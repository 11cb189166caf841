import torch

# a stochastic-depth schedule (Swin, timm's ViTs, ConvNeXt): the first block has none
dpr = [x.item() for x in torch.linspace(0, 0.1, 12)]
p_first = torch.zeros(int(dpr[0] > 0.))  # -> [0]
p_second = torch.zeros(int(dpr[1] > 0.))  # -> [1]
p_last = torch.zeros(int(dpr[-1] == 0.1))  # -> [0]  (float32's 0.1 is not Python's)
p_last32 = torch.zeros(int(dpr[-1] > 0.0999))  # -> [1]
per_stage = dpr[sum([2, 2, 6][:1]):sum([2, 2, 6][:2])]
p_stage = torch.zeros(len(per_stage), int(per_stage[0] < 0.02))  # -> [2, 1]
keep = 1 - dpr[5]
p_keep = torch.zeros(int(keep < 1.0), int(keep > 0.9))  # -> [1, 1]
