import torch
import torch.nn as nn
import torch.nn.functional as F

# timm's create_act: which activations this torch has decides the default layers
_has_silu = "silu" in dir(torch.nn.functional)
_has_mish = "mish" in dir(F)
act = nn.SiLU if _has_silu else nn.ReLU
p_silu = torch.zeros(int(_has_silu) + int(_has_mish))  # -> [2]
p_act = act()(torch.randn(2, 3))  # -> [2, 3]
p_nn = torch.zeros(int("Linear" in dir(nn)))  # -> [1]
p_absent = torch.zeros(int("not_in_torch_at_all" in dir(F)))  # -> ?
