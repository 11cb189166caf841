"""Coverage on the command line (issue 13): the summary's share of tensor operations checked,
`--min-coverage` / `min-coverage` (pass, fail, configuration), `explain` and `check --explain`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytea_ci.cli import main

# a model from an unknown factory: its call is a tensor operation that cannot be checked
HUB = """\
import torch

model = torch.hub.load("pytorch/vision", "resnet18")
x = torch.randn(2, 3, 224, 224)
y = model(x)
z = torch.randn(4, 5) @ torch.randn(5, 6)
"""


@pytest.fixture()
def hub(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.pytea-ci]\n")
    path = tmp_path / "main.py"
    path.write_text(HUB)
    return path


def _coverage(path: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["check", str(path), "--no-cache", "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)["entries"][0]["coverage"]


def test_summary_line_and_json_agree(hub: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cov = _coverage(hub, capsys)
    assert 0 < cov["checked"] < cov["reached"] and cov["skipped"] == cov["reached"] - cov["checked"]
    assert main(["check", str(hub), "--no-cache"]) == 0
    out = capsys.readouterr().out
    pct = cov["checked"] * 100 // cov["reached"]
    assert f"checked {cov['checked']} of {cov['reached']} tensor operations ({pct}%)" in out.splitlines()[-1]


def test_min_coverage_fails_below_and_names_the_entry(hub: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cov = _coverage(hub, capsys)
    assert main(["check", str(hub), "--no-cache", "--min-coverage", "100"]) == 1
    err = capsys.readouterr().err
    assert "coverage below --min-coverage 100%" in err and "main.py checked" in err
    below = 100 * cov["checked"] / cov["reached"] - 1
    assert main(["check", str(hub), "--no-cache", "--min-coverage", f"{below:.2f}"]) == 0
    assert "coverage below" not in capsys.readouterr().err


def test_min_coverage_from_the_configuration(hub: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (hub.parent / "pyproject.toml").write_text("[tool.pytea-ci]\nmin-coverage = 99.5\n")
    assert main(["check", str(hub), "--no-cache", "--root", str(hub.parent)]) == 1
    assert "--min-coverage 99.5%" in capsys.readouterr().err
    # the flag overrides the file
    assert main(["check", str(hub), "--no-cache", "--root", str(hub.parent), "--min-coverage", "0"]) == 0
    (hub.parent / "pyproject.toml").write_text("[tool.pytea-ci]\nmin-coverage = 120\n")
    assert main(["check", str(hub), "--no-cache", "--root", str(hub.parent)]) == 2
    assert "min-coverage must be a percentage" in capsys.readouterr().err


def test_min_coverage_is_off_by_default(hub: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(hub), "--no-cache"]) == 0
    assert "coverage below" not in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["-1", "101", "lots"])
def test_min_coverage_rejects_what_is_not_a_percentage(hub: Path, bad: str) -> None:
    with pytest.raises(SystemExit) as e:
        main(["check", str(hub), "--min-coverage", bad])
    assert e.value.code == 2


def test_explain_names_the_origin(hub: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(hub), "--no-cache"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "op:" in x or "ops:" in x)
    assert "main.py:3:" in line and "torch.hub.load" in line
    # with a machine format on stdout the explanation goes to stderr, leaving valid JSON
    assert main(["check", str(hub), "--no-cache", "--format", "json", "--explain"]) == 0
    captured = capsys.readouterr()
    json.loads(captured.out)
    assert "torch.hub.load" in captured.err
