"""Oracle tests for the breadth models: sliding blocks, sampling, bilinear, GLU, functional norms,
diff, nn.init, the pair/triplet/sequence losses, einops, and torchvision.models (recorded outcomes)."""

from __future__ import annotations

import pytest

from tests.oracle.harness import analyze_case, check_against_torch

CASES = [
    # unfold / fold
    ("x = torch.randn(2, 3, 8, 8)\n", "F.unfold(x, 3)"),
    ("x = torch.randn(2, 3, 8, 9)\n", "F.unfold(x, (2, 3), stride=2, padding=1)"),
    ("x = torch.randn(3, 8, 9)\n", "nn.Unfold(3, dilation=2)(x)"),
    ("x = torch.randn(2, 3, 2, 2)\n", "F.unfold(x, 3)"),
    ("x = torch.randn(2, 3, 8)\n", "F.unfold(x, 3)"),
    ("x = torch.randn(2, 27, 36)\n", "F.fold(x, (8, 8), 3)"),
    ("x = torch.randn(2, 27, 30)\n", "F.fold(x, (8, 8), 3)"),
    ("x = torch.randn(2, 26, 36)\n", "F.fold(x, (8, 8), 3)"),
    ("x = torch.randn(12, 20)\n", "nn.Fold((5, 6), 2, stride=1)(x)"),
    # grid_sample / affine_grid
    ("x = torch.randn(2, 3, 8, 8)\ng = torch.randn(2, 5, 6, 2)\n", "F.grid_sample(x, g, align_corners=False)"),
    ("x = torch.randn(2, 3, 8, 8)\ng = torch.randn(3, 5, 6, 2)\n", "F.grid_sample(x, g, align_corners=False)"),
    ("x = torch.randn(2, 3, 8, 8)\ng = torch.randn(2, 5, 6, 3)\n", "F.grid_sample(x, g, align_corners=False)"),
    ("x = torch.randn(2, 3, 4, 8, 8)\ng = torch.randn(2, 5, 6, 7, 3)\n", "F.grid_sample(x, g, align_corners=False)"),
    ("t = torch.randn(2, 2, 3)\n", "F.affine_grid(t, [2, 3, 7, 9], align_corners=False)"),
    ("t = torch.randn(2, 2, 3)\n", "F.affine_grid(t, [3, 3, 7, 9], align_corners=False)"),
    ("t = torch.randn(2, 3, 4)\n", "F.affine_grid(t, [2, 3, 5, 7, 9], align_corners=False)"),
    ("t = torch.randn(2, 2, 3)\n", "F.affine_grid(t, [2, 3, 5, 7, 9], align_corners=False)"),
    # bilinear
    ("m = nn.Bilinear(4, 5, 6)\na = torch.randn(3, 4)\nb = torch.randn(3, 5)\n", "m(a, b)"),
    ("m = nn.Bilinear(4, 5, 6)\na = torch.randn(3, 4)\nb = torch.randn(3, 4)\n", "m(a, b)"),
    ("m = nn.Bilinear(4, 5, 6)\na = torch.randn(2, 3, 4)\nb = torch.randn(2, 3, 5)\n", "m(a, b)"),
    ("w = torch.randn(6, 4, 5)\na = torch.randn(3, 4)\nb = torch.randn(2, 5)\n", "F.bilinear(a, b, w)"),
    # glu / Softmax2d / ChannelShuffle
    ("x = torch.randn(4, 6)\n", "F.glu(x)"),
    ("x = torch.randn(4, 5)\n", "F.glu(x)"),
    ("x = torch.randn(4, 5)\n", "nn.GLU(0)(x)"),
    ("x = torch.randn(2, 3, 4, 4)\n", "nn.Softmax2d()(x)"),
    ("x = torch.randn(2, 3)\n", "nn.Softmax2d()(x)"),
    ("x = torch.randn(2, 6, 4, 4)\n", "nn.ChannelShuffle(3)(x)"),
    ("x = torch.randn(2, 6, 4, 4)\n", "nn.ChannelShuffle(4)(x)"),
    # functional norms
    ("x = torch.randn(2, 6, 4)\n", "F.group_norm(x, 3)"),
    ("x = torch.randn(2, 6, 4)\n", "F.group_norm(x, 4)"),
    ("x = torch.randn(2, 6, 4)\n", "F.instance_norm(x)"),
    ("x = torch.randn(2, 6, 4)\n", "F.local_response_norm(x, 2)"),
    ("x = torch.randn(2, 6)\n", "F.local_response_norm(x, 2)"),
    # diff
    ("x = torch.randn(3, 5)\n", "torch.diff(x)"),
    ("x = torch.randn(3, 5)\n", "torch.diff(x, n=2, dim=0)"),
    ("x = torch.randn(3, 5)\n", "torch.diff(x, n=7)"),
    ("x = torch.randn(3, 5)\np = torch.randn(2, 5)\n", "torch.diff(x, dim=0, prepend=p)"),
    ("x = torch.randn(3, 5)\np = torch.randn(2, 4)\n", "torch.diff(x, dim=0, prepend=p)"),
    ("x = torch.randn(3, 5)\n", "x.diff(dim=2)"),
    # nn.init
    ("w = torch.empty(3, 5)\n", "nn.init.xavier_uniform_(w)"),
    ("w = torch.empty(5)\n", "nn.init.xavier_uniform_(w)"),
    ("w = torch.empty(8, 3, 3, 3)\n", "nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu')"),
    ("w = torch.empty(3, 5)\n", "nn.init.eye_(w)"),
    ("w = torch.empty(3, 5, 2)\n", "nn.init.eye_(w)"),
    ("w = torch.empty(4, 4, 3)\n", "nn.init.dirac_(w)"),
    ("w = torch.empty(5)\n", "nn.init.normal_(w, 0, 0.02)"),
    ("w = torch.empty(5)\n", "nn.init.orthogonal_(w)"),
    # pair / triplet / margin losses
    ("a = torch.randn(4, 5)\nb = torch.randn(4, 5)\nt = torch.ones(4)\n", "F.cosine_embedding_loss(a, b, t, reduction='none')"),
    ("a = torch.randn(4, 5)\nb = torch.randn(4, 6)\nt = torch.ones(4)\n", "nn.CosineEmbeddingLoss()(a, b, t)"),
    ("a = torch.randn(4, 5)\nb = torch.randn(4, 5)\nt = torch.ones(3)\n", "nn.CosineEmbeddingLoss()(a, b, t)"),
    ("a = torch.randn(4, 5, 2)\nb = torch.randn(4, 5, 2)\nt = torch.ones(4)\n", "nn.CosineEmbeddingLoss()(a, b, t)"),
    ("a = torch.randn(5)\nb = torch.randn(5)\nt = torch.ones(())\n", "F.cosine_embedding_loss(a, b, t, reduction='none')"),
    ("a = torch.randn(4)\nb = torch.randn(1)\nt = torch.ones(4)\n", "F.margin_ranking_loss(a, b, t, reduction='none')"),
    ("a = torch.randn(4, 1)\nb = torch.randn(3)\nt = torch.ones(3)\n", "nn.MarginRankingLoss()(a, b, t)"),
    ("a = torch.randn(4)\nb = torch.randn(3)\nt = torch.ones(4)\n", "nn.MarginRankingLoss()(a, b, t)"),
    ("a = torch.randn(4, 5)\n", "F.triplet_margin_loss(a, a, a, reduction='none')"),
    ("a = torch.randn(4, 5, 3)\n", "nn.TripletMarginLoss(reduction='none')(a, a, a)"),
    ("a = torch.randn(4, 5)\nn = torch.randn(4, 6)\n", "nn.TripletMarginLoss()(a, a, n)"),
    ("a = torch.randn(4, 5)\np = torch.randn(5)\n", "nn.TripletMarginLoss()(a, p, a)"),
    ("a = torch.randn(4, 5)\np = torch.randn(1, 5)\n", "nn.TripletMarginLoss(reduction='none')(a, p, a)"),
    ("x = torch.randn(4, 5)\nt = torch.ones(4, 5)\n", "F.hinge_embedding_loss(x, t, reduction='none')"),
    ("x = torch.randn(4, 5)\nt = torch.ones(4)\n", "nn.HingeEmbeddingLoss()(x, t)"),
    ("x = torch.randn(4, 5)\nt = torch.ones(4).long()\n", "F.multi_margin_loss(x, t, reduction='none')"),
    ("x = torch.randn(4, 5)\nt = torch.ones(3).long()\n", "nn.MultiMarginLoss()(x, t)"),
    ("x = torch.randn(5)\nt = torch.ones((), dtype=torch.long)\n", "nn.MultiMarginLoss()(x, t)"),
    ("x = torch.randn(4, 5, 2)\nt = torch.ones(4, 5, 2)\n", "F.multilabel_soft_margin_loss(x, t, reduction='none')"),
    ("x = torch.randn(4, 5)\nt = torch.ones(3, 5)\n", "nn.MultiLabelSoftMarginLoss()(x, t)"),
    # CTC
    (("lp = torch.randn(50, 16, 20).log_softmax(2)\nt = torch.randint(1, 20, (16, 30))\n"
      "il = torch.full((16,), 50)\ntl = torch.randint(10, 30, (16,))\n"), "F.ctc_loss(lp, t, il, tl, reduction='none')"),
    (("lp = torch.randn(50, 16, 20).log_softmax(2)\nt = torch.randint(1, 20, (16, 30))\n"
      "il = torch.full((15,), 50)\ntl = torch.randint(10, 30, (16,))\n"), "nn.CTCLoss()(lp, t, il, tl)"),
    (("lp = torch.randn(50, 16, 20).log_softmax(2)\nt = torch.randint(1, 20, (16, 30))\n"
      "il = torch.full((16,), 50)\ntl = torch.randint(10, 30, (15,))\n"), "nn.CTCLoss()(lp, t, il, tl)"),
    (("lp = torch.randn(50, 16, 20).log_softmax(2)\nt = torch.randint(1, 20, (15, 30))\n"
      "il = torch.full((16,), 50)\ntl = torch.randint(10, 30, (16,))\n"), "nn.CTCLoss()(lp, t, il, tl)"),
    (("lp = torch.randn(50, 20).log_softmax(1)\nt = torch.randint(1, 20, (30,))\n"
      "il = torch.tensor(50)\ntl = torch.tensor(30)\n"), "F.ctc_loss(lp, t, il, tl, reduction='none')"),
]


@pytest.mark.parametrize("setup,expr", CASES)
def test_against_torch(setup: str, expr: str) -> None:
    check_against_torch(setup, expr)


EINOPS = "import einops\nfrom einops import rearrange, repeat, reduce, pack, unpack\nfrom einops.layers.torch import Rearrange, Reduce\n"

EINOPS_CASES = [
    ("x = torch.randn(2, 3, 8, 8)\n", "rearrange(x, 'b c (h p1) (w p2) -> b (h w) (p1 p2 c)', p1=4, p2=4)"),
    ("x = torch.randn(2, 3, 8, 8)\n", "rearrange(x, 'b c (h p1) (w p2) -> b (h w) (p1 p2 c)', p1=3, p2=4)"),
    ("x = torch.randn(2, 3, 8, 8)\n", "rearrange(x, 'b c h w -> b (c h w)')"),
    ("x = torch.randn(2, 3, 8)\n", "rearrange(x, 'b c h w -> b (c h w)')"),
    ("x = torch.randn(2, 3, 8, 8)\n", "rearrange(x, 'b c h w -> b h w')"),
    ("x = torch.randn(2, 3, 8, 8)\n", "rearrange(x, 'b ... -> b (...)')"),
    ("x = torch.randn(2, 3, 8, 8)\n", "rearrange(x, '... h w -> ... (h w)')"),
    ("x = torch.randn(2, 12, 5)\n", "rearrange(x, 'b (h d) n -> b h n d', h=4)"),
    ("x = torch.randn(2, 12, 5)\n", "rearrange(x, 'b (h d) n -> b h n d', h=5)"),
    ("x = torch.randn(2, 12, 5)\n", "rearrange(x, 'b (h d) n -> b h n d')"),
    ("x = torch.randn(2, 12, 5)\n", "rearrange(x, 'b c n -> b n c', c=11)"),
    ("x = torch.randn(2, 12, 5)\n", "rearrange(x, 'b c n -> b n c 1')"),
    ("x = torch.randn(2, 1, 5)\n", "rearrange(x, 'b 1 n -> b n')"),
    ("x = torch.randn(2, 3, 5)\n", "rearrange(x, 'b 1 n -> b n')"),
    ("x = torch.randn(2, 3, 5)\n", "rearrange(x, 'b c n -> b n c', k=2)"),
    ("xs = [torch.randn(3, 4), torch.randn(3, 4)]\n", "rearrange(xs, 'n h w -> h (n w)')"),
    ("x = torch.randn(3, 4)\n", "repeat(x, 'h w -> h w c', c=5)"),
    ("x = torch.randn(3, 4)\n", "repeat(x, 'h w -> (h 2) (w 3)')"),
    ("x = torch.randn(3, 4)\n", "repeat(x, 'h w -> h w c')"),
    ("x = torch.randn(3, 4)\n", "repeat(x, 'h w -> (r h) w', r=2)"),
    ("x = torch.randn(2, 3, 8, 8)\n", "reduce(x, 'b c h w -> b c', 'mean')"),
    ("x = torch.randn(2, 3, 8, 8)\n", "reduce(x, 'b c (h h2) (w w2) -> b c h w', 'max', h2=2, w2=2)"),
    ("x = torch.randn(2, 3, 7, 8)\n", "reduce(x, 'b c (h h2) (w w2) -> b c h w', 'max', h2=2, w2=2)"),
    ("x = torch.randn(2, 3, 8, 8)\n", "reduce(x, 'b c h w -> b c 1 1', 'mean')"),
    ("x = torch.randn(2, 3, 8, 8)\n", "reduce(x, 'b c h w -> b k', 'mean')"),
    ("x = torch.randn(2, 3, 8, 8)\n", "Rearrange('b c (h p) (w q) -> b (h w) (p q c)', p=2, q=2)(x)"),
    ("x = torch.randn(2, 3, 8, 8)\n", "Rearrange('b c (h p) (w q) -> b (h w) (p q c)', p=3, q=2)(x)"),
    ("x = torch.randn(2, 3, 8, 8)\n", "Reduce('b c h w -> b c', 'mean')(x)"),
    ("a = torch.randn(2, 3, 4)\nb = torch.randn(2, 5, 4)\n", "einops.einsum(a, b, 'b i d, b j d -> b i j')"),
    ("a = torch.randn(2, 3, 4)\nb = torch.randn(2, 5, 6)\n", "einops.einsum(a, b, 'b i d, b j d -> b i j')"),
    ("a = torch.randn(2, 8, 3, 4)\nb = torch.randn(2, 8, 5, 4)\n", "einops.einsum(a, b, '... i d, ... j d -> ... i j')"),
    ("a = torch.randn(2, 8, 3, 4)\nb = torch.randn(2, 7, 5, 4)\n", "einops.einsum(a, b, '... i d, ... j d -> ... i j')"),
    ("a = torch.randn(2, 3, 4)\n", "einops.einsum(a, 'b ... d -> ... d')"),
    ("a = torch.randn(2, 5)\nb = torch.randn(2, 3, 4, 5)\n", "pack([a, b], 'b * c')[0]"),
    ("a = torch.randn(2, 5)\nb = torch.randn(2, 3, 4, 6)\n", "pack([a, b], 'b * c')[0]"),
    ("a = torch.randn(2, 5)\nb = torch.randn(2, 3, 4, 5)\np, ps = pack([a, b], 'b * c')\n", "unpack(p, ps, 'b * c')[1]"),
    ("p = torch.randn(2, 13, 5)\n", "unpack(p, [(), (3, 4)], 'b * c')[1]"),
    ("p = torch.randn(2, 14, 5)\n", "unpack(p, [(), (3, 4)], 'b * c')[1]"),
]


@pytest.mark.parametrize("setup,expr", EINOPS_CASES)
def test_einops_against_real_einops(setup: str, expr: str) -> None:
    pytest.importorskip("einops")
    check_against_torch(EINOPS + setup, expr)


# torchvision.models outcomes recorded with torchvision 0.28 on torch 2.13 (torchvision is not a test
# dependency): (model, N, H, W, training) -> True when the forward pass succeeds with [N, 7] output.
TORCHVISION_RECORDED = {
    (1, 32, 32, True): {"resnet18": False, "resnet50": False, "vgg11": True, "vgg11_bn": True, "alexnet": False,
                        "mobilenet_v2": False},
    (1, 32, 32, False): {"resnet18": True, "resnet50": True, "vgg11": True, "vgg11_bn": True, "alexnet": False,
                         "mobilenet_v2": True},
    (2, 31, 33, True): {"resnet18": True, "resnet50": True, "vgg11": False, "vgg11_bn": False, "alexnet": False,
                        "mobilenet_v2": True},
    (1, 63, 63, True): dict.fromkeys(["resnet18", "resnet50", "vgg11", "vgg11_bn", "alexnet", "mobilenet_v2"], True),
    (2, 16, 16, True): {"resnet18": True, "resnet50": True, "vgg11": False, "vgg11_bn": False, "alexnet": False,
                        "mobilenet_v2": True},
    (1, 1, 1, False): {"resnet18": True, "resnet50": True, "vgg11": False, "vgg11_bn": False, "alexnet": False,
                       "mobilenet_v2": True},
    (3, 8, 8, True): {"resnet18": True, "resnet50": True, "vgg11": False, "vgg11_bn": False, "alexnet": False,
                      "mobilenet_v2": True},
    (1, 33, 40, True): {"resnet18": True, "resnet50": True, "vgg11": True, "vgg11_bn": True, "alexnet": False,
                        "mobilenet_v2": True},
    (1, 100, 3, True): {"resnet18": True, "resnet50": True, "vgg11": False, "vgg11_bn": False, "alexnet": False,
                        "mobilenet_v2": True},
    (2, 64, 64, True): dict.fromkeys(["resnet18", "resnet50", "vgg11", "vgg11_bn", "alexnet", "mobilenet_v2"], True),
}


@pytest.mark.parametrize("size", sorted(TORCHVISION_RECORDED))
@pytest.mark.parametrize("name", ["resnet18", "resnet50", "vgg11", "vgg11_bn", "alexnet", "mobilenet_v2"])
def test_torchvision_models_recorded(name: str, size: tuple[int, int, int, bool]) -> None:
    n, h, w, train = size
    ok = TORCHVISION_RECORDED[size][name]
    setup = (f"import torchvision\nm = torchvision.models.{name}(num_classes=7)\nm.train({train})\n"
             f"x = torch.randn({n}, 3, {h}, {w})\n")
    line, found = analyze_case(setup, "m(x)", (n, 7) if ok else None)
    if ok:
        assert not found, f"{name} accepts {size}, but pytea-ci reported {sorted(found)}"
    else:
        assert found & {(line, "PT001"), (line, "PT003")}, f"{name} rejects {size}, pytea-ci reported {sorted(found)}"


@pytest.mark.parametrize("name", ["resnet18", "vgg11", "alexnet", "mobilenet_v2"])
def test_torchvision_models_live(name: str) -> None:
    """When torchvision is installed, compare with it directly on a fresh size."""
    pytest.importorskip("torchvision")
    check_against_torch(f"import torchvision\nm = torchvision.models.{name}(num_classes=3)\nx = torch.randn(2, 3, 70, 45)\n",
                        "m(x)")
