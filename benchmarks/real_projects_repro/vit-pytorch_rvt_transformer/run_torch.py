"""vit-pytorch 1.26.11's rvt `Transformer` (vit_pytorch/rvt.py:122, `Attention.forward`'s `self.norm(x)`) under torch:
library mode warned (PT002, sweep of stop 42 at main 2911f24) that it "works only when its constructor arguments
coincide, whatever the input: image_size == dim". The module is built with an `image_size` (its rotary embedding's
`max_freq`), so library mode fed it images `[N, image_size, image_size]`; it takes tokens `[b, 1 + h * w, dim]`
(RvT passes the patch embeddings and a CLS token). Loaded from the sweep's cache (PYTEA_REAL_CACHE, default
/work/sweep-cache); needs einops. It runs for image sizes other than dim: a false alarm."""
import importlib.util
import os

import torch

PATH = os.path.join(os.environ.get("PYTEA_REAL_CACHE", "/work/sweep-cache"), "src", "vit-pytorch-1.26.11", "vit_pytorch",
                    "rvt.py")
spec = importlib.util.spec_from_file_location("rvt", PATH)  # the file alone: the package's __init__ needs torchvision
rvt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rvt)
RvT, Transformer = rvt.RvT, rvt.Transformer

with torch.no_grad():
    for dim, image_size in ((16, 8), (32, 16), (16, 32)):
        h = w = 4
        t = Transformer(dim, depth=1, heads=2, dim_head=8, mlp_dim=32, image_size=image_size)
        x = torch.randn(2, 1 + h * w, dim)
        print(f"Transformer(dim={dim}, image_size={image_size}) x {list(x.shape)} ->",
              list(t(x, fmap_dims={"h": h, "w": w}).shape))
    v = RvT(image_size=32, patch_size=8, num_classes=10, dim=16, depth=1, heads=2, mlp_dim=32, dim_head=8)
    print("RvT(image_size=32, dim=16) img [2, 3, 32, 32] ->", list(v(torch.randn(2, 3, 32, 32)).shape))
