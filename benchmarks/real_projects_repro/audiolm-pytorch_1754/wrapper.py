"""audiolm_pytorch/audiolm_pytorch.py:1569-1756 (CoarseTransformerWrapper), reduced: a required
keyword-only constructor argument (another module), and every forward input keyword-only with default
None; the first assert of forward validates which inputs were given (no tensor in it)."""
import torch
from torch import nn


def exists(v):
    return v is not None


def default(v, d):
    return v if exists(v) else d


class Inner(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.num_coarse_quantizers = 3

    def forward(self, x):
        return self.proj(x)


class Wrapper(nn.Module):
    def __init__(self, *, transformer: Inner, codec=None, pad_id=-1):
        super().__init__()
        self.transformer = transformer
        self.codec = codec
        self.pad_id = pad_id

    def forward(self, *, semantic_token_ids=None, raw_wave=None, raw_wave_for_codec=None, coarse_token_ids=None,
                return_loss=False, **kwargs):
        assert exists(raw_wave) or exists(semantic_token_ids), 'either raw waveform or semantic token ids'
        raw_wave_for_codec = default(raw_wave_for_codec, raw_wave)
        assert exists(raw_wave_for_codec) or exists(coarse_token_ids), 'either raw waveform or coarse token ids'
        x = raw_wave if exists(raw_wave) else coarse_token_ids.float()
        return self.transformer(x)
