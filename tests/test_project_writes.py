"""Files another script of the project writes (interp/project_writes.py, models/saved.py): a `prepro.py`
that saves tensors and a `train.py` that loads them. Each case is a small project; torch runs the writer,
then the reader (the truth, when torch is installed); pytea-ci checks the reader alone and must agree:
the error at its line when the reader fails for every input, nothing on a correct twin."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pytea_ci.driver.run import Options, run

PREPRO = """\
import torch
for split in {"train", "test"}:
    n = 70 if split == "train" else 20
    X = torch.full((n, 1, 16, 16), 0.0)
    Y = torch.full((n, 10), -1.0)
    torch.save((X, Y), split + "1989.pt")
"""
PREPRO_DATA = """\
import numpy as np
import torch
rows = np.loadtxt("data.csv", delimiter=",", ndmin=2)  # rows read at run time: a size not known
X = torch.randn(len(rows), 4)
y = torch.from_numpy(rows[:, 4]).long()
torch.save({"x": X, "y": y}, "data/feats.pt")
np.save("data/w.npy", np.zeros((4, 3), dtype=np.float32))
"""
DATA_CSV = "".join(f"{i},{i + 1},{i + 2},{i + 3},{i % 3}\n" for i in range(9))

TRAIN = """\
import torch
import torch.nn as nn
Xtr, Ytr = torch.load("train1989.pt")
net = nn.Sequential(nn.Flatten(), nn.Linear({width}, 10))
loss = ((net(Xtr[:8]) - Ytr[:8]) ** 2).mean()
"""
TRAIN_DATA = """\
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
d = torch.load("data/feats.pt")
w = torch.from_numpy(np.load("data/w.npy"))
h = nn.Linear({width}, 3)(d["x"])
loss = F.cross_entropy(h, d["y"]) + (d["x"][:, :{cols}] @ w).sum()
"""

CASES = {
    # name: (files, reader, rule at the reader's line of the marker or None)
    "set-loop writer, a width off": ({"prepro.py": PREPRO}, TRAIN.format(width=255), "PT001"),
    "set-loop writer, correct": ({"prepro.py": PREPRO}, TRAIN.format(width=256), None),
    "rows from data, a width off": ({"prepro.py": PREPRO_DATA, "data.csv": DATA_CSV},
                                    TRAIN_DATA.format(width=5, cols=4), "PT001"),
    "rows from data, numpy file read back off": ({"prepro.py": PREPRO_DATA, "data.csv": DATA_CSV},
                                                 TRAIN_DATA.format(width=4, cols=3), "PT001"),
    "rows from data, correct": ({"prepro.py": PREPRO_DATA, "data.csv": DATA_CSV},
                                TRAIN_DATA.format(width=4, cols=4), None),
}


def _project(tmp_path: Path, files: dict[str, str], reader: str) -> Path:
    (tmp_path / "data").mkdir()
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    (tmp_path / "train.py").write_text(reader)
    return tmp_path / "train.py"


def _check(entry: Path) -> list[tuple[str, int]]:
    (res,) = run([str(entry)], Options(root=str(entry.parent), strict=True)).entries
    return [(d.rule, d.span.line) for d in res.diagnostics if d.severity.name != "NOTE"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_file_another_script_writes(tmp_path: Path, name: str) -> None:
    files, reader, rule = CASES[name]
    found = _check(_project(tmp_path, files, reader))
    if rule is None:
        assert found == [], found
    else:
        assert [r for r, _ in found] == [rule], found


@pytest.mark.parametrize("name", sorted(CASES))
def test_torch_agrees(tmp_path: Path, name: str) -> None:
    pytest.importorskip("torch")
    files, reader, rule = CASES[name]
    entry = _project(tmp_path, files, reader)
    env = {**os.environ, "PYTHONPATH": ""}
    subprocess.run([sys.executable, "prepro.py"], cwd=tmp_path, check=True, env=env, capture_output=True)
    ran = subprocess.run([sys.executable, entry.name], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert (ran.returncode != 0) == (rule is not None), ran.stderr[-2000:]


def test_the_reader_is_keyed_by_the_writer(tmp_path: Path) -> None:
    """The writer is one of the files the reader's result depends on: a cached result of the reader is
    not used again once the writer changes (it is recorded with the data files the analysis read)."""
    entry = _project(tmp_path, {"prepro.py": PREPRO}, TRAIN.format(width=256))
    (res,) = run([str(entry)], Options(root=str(tmp_path), strict=True)).entries
    assert "prepro.py" in res.inputs


def test_no_writer_no_value(tmp_path: Path) -> None:
    """A file no script of the project writes stays unknown: nothing is read from the disk."""
    entry = _project(tmp_path, {"other.py": "import torch\ntorch.save(torch.zeros(3), 'other.pt')\n"},
                     TRAIN.format(width=255))
    assert _check(entry) == []


def test_a_writer_that_saves_different_sizes_on_its_paths(tmp_path: Path) -> None:
    """Sizes the writer's paths disagree on are a size not known; those they agree on stay known."""
    prepro = """\
        import sys
        import torch
        n = 8 if len(sys.argv) > 1 else 4
        torch.save((torch.zeros(n, 6), torch.zeros(n)), "d.pt")
    """
    reader = """\
import torch
x, y = torch.load("d.pt")
a = (x.sum(1) + y).sum()
b = torch.nn.Linear(5, 2)(x)
"""
    found = _check(_project(tmp_path, {"prepro.py": prepro}, reader))
    assert found == [("PT001", 4)], found


def test_an_excluded_writer_is_not_searched(tmp_path: Path) -> None:
    """A project's `exclude` globs hold for the writers searched too: a `prepro.py` the run skips gives the
    reader nothing (the files the run sees come from the driver)."""
    entry = _project(tmp_path, {"prepro.py": PREPRO}, TRAIN.format(width=255))
    (res,) = run([str(entry)], Options(root=str(tmp_path), exclude=["prepro.py"], strict=True)).entries
    assert "prepro.py" not in res.inputs
    assert [d.rule for d in res.diagnostics if d.severity.name != "NOTE"] == []
    (res,) = run([str(entry)], Options(root=str(tmp_path), exclude=["other/*"], strict=True)).entries
    assert [d.rule for d in res.diagnostics if d.severity.name != "NOTE"] == ["PT001"]
