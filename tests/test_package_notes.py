"""A budget reached inside an installed package (read-only, issue 21) is noted at the project's call
that led there, never on a line of the package: the user cannot act on a file outside the project,
and code scanning cannot show it."""

from __future__ import annotations

import venv
from pathlib import Path

import pytest

from pytea_ci.packages import environment
from tests.test_installed_packages import _check, _diagnostics, _project

DEEP = "def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\n"


def test_a_budget_reached_in_a_package_is_noted_at_the_projects_call(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(folder)
    python = str(folder / "bin" / "python")
    environment.site_folders.cache_clear()
    (Path(environment.site_folders(python)[0]) / "deeplib.py").write_text(DEEP)
    src = "import torch\nimport deeplib\n\nn = deeplib.depth(500)\ny = torch.randn(2, 3).view(6)\n"
    (tmp_path / "p").mkdir()
    root = _project(tmp_path / "p", {"main.py": src}, config='follow-packages = ["deeplib"]\n')
    code, doc = _check(root, python, "main.py", capsys=capsys)
    notes = [(d["path"], d["line"], "recursion" in d["message"]) for d in _diagnostics(doc) if d["rule"] == "PT011"]
    assert code == 0 and notes == [("main.py", 4, True)], _diagnostics(doc)
