"""Repairs at the operands of the failing operation and before it on its path (issue 34): each proven by
re-analysing the edited program; and an edit after which the program raises proves nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytea_ci.diagnostics import Diagnostic, Edit, Fix, Span
from pytea_ci.driver.check import check
from pytea_ci.driver.project import CheckRequest, options
from pytea_ci.fixes.candidates import candidates
from pytea_ci.fixes.prove import Prover
from pytea_ci.fixes.source import Candidate, Sources, replace
from tests.fixes.test_repairs import _findings

PROGRAMS = {
    # (program, title, the fixed text)
    "broadcast_trailing_dim": (
        "x = torch.randn(16, 8)\ndeg = torch.rand(16) + 1\ny = x / deg\n",
        "deg -> deg[..., None]", "y = x / deg[..., None]"),
    "table_sliced_to_tokens": (
        "class P(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.pos = nn.Parameter(torch.zeros(1, 50, 8))\n"
        "    def forward(self, x):\n        return x + self.pos\n"
        "y = P()(torch.randn(2, 10, 8))\n",
        "self.pos -> self.pos[..., :x.size(-2), :]", "return x + self.pos[..., :x.size(-2), :]"),
    "table_missing_batch_dim": (
        "table = torch.randn(200, 8)\nx = torch.randn(4, 10, 8)\ny = x + table[:, :10].clone()\n",
        "table -> table.unsqueeze(0)", "y = x + table.unsqueeze(0)[:, :10].clone()"),
    "cat_rank": (
        "f = torch.randn(4, 8)\ne = torch.randn(4, 5, 8)\nz = torch.cat((f, e), dim=1)\n",
        "f -> f.unsqueeze(1)", "torch.cat((f.unsqueeze(1), e), dim=1)"),
    "view_not_contiguous": (
        "w = torch.randn(5, 7)\nv = w.t().view(-1)\n", "w.t().view -> w.t().reshape", "v = w.t().reshape(-1)"),
    "view_head_size": (
        "x = torch.randn(2, 3, 64)\nq = x.view(2, 3, 4, 64)\n", "64 -> -1", "x.view(2, 3, 4, -1)"),
    "zero_dim_index": ("loss = torch.randn(4).mean()\nv = loss.data[0]\n", "[0] -> .item()", "v = loss.data.item()"),
    "pairs_by_rows": (  # a number of rows the analyzer does not know: the finding says rows are unpacked
        "edges = torch.randint(0, 5, (int(torch.randint(3, 9, ()).item()), 2))\nsrc, dst = edges\n",
        "edges -> edges.t()", "src, dst = edges.t()"),
    "loss_class_dim": (
        "out = torch.randn(4, 6, 10)\ny = torch.randint(0, 10, (4, 6))\nloss = nn.CrossEntropyLoss()(out, y)\n",
        "out -> out.transpose(1, 2)", "(out.transpose(1, 2), y)"),
    "loss_rows_picked": (
        "out = torch.randn(40, 3).log_softmax(1)\ny = torch.randint(0, 3, (40,))\nidx = torch.arange(10)\n"
        "loss = nn.functional.nll_loss(out[idx], y)\n", "y -> y[idx]", "(out[idx], y[idx])"),
    "dim_before_the_layer": (
        "a = torch.randn(4, 8)\nb = torch.randn(4, 8)\nhead = nn.Linear(16, 1)\n"
        "f = torch.cat([a, b], dim=0)\ny = head(f)\n", "dim 0 -> 1", "torch.cat([a, b], dim=1)"),
    "transpose_undone": (
        "att = nn.MultiheadAttention(8, 2, batch_first=True)\nx = torch.randn(4, 6, 8)\n"
        "mask = (torch.randn(4, 6) > 0).t()\ny, _ = att(x, x, x, key_padding_mask=mask)\n",
        "(torch.randn(4, 6) > 0).t() -> torch.randn(4, 6) > 0", "mask = torch.randn(4, 6) > 0\n"),
    "computed_width": (
        "n, m = 10, 4\nwidth = n + m\nfc = nn.Linear(width, 2)\ny = fc(torch.randn(3, 22))\n",
        "in_features n + m -> 22", "width = 22"),
    "carried_width": (
        "layers = []\nin_ch = 3\nfor out_ch in [8, 16]:\n    layers.append(nn.Conv2d(in_ch, out_ch, 3, padding=1))\n"
        "net = nn.Sequential(*layers)\ny = net(torch.randn(2, 3, 8, 8))\n",
        "in_ch = out_ch after the layer", "padding=1))\n    in_ch = out_ch\n"),
    "one_based_indices": (
        "p = torch.randn(8, 10).softmax(1)\ny = torch.randint(1, 11, (8,))\nq = p.gather(1, y.unsqueeze(1))\n",
        "y.unsqueeze(1) -> y.unsqueeze(1) - 1", "p.gather(1, y.unsqueeze(1) - 1)"),
    "carried_width_from_a_default": (
        "class Net(nn.Module):\n    def __init__(self, widths, in_channels=3):\n        super().__init__()\n"
        "        in_ch = in_channels\n        for i, w in enumerate(widths):\n"
        "            setattr(self, f'layer{i}', nn.Conv2d(in_ch, w, 3, padding=1))\n"
        "        self.n = len(widths)\n    def forward(self, x):\n        for i in range(self.n):\n"
        "            x = getattr(self, f'layer{i}')(x)\n        return x\n"
        "y = Net([8, 16])(torch.randn(2, 3, 8, 8))\n",
        "in_ch = w after the layer", "padding=1))\n            in_ch = w\n"),
    "keepdim_dropped": (
        "adj = torch.rand(6, 6)\ndeg = adj.sum(1, keepdim=True)\nd = torch.diag(deg)\ny = d @ adj\n",
        "keepdim=True -> False", "adj.sum(1, keepdim=False)"),
    "permutation_inverted": (
        "conv = nn.Conv2d(3, 4, 3)\nimg = torch.rand(8, 12, 3)\nx = img.permute(1, 2, 0).unsqueeze(0)\n"
        "y = conv(x)\n", "permute(1, 2, 0) -> permute(2, 0, 1)", "img.permute(2, 0, 1).unsqueeze(0)"),
    "bidirectional_off": (
        "enc = nn.GRU(8, 16, batch_first=True, bidirectional=True)\ndec = nn.GRU(8, 16, batch_first=True)\n"
        "_, h = enc(torch.randn(4, 5, 8))\nout, _ = dec(torch.randn(4, 3, 8), h)\n",
        "bidirectional=True -> False", "bidirectional=False)"),
    "dim_in_the_method_called_before": (
        "class VAE(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.enc = nn.Linear(10, 8)\n        self.dec = nn.Linear(4, 10)\n"
        "    def encode(self, x):\n        mu, logvar = torch.chunk(self.enc(x), 2, dim=0)\n        return mu\n"
        "    def forward(self, x):\n        z = self.encode(x)\n        return self.dec(z)\n"
        "y = VAE()(torch.randn(6, 10))\n", "dim 0 -> 1", "torch.chunk(self.enc(x), 2, dim=1)"),
    "embedding_rows_for_the_ids": (
        "emb = nn.Embedding(50, 8)\nids = torch.randint(0, 51, (4, 7))\nh = emb(ids)\n",
        "indexed size 50 -> 51", "nn.Embedding(51, 8)"),
}


def _proven(tmp_path: Path, source: str, title: str) -> tuple[Fix | None, str]:
    """The candidate titled `title` of the program's first finding, proven (or not) by re-analysis; and the
    text of its file with the edit applied. In these small programs a literal is often also a valid repair
    (and is tried first), so the candidate is proven on its own."""
    (d, *_), root = _findings(tmp_path, source)
    src = Sources(root)
    (c,) = [c for c in candidates(d, src) if c.title == title]
    path = os.path.join(root, "main.py")
    req = CheckRequest(paths=[path], root=root, no_cache=True, overrides={"library_mode": "never"})
    out = check(req)
    e = next(e for e in out.result.entries if "::" not in e.entry)
    fix = Prover(options(out.config, root, [path], req), root, {}).prove(c, d, e)
    return fix, replace(src.text(c.edit.span.path) or "", c.edit.span, c.edit.text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_more_findings_get_a_proven_fix(name: str, tmp_path: Path) -> None:
    source, title, fixed = PROGRAMS[name]
    fix, text = _proven(tmp_path, source, title)
    assert fix is not None and fixed in text


def test_batch_first_is_added_to_torchs_layer_only(tmp_path: Path) -> None:
    """A GRU without batch_first reads [B, T, E] as [T, B, E]: adding it is proven. A project class that shares
    the name takes no such argument: the edited program raises a TypeError, which proves nothing."""
    gru = ("rnn = nn.GRU(8, 16)\nx = torch.randn(4, 7, 8)\n_, h = rnn(x)\n"
           "loss = nn.CrossEntropyLoss()(nn.Linear(16, 3)(h[-1]), torch.randint(0, 3, (4,)))\n")
    fix, text = _proven(tmp_path, gru, "GRU(..., batch_first=True)")
    assert fix is not None and "nn.GRU(8, 16, batch_first=True)" in text
    own = ("class GRU(nn.Module):\n    def __init__(self, a, b):\n        super().__init__()\n"
           "        self.fc = nn.Linear(a, b)\n    def forward(self, x):\n        return self.fc(x)\n"
           "rnn = GRU(8, 16)\ny = rnn(torch.randn(4, 7, 10))\n")
    (d, *_), root = _findings(tmp_path, own)
    assert not [c for c in candidates(d, Sources(root)) if "batch_first" in c.title]


def test_an_edit_after_which_the_program_raises_proves_nothing(tmp_path: Path) -> None:
    """`Model(..., batch_first=True)` on a class without that parameter: the finding is gone only because
    the TypeError ends the path before it."""
    source = ("class Model(nn.Module):\n    def __init__(self, a):\n        super().__init__()\n"
              "        self.fc = nn.Linear(a, 2)\n    def forward(self, x):\n        return self.fc(x)\n"
              "m = Model(8)\ny = m(torch.randn(4, 10))\n")
    (d, *_), root = _findings(tmp_path, source)
    edit = Edit(Span("main.py", 11, 11, 11, 11), ", batch_first=True")
    path = os.path.join(root, "main.py")
    req = CheckRequest(paths=[path], root=root, no_cache=True, overrides={"library_mode": "never"})
    out = check(req)
    e = next(e for e in out.result.entries if "::" not in e.entry)
    prover = Prover(options(out.config, root, [path], req), root, {})
    assert "Model(8, batch_first=True)" in replace(Sources(root).text("main.py") or "", edit.span, edit.text)
    assert prover.prove(Candidate("batch_first", edit, False), d, e) is None


def test_a_finding_gone_because_its_line_is_not_understood_proves_nothing() -> None:
    """A value not understood born on the finding's own line or above it (a `split` into sizes the analyzer
    cannot count, a `while` loop's count of unknown kind, after an edit elsewhere) leaves the finding's
    check undone: no proof. One born further on is the repaired program running on."""
    from pytea_ci.diagnostics import Severity
    from pytea_ci.diagnostics.result import EntryResult
    from pytea_ci.fixes.prove import _less_understood

    d = Diagnostic("PT001", Severity.ERROR, Span("prog.py", 36, 0, 36, 20), "unpack")
    edit = Edit(Span("prog.py", 33, 20, 33, 21), "0")

    def run_with(line: int) -> EntryResult:
        e = EntryResult("prog.py")
        e.stats.unknown_origins = [{"location": ["prog.py", line, 10], "what": "torch.split: symbolic sizes", "ops": 1}]
        return e
    assert _less_understood(run_with(36), EntryResult("prog.py"), edit, d)
    assert _less_understood(run_with(32), EntryResult("prog.py"), edit, d)  # above it: a `while` count, say
    assert not _less_understood(run_with(40), EntryResult("prog.py"), edit, d)
    assert not _less_understood(run_with(32), run_with(32), edit, d)  # the original had it too
