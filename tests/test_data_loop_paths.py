"""A long loop over a data file, replayed by every path (interp/loops.py `outruns`, explore.py): each path
that the choices after the data fork into replays the loop, so a path weighs the loop against its part of
the entry's steps (the paths its replayed choices still owe share what is left), and a loop an earlier
path followed at a cost is weighed from its first items. Before, each replay followed the whole file and
the entry's steps ran out before the later paths reached the model."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

from pytea_ci.driver.run import Options, run

PROGRAM = """\
    import os

    import torch
    import torch.nn as nn


    def load(path):
        rows = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                text, label = line.rstrip("\\n").split("\\t")
                ids = [ord(c) - 97 for c in text][:16]
                ids = ids + [0] * (16 - len(ids))
                rows.append((ids, int(label)))
        return rows


    rows = load("train.txt")
    model = nn.Sequential(nn.Embedding(10, 8), nn.Flatten(), nn.Linear(16 * 8, 4))
    for name in ("A", "B", "C"):  # settings not known: each a choice on every path after the data
        if os.environ.get(name):
            model = nn.Sequential(model, nn.ReLU())
    x = torch.tensor([r[0] for r in rows[:32]])
    out = model(x)
    bad = nn.Linear(5, 2)(out)  # torch: mat1 and mat2 shapes cannot be multiplied (32x4 and 5x2)
"""


def test_every_path_reaches_the_model_after_a_long_data_loop(tmp_path: Path) -> None:
    rng = random.Random(1)
    lines = ("".join(rng.choice("abcdefghij") for _ in range(rng.randint(5, 40))) + f"\t{rng.randint(0, 3)}\n"
             for _ in range(1500))
    (tmp_path / "train.txt").write_text("".join(lines), encoding="utf-8")
    (tmp_path / "main.py").write_text(textwrap.dedent(PROGRAM), encoding="utf-8")
    (entry,) = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), strict=True)).entries
    rules = [(d.rule, d.span.line) for d in entry.diagnostics]
    assert ("PT001", 25) in rules
    messages = [d.message for d in entry.diagnostics]
    assert not any("steps per entry point" in m or "paths per entry point" in m for m in messages), messages
    assert any("steps per loop (1500 items" in m for m in messages)  # the file's rest summarised, and said so
