"""mmsegmentation 1.2.2 `mmseg/models/decode_heads/knet_head.py:111` (PT001 Linear, library mode:
"KernelUpdator built with defaults; fails for every input update_feature: [N, D], input_feature: [N2, D2]").

torch runs mmseg's own KernelUpdator (its class definition read from the sweep's cache); mmcv's
`build_norm_layer`/`build_activation_layer` and mmseg's registry are stand-ins (LN -> nn.LayerNorm,
ReLU -> nn.ReLU, the decorator returns the class), the only names the class uses from them.

Verdict: a bug in the defaults. With `in_channels=256, feat_channels=64` (the signature's defaults),
`input_layer = nn.Linear(in_channels, 2 * feat_channels)` is fed `input_feature.reshape(N, -1,
feat_channels)`, whose last dimension is feat_channels: torch raises at line 111 for every input. The
project's configs always pass `in_channels == feat_channels` (configs/knet/*: 256 and 256), where it runs."""

import sys
import traceback

import torch
from torch import nn

sys.path.insert(0, __file__.rsplit("/", 2)[0])
from _load import definitions  # noqa: E402


class _Registry:
    def register_module(self):
        return lambda cls: cls


def build_norm_layer(cfg, channels):
    assert cfg["type"] == "LN"
    return "ln", nn.LayerNorm(channels)


def build_activation_layer(cfg):
    assert cfg["type"] == "ReLU"
    return nn.ReLU(inplace=cfg.get("inplace", False))


scope = definitions("mmsegmentation-1.2.2", "mmseg/models/decode_heads/knet_head.py", ["KernelUpdator"],
                    {"torch": torch, "nn": nn, "MODELS": _Registry(), "build_norm_layer": build_norm_layer,
                     "build_activation_layer": build_activation_layer})
KernelUpdator = scope["KernelUpdator"]

num_classes, k = 150, 1  # an ADE20K head: 150 classes, conv_kernel_size 1
for n, c in ((num_classes, 256), (4, 256), (4, 64)):  # the input feature's channels: in_channels or feat_channels
    try:
        KernelUpdator()(torch.randn(n, 256), torch.randn(n, k * k, c))
        print(f"defaults, input_feature {n}x{k * k}x{c}: runs")
    except RuntimeError as e:
        line = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename.endswith("knet_head.py")][-1]
        print(f"defaults, input_feature {n}x{k * k}x{c}: RuntimeError at knet_head.py:{line}: {e}")
out = KernelUpdator(in_channels=256, feat_channels=256, out_channels=256)(
    torch.randn(num_classes, 256), torch.randn(num_classes, k * k, 256))
print("as the configs build it (256, 256, 256):", tuple(out.shape))
