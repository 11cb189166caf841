"""Oracle tests for the recurrent, attention and resampling/padding/distance models."""

from __future__ import annotations

import pytest

from tests.oracle.harness import check_against_torch

CASES = [
    # RNN / LSTM / GRU
    ("m = nn.LSTM(10, 20, 2)\nx = torch.randn(5, 3, 10)\n", "m(x)"),
    ("m = nn.LSTM(10, 20, 2)\nx = torch.randn(5, 3, 12)\n", "m(x)"),
    ("m = nn.LSTM(10, 20, batch_first=True, bidirectional=True)\nx = torch.randn(3, 5, 10)\n", "m(x)[1][0]"),
    ("m = nn.LSTM(10, 20, proj_size=5)\nx = torch.randn(7, 10)\n", "m(x)"),
    ("m = nn.LSTM(10, 20, 2)\nx = torch.randn(5, 3, 10)\nh = torch.zeros(2, 3, 20)\n", "m(x, (h, h))"),
    ("m = nn.LSTM(10, 20, 2)\nx = torch.randn(5, 3, 10)\nh = torch.zeros(1, 3, 20)\n", "m(x, (h, h))"),
    ("m = nn.LSTM(10, 20, 1, proj_size=5)\nx = torch.randn(5, 3, 10)\nh = torch.zeros(1, 3, 20)\n", "m(x, (h, h))"),
    ("m = nn.GRU(8, 16, bidirectional=True)\nx = torch.randn(4, 2, 8)\n", "m(x)"),
    ("m = nn.GRU(8, 16, bidirectional=True)\nx = torch.randn(4, 2, 8)\n", "m(x)[1]"),
    ("m = nn.GRU(8, 16, batch_first=True)\nx = torch.randn(4, 2, 8)\nh = torch.zeros(1, 2, 16)\n", "m(x, h)"),
    ("m = nn.GRU(8, 16, batch_first=True)\nx = torch.randn(4, 2, 8)\nh = torch.zeros(1, 4, 16)\n", "m(x, h)"),
    ("m = nn.RNN(8, 16, 3)\nx = torch.randn(4, 2, 8)\n", "m(x)[1]"),
    ("m = nn.RNN(8, 16)\nx = torch.randn(4, 2, 3, 8)\n", "m(x)"),
    # cells
    ("m = nn.LSTMCell(10, 20)\nx = torch.randn(3, 10)\n", "m(x)"),
    ("m = nn.GRUCell(10, 20)\nx = torch.randn(3, 11)\n", "m(x)"),
    ("m = nn.RNNCell(10, 20)\nx = torch.randn(3, 10)\nh = torch.zeros(4, 20)\n", "m(x, h)"),
    # packing
    (("x = torch.randn(3, 5, 4)\nm = nn.GRU(4, 6, batch_first=True)\n"
     "p = nn.utils.rnn.pack_padded_sequence(x, torch.tensor([5, 3, 2]), batch_first=True)\n"), "m(p)[1]"),
    (("x = torch.randn(3, 5, 4)\nm = nn.GRU(6, 6, batch_first=True)\n"
     "p = nn.utils.rnn.pack_padded_sequence(x, torch.tensor([5, 3, 2]), batch_first=True)\n"), "m(p)"),
    ("a = torch.randn(5, 4)\nb = torch.randn(3, 4)\n", "nn.utils.rnn.pad_sequence([a, b], batch_first=True)"),
    ("a = torch.randn(5, 4)\nb = torch.randn(3, 2)\n", "nn.utils.rnn.pad_sequence([a, b])"),
    # MultiheadAttention
    ("m = nn.MultiheadAttention(16, 4)\nq = torch.randn(5, 2, 16)\nk = torch.randn(7, 2, 16)\n", "m(q, k, k)"),
    ("m = nn.MultiheadAttention(16, 4)\nq = torch.randn(5, 2, 16)\nk = torch.randn(7, 2, 16)\n", "m(q, k, k)[1]"),
    ("m = nn.MultiheadAttention(16, 4)\nq = torch.randn(5, 2, 12)\n", "m(q, q, q)"),
    (("m = nn.MultiheadAttention(16, 4, kdim=8, vdim=6, batch_first=True)\nq = torch.randn(2, 5, 16)\n"
     "k = torch.randn(2, 7, 8)\nv = torch.randn(2, 7, 6)\n"), "m(q, k, v)"),
    (("m = nn.MultiheadAttention(16, 4, kdim=8, vdim=6, batch_first=True)\nq = torch.randn(2, 5, 16)\n"
     "k = torch.randn(2, 7, 8)\nv = torch.randn(2, 6, 6)\n"), "m(q, k, v)"),
    (("m = nn.MultiheadAttention(16, 4, batch_first=True)\nq = torch.randn(2, 5, 16)\n"
     "mask = torch.zeros(2, 5, dtype=torch.bool)\n"), "m(q, q, q, key_padding_mask=mask)"),
    (("m = nn.MultiheadAttention(16, 4, batch_first=True)\nq = torch.randn(2, 5, 16)\n"
     "mask = torch.zeros(5, 2, dtype=torch.bool)\n"), "m(q, q, q, key_padding_mask=mask)"),
    ("m = nn.MultiheadAttention(16, 4)\nq = torch.randn(5, 2, 16)\nmask = torch.zeros(5, 5)\n", "m(q, q, q, attn_mask=mask)"),
    ("m = nn.MultiheadAttention(16, 4)\nq = torch.randn(5, 2, 16)\nmask = torch.zeros(8, 5, 5)\n", "m(q, q, q, attn_mask=mask)"),
    ("m = nn.MultiheadAttention(16, 4)\nq = torch.randn(5, 2, 16)\nmask = torch.zeros(2, 5, 5)\n", "m(q, q, q, attn_mask=mask)"),
    ("q = torch.randn(5, 2, 16)\n", "nn.MultiheadAttention(18, 4)(q, q, q)"),
    # Transformer
    ("l = nn.TransformerEncoderLayer(16, 4, 32)\nm = nn.TransformerEncoder(l, 2)\nx = torch.randn(5, 2, 16)\n", "m(x)"),
    (("l = nn.TransformerEncoderLayer(16, 4, 32, batch_first=True)\nm = nn.TransformerEncoder(l, 2)\n"
     "x = torch.randn(2, 5, 16)\nk = torch.zeros(2, 5, dtype=torch.bool)\n"), "m(x, src_key_padding_mask=k)"),
    (("l = nn.TransformerEncoderLayer(16, 4, 32, batch_first=True)\nm = nn.TransformerEncoder(l, 2)\n"
     "x = torch.randn(2, 5, 16)\nk = torch.zeros(5, 2, dtype=torch.bool)\n"), "m(x, src_key_padding_mask=k)"),
    ("l = nn.TransformerEncoderLayer(16, 4, 32)\nx = torch.randn(5, 2, 20)\n", "l(x)"),
    (("l = nn.TransformerDecoderLayer(16, 4, 32)\nm = nn.TransformerDecoder(l, 2)\nt = torch.randn(5, 2, 16)\n"
     "mem = torch.randn(7, 2, 16)\n"), "m(t, mem)"),
    ("l = nn.TransformerDecoderLayer(16, 4, 32)\nt = torch.randn(5, 2, 16)\nmem = torch.randn(7, 3, 16)\n", "l(t, mem)"),
    # scaled_dot_product_attention
    ("q = torch.randn(2, 4, 5, 8)\nk = torch.randn(2, 4, 7, 8)\nv = torch.randn(2, 4, 7, 6)\n",
     "F.scaled_dot_product_attention(q, k, v)"),
    ("q = torch.randn(2, 4, 5, 8)\nk = torch.randn(2, 4, 7, 9)\nv = torch.randn(2, 4, 7, 6)\n",
     "F.scaled_dot_product_attention(q, k, v)"),
    ("q = torch.randn(2, 4, 5, 8)\nk = torch.randn(2, 4, 7, 8)\nv = torch.randn(2, 4, 6, 6)\n",
     "F.scaled_dot_product_attention(q, k, v)"),
    ("q = torch.randn(2, 4, 5, 8)\nk = torch.randn(2, 4, 7, 8)\nv = torch.randn(2, 4, 7, 6)\nm = torch.ones(5, 6).bool()\n",
     "F.scaled_dot_product_attention(q, k, v, attn_mask=m)"),
    # grouped-query attention: key/value heads repeated up to the query's, which they must divide
    ("q = torch.randn(2, 4, 8, 16)\nk = torch.randn(2, 2, 8, 16)\nv = torch.randn(2, 2, 8, 32)\n",
     "F.scaled_dot_product_attention(q, k, v, enable_gqa=True)"),
    ("q = torch.randn(2, 4, 8, 16)\nk = torch.randn(2, 2, 8, 16)\nv = torch.randn(2, 1, 8, 32)\nm = torch.zeros(8, 8)\n",
     "F.scaled_dot_product_attention(q, k, v, attn_mask=m, enable_gqa=True)"),
    ("q = torch.randn(4, 8, 16)\nk = torch.randn(2, 8, 16)\n", "F.scaled_dot_product_attention(q, k, k, enable_gqa=True)"),
    ("q = torch.randn(2, 4, 8, 16)\nk = torch.randn(2, 3, 8, 16)\n", "F.scaled_dot_product_attention(q, k, k, enable_gqa=True)"),
    ("q = torch.randn(2, 4, 8, 16)\nk = torch.randn(2, 2, 8, 12)\n", "F.scaled_dot_product_attention(q, k, k, enable_gqa=True)"),
    ("q = torch.randn(2, 4, 8, 16)\nk = torch.randn(2, 2, 8, 16)\n", "F.scaled_dot_product_attention(q, k, k)"),
    # interpolate / Upsample / PixelShuffle
    ("x = torch.randn(1, 3, 8, 9)\n", "F.interpolate(x, scale_factor=2)"),
    ("x = torch.randn(1, 3, 8, 9)\n", "F.interpolate(x, scale_factor=1.5, mode='bilinear')"),
    ("x = torch.randn(1, 3, 8, 9)\n", "F.interpolate(x, size=(4, 5))"),
    ("x = torch.randn(1, 3, 8, 9)\n", "F.interpolate(x, size=(4, 5, 6))"),
    ("x = torch.randn(1, 3, 8, 9)\n", "F.interpolate(x)"),
    ("u = nn.Upsample(scale_factor=2, mode='nearest')\nx = torch.randn(2, 3, 10)\n", "u(x)"),
    ("p = nn.PixelShuffle(3)\nx = torch.randn(1, 18, 4, 5)\n", "p(x)"),
    ("p = nn.PixelShuffle(3)\nx = torch.randn(1, 12, 4, 5)\n", "p(x)"),
    ("p = nn.PixelUnshuffle(2)\nx = torch.randn(1, 3, 4, 6)\n", "p(x)"),
    ("p = nn.PixelUnshuffle(2)\nx = torch.randn(1, 3, 4, 5)\n", "p(x)"),
    # padding
    ("x = torch.randn(1, 2, 3, 4)\n", "F.pad(x, (1, 2))"),
    ("x = torch.randn(1, 2, 3, 4)\n", "F.pad(x, (1, 2, 3, 4, 5, 6))"),
    ("x = torch.randn(1, 2, 3, 4)\n", "F.pad(x, (1, 2, 3))"),
    ("x = torch.randn(1, 2, 3, 4)\n", "F.pad(x, (-3, -2))"),
    ("p = nn.ReflectionPad2d(2)\nx = torch.randn(1, 2, 3, 4)\n", "p(x)"),
    ("p = nn.ReflectionPad2d(3)\nx = torch.randn(1, 2, 3, 4)\n", "p(x)"),
    ("p = nn.ZeroPad2d((1, 0, 2, 0))\nx = torch.randn(1, 2, 3, 4)\n", "p(x)"),
    ("p = nn.ReplicationPad1d(2)\nx = torch.randn(2, 3, 4)\n", "p(x)"),
    ("p = nn.ConstantPad3d(1, 3.5)\nx = torch.randn(1, 2, 3, 4, 5)\n", "p(x)"),
    # distances
    ("a = torch.randn(3, 4)\nb = torch.randn(1, 4)\n", "F.cosine_similarity(a, b)"),
    ("a = torch.randn(3, 4)\nb = torch.randn(2, 4)\n", "F.cosine_similarity(a, b)"),
    ("c = nn.CosineSimilarity(dim=0)\na = torch.randn(4, 5)\nb = torch.randn(4, 5)\n", "c(a, b)"),
    ("d = nn.PairwiseDistance(keepdim=True)\na = torch.randn(3, 4)\nb = torch.randn(3, 4)\n", "d(a, b)"),
    ("a = torch.randn(2, 3, 4)\nb = torch.randn(3, 4)\n", "F.pairwise_distance(a, b)"),
    ("a = torch.randn(3, 4)\nb = torch.randn(3, 5)\n", "F.pairwise_distance(a, b)"),
    # EmbeddingBag
    ("e = nn.EmbeddingBag(10, 3)\nx = torch.randint(0, 10, (4, 5))\n", "e(x)"),
    ("e = nn.EmbeddingBag(10, 3)\nx = torch.randint(0, 10, (8,))\no = torch.tensor([0, 3])\n", "e(x, o)"),
    ("e = nn.EmbeddingBag(10, 3)\nx = torch.randint(0, 10, (4, 5))\no = torch.tensor([0, 3])\n", "e(x, o)"),
]


@pytest.mark.parametrize("setup,expr", CASES, ids=[c[1] + f"#{i}" for i, c in enumerate(CASES)])
def test_nn_more_against_torch(setup: str, expr: str) -> None:
    check_against_torch(setup, expr)
