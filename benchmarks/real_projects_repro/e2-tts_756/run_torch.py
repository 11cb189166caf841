"""e2-tts-pytorch 2.2.2 `e2_tts.py:756` (PT004, library mode: Transformer built with symbolic dim, called
with x only). The assert is `assert not (exists(times) ^ self.cond_on_time)`: it validates that the caller
passes `times` when the model is time-conditioned (the default), and reads no shape. Every caller in the
project passes times (E2TTS.forward/sample). The reduction below keeps the forward's argument checks;
the project's own Transformer needs x_transformers, torchdiffeq, vocos, ... (not installed here)."""
import torch
from torch import nn


def exists(v):
    return v is not None


def xnor(x, y):
    return not (x ^ y)


class Transformer(nn.Module):  # the argument checks of e2_tts.Transformer.forward (lines 740-756)
    def __init__(self, dim, has_freq_axis=False, cond_on_time=True):
        super().__init__()
        self.has_freq_axis, self.cond_on_time = has_freq_axis, cond_on_time
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, times=None):
        assert xnor(x.ndim == 4, self.has_freq_axis)
        assert not (exists(times) ^ self.cond_on_time), "`times` must be passed in if `cond_on_time` is set"
        return self.proj(x) * times[:, None, None]


m = Transformer(32)
print(tuple(m(torch.randn(2, 10, 32), times=torch.rand(2)).shape))  # as E2TTS calls it: runs
try:
    m(torch.randn(2, 10, 32))
except AssertionError as e:
    print("without times (library mode's call): the program's own argument check:", e)
print("false alarm: no shape error; the assert validates the caller's arguments")
