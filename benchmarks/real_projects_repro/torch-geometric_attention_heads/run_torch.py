"""torch-geometric 2.8.1's PerformerAttention (performer.py:164) and PolynormerAttention (polynormer.py:68) under
torch, with heads of 1, 2 and 4: library mode warned (PT002) that each "works only when a constructor size is 1,
whatever the input: heads == 1". Both files import only torch and typing, so each is loaded on its own from the
sweep's cache (PYTEA_REAL_CACHE, default /work/sweep-cache). A node-feature input of rank 3 ([B, N, F], as the
docstrings say) runs for every heads; a rank-2 input fails for every heads (its reshape takes x.shape[1] as N):
the warning is a false alarm (a rank library mode tried that the module does not take)."""
import os
import types

import torch

SRC = os.path.join(os.environ.get("PYTEA_REAL_CACHE", "/work/sweep-cache"), "src", "torch-geometric-2.8.1",
                   "torch_geometric", "nn", "attention")


def load(name: str) -> types.ModuleType:
    mod = types.ModuleType(name)
    path = os.path.join(SRC, name + ".py")
    exec(compile(open(path).read(), path, "exec"), mod.__dict__)
    return mod


for name, cls in (("performer", "PerformerAttention"), ("polynormer", "PolynormerAttention")):
    for heads in (1, 2, 4):
        module = getattr(load(name), cls)(channels=8, heads=heads)
        print(cls, "heads", heads, "x [2, 5, 8] ->", tuple(module(torch.randn(2, 5, 8)).shape))
        try:
            module(torch.randn(5, 8))
            print("  x [5, 8]: runs")
        except RuntimeError as e:
            print("  x [5, 8]: RuntimeError", str(e)[:70])
