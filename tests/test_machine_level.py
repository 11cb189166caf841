"""A PT007 that only some machines meet is the documented warning "(when ...)" whatever else the
program does (issue 33 item 9): a path of the other machine side that passed the finding's site
without it is evidence of avoidance, even when it stopped at another finding later."""

from __future__ import annotations

from pathlib import Path

from pytea_ci.driver.run import Options, run

PROGRAM = """\
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 3).to(device)
x = torch.randn(2, 4)
y = torch.tensor([0.0, 1.0])
out = model(x)
"""
LATER_FINDING = "loss = F.nll_loss(F.log_softmax(out, dim=1), y)\n"


def device_finding(tmp_path: Path, source: str) -> tuple[str, str]:
    entry = tmp_path / "main.py"
    entry.write_text(source)
    found = [d for d in run([str(entry)], Options(root=str(tmp_path))).diagnostics if d.rule == "PT007"]
    assert len(found) == 1 and found[0].span.line == 9
    return found[0].severity.name, found[0].message


def test_device_level_does_not_depend_on_a_later_unrelated_finding(tmp_path: Path) -> None:
    alone = device_finding(tmp_path, PROGRAM)
    assert alone[0] == "WARNING" and alone[1].endswith("(when torch.cuda.is_available())")
    assert device_finding(tmp_path, PROGRAM + LATER_FINDING) == alone
