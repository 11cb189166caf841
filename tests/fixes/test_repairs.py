"""The repairs of the common findings, each proven by re-analysing the edited program, and the candidates
that fail the proof never offered (issue 34 items 1-2)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytea_ci.diagnostics import Diagnostic
from pytea_ci.driver.check import check
from pytea_ci.driver.project import CheckRequest, options
from pytea_ci.fixes import attach
from pytea_ci.fixes.candidates import candidates
from pytea_ci.fixes.prove import Prover
from pytea_ci.fixes.source import Sources

HEAD = "import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader, TensorDataset\n\n"

PROGRAMS = {
    # (program, title, safe, the fixed line)
    "conv_in_channels": (
        "net = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.Conv2d(32, 8, 3), nn.BatchNorm2d(8))\n"
        "y = net(torch.randn(2, 3, 32, 32))\n",
        "in_channels 32 -> 16", True, "nn.Conv2d(16, 8, 3)"),
    "layernorm": (
        "fc = nn.Linear(10, 32)\nln = nn.LayerNorm(30)\ny = ln(fc(torch.randn(4, 7, 10)))\n",
        "normalized_shape 30 -> 32", True, "nn.LayerNorm(32)"),
    "lstm_input_size": (
        "rnn = nn.LSTM(input_size=16, hidden_size=32, batch_first=True)\nout, _ = rnn(torch.randn(4, 7, 12))\n",
        "input_size 16 -> 12", True, "input_size=12"),
    "batch_view": (
        "ds = TensorDataset(torch.randn(1000, 1, 8, 8), torch.randint(0, 10, (1000,)))\n"
        "fc = nn.Linear(64, 10)\n"
        "for x, y in DataLoader(ds, batch_size=64, shuffle=True):\n    out = fc(x.view(64, -1))\n",
        "64 -> x.size(0)", False, "x.view(x.size(0), -1)"),
    "target_squeeze": (
        "y = torch.randint(0, 5, (16, 1))\nloss = nn.CrossEntropyLoss()(torch.randn(16, 5), y)\n",
        "y -> y.squeeze(1)", False, "y.squeeze(1))"),
    "dtype_long": (
        "ids = torch.randint(0, 100, (4, 7)).float()\nh = nn.Embedding(100, 16)(ids)\n",
        "ids -> ids.long()", False, "(ids.long())"),
    "device": (
        "device = torch.device('cuda')\nfc = nn.Linear(20, 5).to(device)\nout = fc(torch.randn(16, 20))\n",
        "torch.randn(16, 20) -> torch.randn(16, 20).to(device)", False, "fc(torch.randn(16, 20).to(device))"),
    "drop_last": (
        "ds = TensorDataset(torch.randn(1000, 10))\nbias = torch.zeros(64, 10)\n"
        "for (x,) in DataLoader(ds, batch_size=64):\n    out = x + bias\n",
        "drop_last=True", False, "DataLoader(ds, batch_size=64, drop_last=True)"),
}


def _findings(tmp_path: Path, source: str) -> tuple[list[Diagnostic], str]:
    path = tmp_path / "main.py"
    path.write_text(HEAD + source)
    req = CheckRequest(paths=[str(path)], root=str(tmp_path), no_cache=True, overrides={"library_mode": "never"})
    out = check(req)
    attach(out.result, options(out.config, out.root, [str(path)], req), out.root)
    return [d for d in out.result.diagnostics if d.severity.value != "note"], out.root


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_common_findings_get_a_proven_fix(name: str, tmp_path: Path) -> None:
    source, title, safe, fixed = PROGRAMS[name]
    (d,), root = _findings(tmp_path, source)
    assert d.fix is not None and (d.fix.title, d.fix.safe) == (title, safe)
    (edit,) = d.fix.edits
    text = Sources(root).text(edit.span.path) or ""
    from pytea_ci.fixes.source import replace

    assert fixed in replace(text, edit.span, edit.text)


def test_a_candidate_that_fails_the_proof_is_never_offered(tmp_path: Path) -> None:
    """Two bugs in a row: fixing the first lets the second appear (a new finding on the path), so neither
    of its candidates is proven; the one that would re-break the view is dropped too."""
    (d,), root = _findings(tmp_path, "net = nn.Sequential(nn.Conv2d(3, 16, 3), nn.Conv2d(32, 8, 3), "
                                     "nn.BatchNorm2d(4))\ny = net(torch.randn(2, 3, 32, 32))\n")
    assert d.fix is None
    assert [c.title for c in candidates(d, Sources(root))][:2] == ["in_channels 32 -> 16", "input channels 16 -> 32"]


def test_the_wrong_literal_is_rejected_by_the_proof(tmp_path: Path) -> None:
    """The README's bug: replacing the view's 320 by 500 is a candidate, and re-analysis rejects it."""
    source = ("fc1 = nn.Linear(500, 50)\nx = torch.randn(64, 20, 4, 4)\ny = fc1(x.view(-1, 320))\n")
    (d,), root = _findings(tmp_path, source)
    assert d.fix is not None and d.fix.title == "in_features 500 -> 320"
    wrong = [c for c in candidates(d, Sources(root)) if c.title == "input features 320 -> 500"]
    assert len(wrong) == 1
    req = CheckRequest(paths=[os.path.join(root, "main.py")], root=root, no_cache=True)
    out = check(req)
    e = next(e for e in out.result.entries if "::" not in e.entry)
    prover = Prover(options(out.config, root, [os.path.join(root, "main.py")], req), root, {})
    assert prover.prove(wrong[0], d, e) is None


def test_an_edit_the_analyzer_does_not_understand_proves_nothing(tmp_path: Path) -> None:
    """`(2 * 3).flatten(1)` raises AttributeError under CPython; the re-analysis sees an unknown value and no
    finding, which is no proof: a fix must leave the program as well understood as it was (the other
    candidates, `x.reshape` and `x.view(x.size(0), -1)`, leave a finding)."""
    (d,), _ = _findings(tmp_path, "x = torch.randn(16, 8)\ny = nn.Linear(6, 2)(x.view(-1, 2 * 3))\n")
    assert d.fix is None
