"""PT014 contract-changed (issue 19): with --diff/--staged each module of a changed file is checked in
library mode on both sides (the base from git's objects) and a changed input contract or output shape
is a note naming both; a caller that still passes the old size makes the change an error."""

from __future__ import annotations

from pathlib import Path

from tests.driver.conftest import findings, git, run_json

MODEL = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.fc1 = nn.Linear(9216, {out})

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv2(F.relu(self.conv1(x)))), {pool})
        return self.fc1(torch.flatten(x, 1))
"""
CALLER = ("import torch\nfrom model import Net\n\n\ndef test_net():\n    net = Net()\n"
          "    x = torch.randn(2, 1, 28, 28)\n    assert net(x).shape == (2, 128)\n")


def _repo(root: Path, caller: bool) -> Path:
    root.mkdir(parents=True)
    (root / "model.py").write_text(MODEL.format(pool=2, out=128))
    if caller:
        (root / "test_model.py").write_text(CALLER)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    return root


def _notes(doc: dict) -> list[dict]:
    return [d for d in doc["diagnostics"] if d["rule"] == "PT014"]


def test_changed_pool_in_a_module_nobody_calls_is_a_contract_change(tmp_path: Path) -> None:
    root = _repo(tmp_path / "p", caller=False)
    (root / "model.py").write_text(MODEL.format(pool=1, out=128))
    code, doc = run_json(root, "--diff", "HEAD", "--no-cache")
    assert code == 0
    (note,) = _notes(doc)
    assert note["severity"] == "note" and note["line"] == 6
    assert "input changed from x: [N, 1, 28, 28] to x: [N, 1, 16, 16]" in note["message"]
    assert [(r["line"], r["message"]) for r in note["related"]] == [(14, "changed here")]


def test_a_caller_feeding_the_old_size_makes_it_an_error(tmp_path: Path) -> None:
    root = _repo(tmp_path / "p", caller=True)
    (root / "model.py").write_text(MODEL.format(pool=1, out=128))
    git(root, "add", "model.py")
    code, doc = run_json(root, "--staged", "--no-cache")
    assert code == 1
    assert ("PT001", "model.py", 15) in findings(doc) and _notes(doc) == []  # the error says it: no note


def test_output_change_and_unchanged_module(tmp_path: Path) -> None:
    root = _repo(tmp_path / "p", caller=False)
    (root / "model.py").write_text(MODEL.format(pool=2, out=64))
    _, doc = run_json(root, "--diff", "HEAD", "--no-cache")
    (note,) = _notes(doc)
    assert "output changed from [N, 128] to [N, 64]" in note["message"] and "input changed" not in note["message"]
    (root / "model.py").write_text(MODEL.format(pool=2, out=128) + "\n# a comment\n")
    _, doc = run_json(root, "--diff", "HEAD", "--no-cache")
    assert _notes(doc) == []


def test_severity_is_configurable(tmp_path: Path) -> None:
    root = _repo(tmp_path / "p", caller=False)
    (root / "pyproject.toml").write_text('[tool.pytea-ci.severity]\nPT014 = "warning"\n')
    (root / "model.py").write_text(MODEL.format(pool=1, out=128))
    code, doc = run_json(root, "--diff", "HEAD", "--no-cache")
    assert code == 0 and [n["severity"] for n in _notes(doc)] == ["warning"]  # --fail-on error (default)
