"""`check --fix`, `--show-fixes` and `--suggest-fixes` on the README's buggy example, and the repairs of the
common findings, each proven by re-analysis (issue 34)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytea_ci.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"


@pytest.fixture()
def mnist_bug(tmp_path: Path) -> Path:
    """The bundled example with `nn.Linear(320, 50)` changed to `nn.Linear(500, 50)` (the README's bug)."""
    source = (EXAMPLES / "mnist" / "main.py").read_text()
    assert "nn.Linear(320, 50)" in source
    path = tmp_path / "main.py"
    path.write_text(source.replace("nn.Linear(320, 50)", "nn.Linear(500, 50)"))
    return path


def _check(path: Path, *flags: str) -> int:
    return main(["check", "--root", str(path.parent), *flags, str(path)])


def test_fix_rewrites_the_literal_and_a_second_run_is_clean(mnist_bug: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert _check(mnist_bug, "--fix") == 0  # what is left after the fix: nothing
    lines = mnist_bug.read_text().splitlines()
    assert lines[20].strip() == "self.fc1 = nn.Linear(320, 50)"
    assert "fixed 1 finding(s) in 1 file(s)" in capsys.readouterr().err
    assert _check(mnist_bug, "--no-cache") == 0
    assert "PT0" not in capsys.readouterr().out


def test_show_fixes_prints_the_same_edit_and_writes_nothing(mnist_bug: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    before = mnist_bug.read_text()
    assert _check(mnist_bug, "--show-fixes") == 1
    out = capsys.readouterr().out
    assert mnist_bug.read_text() == before
    assert "--- a/main.py\n+++ b/main.py\n" in out
    removed = [x for x in out.splitlines() if x.startswith("-") and not x.startswith("---")]
    added = [x for x in out.splitlines() if x.startswith("+") and not x.startswith("+++")]
    assert [x.strip() for x in removed] == ["-        self.fc1 = nn.Linear(500, 50)".strip()]
    assert [x.strip() for x in added] == ["+        self.fc1 = nn.Linear(320, 50)".strip()]


def test_the_text_report_shows_the_fix_under_the_finding(mnist_bug: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert _check(mnist_bug, "--suggest-fixes") == 1
    out = capsys.readouterr().out
    assert "   = fix: in_features 500 -> 320\n" in out
    assert mnist_bug.read_text().count("nn.Linear(500, 50)") == 1


def test_without_a_fix_flag_no_fix_is_computed(mnist_bug: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _check(mnist_bug) == 1
    assert "= fix:" not in capsys.readouterr().out


def test_unsafe_fixes_are_applied_only_when_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "target.py"
    path.write_text("import torch\nimport torch.nn as nn\n\nfc = nn.Linear(20, 5)\nx = torch.randn(16, 20)\n"
                    "y = torch.randint(0, 5, (16, 1))\nloss = nn.CrossEntropyLoss()(fc(x), y)\n")
    assert _check(path, "--fix") == 1
    assert "y.squeeze(1)" not in path.read_text()
    assert "= fix: y -> y.squeeze(1) (unsafe: --unsafe-fixes)" in capsys.readouterr().out
    assert _check(path, "--fix", "--unsafe-fixes") == 0
    assert "loss = nn.CrossEntropyLoss()(fc(x), y.squeeze(1))" in path.read_text()
