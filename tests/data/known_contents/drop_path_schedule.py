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
stages = [x.tolist() for x in torch.linspace(0, 0.1, 6).split([2, 4])]  # timm's ConvNeXt, Swin
p_stages = torch.zeros(len(stages[1]), int(stages[0][0] == 0.0), int(stages[1][0] > 0.03))  # -> [4, 1, 1]
none = [x.item() for x in torch.linspace(0, 0.0, 12)]  # drop_path_rate=0.: every block exactly 0
p_none = torch.zeros(sum(int(r > 0.0) for r in none), int(none[7] == 0.0))  # -> [0, 1]
halves = torch.arange(6).chunk(2)
p_chunk = torch.zeros(halves[1].tolist()[0], len(torch.arange(4).unbind(0)))  # -> [3, 4]
sliced = torch.arange(10)[2:8:3]
p_slice = torch.zeros(sliced.tolist()[1])  # -> [5]
