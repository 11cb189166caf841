import torch
from wrapper import Inner, Wrapper
m = Wrapper(transformer=Inner())
print(m(raw_wave=torch.randn(2, 8)).shape)  # an input given, as the project does (audiolm_pytorch.py:2175): runs
print(m(semantic_token_ids=torch.zeros(2, 3, dtype=torch.long), coarse_token_ids=torch.zeros(2, 8, dtype=torch.long)).shape)
try:
    Wrapper()
except TypeError as e:
    print("built with defaults: CPython raises", e)
