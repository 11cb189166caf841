"""The project's own package is imported once per run (issue 31 item 9, interp/project_imports.py):
every later entry point restores a fresh copy of what its import left, is charged the copy rather than
the import, and sees none of the changes an earlier entry made to the package's state."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytea_ci.driver.check import check
from pytea_ci.driver.project import CheckRequest
from pytea_ci.driver.run import Options, run
from pytea_ci.interp.budget import Budget
from pytea_ci.interp import project_imports

HERE = os.path.join(os.path.dirname(__file__), "data", "project_package")
A, B = os.path.join(HERE, "run_a.py"), os.path.join(HERE, "run_b.py")


def _run(entries: list[str], jobs: int = 1) -> dict[str, tuple[int, list[tuple[int, str]], float | None]]:
    result = run(entries, Options(root=HERE, strict=jobs == 1, jobs=jobs))
    return {e.entry: (e.stats.steps, sorted((d.span.line, d.rule) for d in e.diagnostics), e.stats.coverage)
            for e in result.entries}


def test_the_second_entry_restores_the_package_instead_of_running_it(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = _run([A, B])
    monkeypatch.setattr(project_imports, "MIN_STEPS", 10**9)  # never kept: every entry runs the import
    cold = _run([A, B])
    assert kept["run_b.py"][1:] == cold["run_b.py"][1:] == ([], 1.0)
    assert kept["run_b.py"][0] * 10 < cold["run_b.py"][0]  # the import is 700 statements; the copy a few objects


def test_an_entry_is_charged_the_same_whether_it_ran_the_import_or_restored_it() -> None:
    first, second = _run([B, A]), _run([A, B])
    assert first["run_b.py"] == second["run_b.py"]
    assert first["run_a.py"] == second["run_a.py"]


def test_what_an_entry_changes_in_the_package_does_not_reach_the_next() -> None:
    # run_a sets CONF.width, fills REG and empties TABLE: run_b would find three mismatches if it saw them
    out = _run([A, B, B])
    assert out["run_b.py"][1] == []


def test_processes_of_one_run_give_the_same_results() -> None:
    assert _run([A, B], jobs=2) == _run([A, B])


HEAVY = "".join(f"A{i} = {i} * 2\n" for i in range(3_000)) + "WIDTH = 8\n"
MODEL = """import torch.nn as nn
from pkg.heavy import WIDTH


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(WIDTH, 4)
        self.out = nn.Linear(3, 2)

    def forward(self, x):
        return self.out(self.fc(x))
"""


def test_modules_of_other_folders_restore_their_package_in_library_mode(tmp_path: Path) -> None:
    """Files of two folders of one package: the second restores the package's import (the file checked is
    registered under its name after its imports, as under `python -m`) instead of running it; both find
    the same."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from pkg import heavy\n")
    (tmp_path / "pkg" / "heavy.py").write_text(HEAVY)
    for sub in ("a", "b"):
        (tmp_path / "pkg" / sub).mkdir()
        (tmp_path / "pkg" / sub / "__init__.py").write_text("")
        (tmp_path / "pkg" / sub / "model.py").write_text(MODEL)
    first, second = check(CheckRequest(root=str(tmp_path), no_cache=True,
                                       overrides={"library_mode": "only", "run_budget": 0})).result.entries
    assert [d.rule for d in first.diagnostics] == [d.rule for d in second.diagnostics] == ["PT001"]
    assert second.stats.steps + second.stats.shared_steps < 3_000 < first.stats.shared_imports.get(
        next(iter(first.stats.shared_imports), ""), 0)
    assert first.stats.shared_imports == second.stats.shared_imports


def test_an_import_that_cannot_be_kept_ends_where_the_budget_would_have(tmp_path: Path) -> None:
    """A package whose import changes a module loaded before it cannot be restored from a copy: it runs
    under its own allowance once, and the path that ran it is charged no more than its share allows."""
    (tmp_path / "helper.py").write_text("X = 0\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("import helper\nhelper.X = 1\nfrom pkg import heavy\n")
    (tmp_path / "pkg" / "heavy.py").write_text(HEAVY)
    for name in ("one", "two"):
        (tmp_path / f"{name}.py").write_text("import helper\nimport pkg\n")
    entries = [str(tmp_path / "one.py"), str(tmp_path / "two.py")]
    share = 3_000  # less than the import (3,000 statements)
    out = run(entries, Options(root=str(tmp_path), strict=True, budget=Budget(entry_steps=share)))
    assert [e.stats.steps <= share + 1 for e in out.entries] == [True, True], [e.stats.steps for e in out.entries]
    assert all(e.status == "incomplete" for e in out.entries), [(e.status, e.stats.steps, [d.message for d in e.diagnostics]) for e in out.entries]


def test_an_import_that_rebinds_a_name_of_a_module_loaded_before_is_not_restored(tmp_path: Path) -> None:
    """`helper.X = 1` in the package's import changes a module the entry loaded before it: a copy of the
    package would leave the next entry's `helper.X` at 0 (CPython: 1), so the import is run again."""
    (tmp_path / "helper.py").write_text("X = 0\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("import helper\nhelper.X = 1\nfrom pkg import heavy\n")
    (tmp_path / "pkg" / "heavy.py").write_text(HEAVY)
    for name in ("one", "two"):
        (tmp_path / f"{name}.py").write_text("import torch\nimport helper\nimport pkg\n\n"
                                             "y = torch.zeros(2, helper.X + 2) @ torch.zeros(3, 4)\n")
    out = run([str(tmp_path / "one.py"), str(tmp_path / "two.py")], Options(root=str(tmp_path), strict=True))
    assert [[d.rule for d in e.diagnostics] for e in out.entries] == [[], []]
    assert [e.stats.coverage for e in out.entries] == [1.0, 1.0]
