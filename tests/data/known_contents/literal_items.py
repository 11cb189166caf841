import torch

ids = torch.arange(2, 12, 3)
p_list = torch.zeros(ids.tolist()[2])  # -> [8]
p_iter = torch.zeros([int(i) for i in ids][-1])  # -> [11]
half = torch.tensor([0.5, 0.25])
p_half = torch.zeros(int(half[1].item() * 8))  # -> [2]
p_float = torch.zeros(int(float(half[0]) == 0.5))  # -> [1]
tenth = torch.tensor(0.1)
p_tenth = torch.zeros(int(tenth.item() == 0.1))  # -> [0]
scaled = torch.linspace(-1, 1, 5)
p_mid = torch.zeros(int(scaled[1].item() < -0.4), int(scaled[0].item() == -1.0))  # -> [1, 1]
