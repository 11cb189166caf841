"""Symbolic inputs declared in `[tool.pytea-ci.symbolic]` and with `--symbolic NAME=RANGE`: range
syntax, argparse options, Dataset class lengths and `file:line` values, CLI on top of the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytea_ci.driver.symranges import parse_cli, parse_range
from tests.driver.conftest import findings, run_json

PROGRAM = '''import argparse
import torch
from torch.utils.data import DataLoader, Dataset


class Items(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.randn(3)


p = argparse.ArgumentParser()
p.add_argument("--image-size", type=int, default=224)
a = p.parse_args()
hidden = 64
x = torch.randn(2, 3, a.image_size, a.image_size).view(2, 3, 32, -1)
z = torch.randn(4, hidden).view(-1, 8)
for b in DataLoader(Items(), batch_size=16):
    b.view(16, 3)
'''


@pytest.mark.parametrize("spec, want", [
    (224, (224, 224, ())),
    ("1..1024", (1, 1024, ())),
    ("0..", (0, None, ())),
    ("..8", (None, 8, ())),
    ([1, 64], (1, 64, ())),
    ("256..320 step 32", (256, 320, (256, 288, 320))),
    (["224", "256..320 step 32"], (224, 320, (224, 256, 288, 320))),
    (["1..3", "5"], (1, 5, (1, 2, 3, 5))),
    (["1..", "5"], (1, None, ())),
])
def test_range_syntax(spec: object, want: tuple) -> None:
    assert parse_range(spec) == want


@pytest.mark.parametrize("spec", ["abc", "5..1", "1.. step 2", "1..9 step 0", True, [], {"a": 1}])
def test_bad_ranges_are_one_line_errors(spec: object) -> None:
    with pytest.raises(ValueError):
        parse_range(spec)


def test_cli_items() -> None:
    assert parse_cli(["batch-size=1..8", "data.py:12=3,5"]) == {"batch_size": "1..8", "data.py:12": ["3", "5"]}
    with pytest.raises(ValueError):
        parse_cli(["batch_size"])


def _project(tmp_path: Path, table: str) -> Path:
    root = tmp_path / "sym"
    root.mkdir()
    (root / "main.py").write_text(PROGRAM)
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n\n[tool.pytea-ci.symbolic]\n" + table)
    return root


def test_defaults_alone_are_clean(tmp_path: Path) -> None:
    code, doc = run_json(_project(tmp_path, ""), "main.py", "--fail-on", "warning")
    assert code == 0 and findings(doc) == []


def test_option_class_and_line_from_the_file(tmp_path: Path) -> None:
    root = _project(tmp_path, 'image_size = ["224", "256..512 step 32"]\nItems = "1.."\n"main.py:17" = "1..100"\n')
    code, doc = run_json(root, "main.py", "--fail-on", "warning")
    got = {(rule, line) for rule, _, line in findings(doc)}
    # 224 and 256..512 step 32 all divide by 32: line 18 holds; a hidden size not a multiple of 2 fails
    # line 19 for some values; an Items length not a multiple of 16 leaves a short last batch
    assert got == {("PT002", 19), ("PT001", 21)}, got


def test_cli_adds_to_the_file(tmp_path: Path) -> None:
    root = _project(tmp_path, 'Items = "64"\n')
    code, doc = run_json(root, "main.py", "--fail-on", "warning", "--symbolic", "image_size=200..230")
    assert {(rule, line) for rule, _, line in findings(doc)} == {("PT002", 18)}


def test_bad_cli_range_is_a_usage_error(tmp_path: Path) -> None:
    code, _ = run_json(_project(tmp_path, ""), "main.py", "--symbolic", "image_size=big")
    assert code == 2
