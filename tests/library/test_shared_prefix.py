"""Library mode pays a file's import prefix once for all its runs (issue 31 item 9): the imports are run by
the first run of the file on the path's own step budget and charged to the run's budget, and every run of the
file (the first one too) is charged the copy of the state it restores. A module whose share of the run budget
is smaller than its project's import used to be cut inside `import` (every monai target: PT011, nothing
checked); now it runs, and what it is charged does not depend on which run imported first."""

from __future__ import annotations

from pathlib import Path

from pytea_ci.diagnostics.rules import INCOMPLETE
from pytea_ci.driver.check import check
from pytea_ci.driver.project import CheckRequest

# import-time work of the project (3,000 statements): several thousand steps
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


def _project(root: Path, models: int) -> None:
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "heavy.py").write_text(HEAVY)
    for i in range(models):
        (root / "pkg" / f"model{i}.py").write_text(MODEL)


def _run(root: Path, budget: float):
    return check(CheckRequest(root=str(root), no_cache=True,
                              overrides={"library_mode": "only", "run_budget": budget})).result.entries


def test_a_module_whose_share_is_below_its_import_is_checked(tmp_path: Path) -> None:
    _project(tmp_path, 1)
    (entry,) = _run(tmp_path, 0.06)  # 3,000 steps: less than the import of pkg.heavy
    rules = [d.rule for d in entry.diagnostics]
    assert "PT001" in rules, [(d.rule, d.message) for d in entry.diagnostics]
    assert INCOMPLETE.id not in rules
    assert entry.stats.steps < 3_000 < entry.stats.steps + entry.stats.shared_steps


def test_what_a_module_is_charged_does_not_depend_on_which_run_imported_first(tmp_path: Path) -> None:
    """Two equal modules of one file: the first runs the file's imports (paid as shared work), the second
    restores them; both are charged the same steps, and find the same."""
    _project(tmp_path, 1)
    twin = MODEL.split("class Net")[1].replace("(nn.Module)", "Twin(nn.Module)", 1)
    (tmp_path / "pkg" / "model0.py").write_text(MODEL + "\n\nclass " + twin.lstrip())
    first, second = _run(tmp_path, 0)
    assert first.entry.endswith("::Net") and second.entry.endswith("::Twin")
    assert first.stats.shared_steps > 0 and second.stats.shared_steps == 0
    assert first.stats.steps == second.stats.steps  # the second restores what the first imported
    assert [d.rule for d in first.diagnostics] == [d.rule for d in second.diagnostics] == ["PT001"]


def test_the_same_with_entry_points_in_parallel(tmp_path: Path) -> None:
    """Library mode runs in the parent process, after the entry points: `jobs` changes none of its figures."""
    def run(jobs: int) -> list[tuple[str, int, int, list[str]]]:
        root = tmp_path / f"jobs{jobs}"  # a project of its own: the process keeps a file's imports (verdict.py)
        root.mkdir()
        _project(root, 2)
        (root / "train.py").write_text("import torch\nfrom pkg.model0 import Net\n\nif __name__ == '__main__':\n"
                                       "    print(torch.randn(2, 8).sum())\n")
        entries = check(CheckRequest(root=str(root), no_cache=True, overrides={
            "library_mode": "always", "run_budget": 0.5, "jobs": jobs})).result.entries
        return [(e.entry, e.stats.steps, e.stats.shared_steps, [d.message for d in e.diagnostics]) for e in entries]

    one = run(1)
    assert any(shared for _, _, shared, _ in one) and len(one) == 3
    assert run(2) == one
