"""Hostile inputs: every one ends within the default budgets, never crashes, and a reached budget
is a PT011 note naming it, while what was found before is still reported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pytea_ci.diagnostics.result import RunResult
from pytea_ci.driver.run import Options, run
from pytea_ci.diagnostics.budgets import WALL_CLOCK
from pytea_ci.interp.interpreter import Budget


def analyze(tmp_path: Path, source: str, name: str = "main.py", budget: Budget | None = None) -> RunResult:
    path = tmp_path / name
    path.write_text(source)
    opts = Options(root=str(tmp_path), budget=budget or Budget())
    result = run([str(path)], opts)
    # ended by the deterministic budgets, never by the wall-clock safety net
    assert not any(WALL_CLOCK in d.message for d in result.diagnostics)
    assert all(e.status != "internal-error" for e in result.entries), result.entries[0].error
    return result


def rules(result: RunResult) -> list[tuple[str, int]]:
    return [(d.rule, d.span.line) for d in result.diagnostics]


def budget_notes(result: RunResult) -> list[str]:
    return [d.message for d in result.diagnostics if d.rule == "PT011"]


def test_while_true_without_break(tmp_path: Path) -> None:
    r = analyze(tmp_path, "import torch\nx = torch.randn(2, 3).view(5)\nwhile True:\n    pass\n")
    assert ("PT001", 2) in rules(r)


def test_while_true_after_the_finding(tmp_path: Path) -> None:
    r = analyze(tmp_path, "import torch\nk = 0\nwhile True:\n    k += 1\n")
    assert any("loop iterations" in m for m in budget_notes(r))


def test_unbounded_recursion(tmp_path: Path) -> None:
    r = analyze(tmp_path, "import torch\ndef f(n):\n    return f(n + 1)\nf(0)\ny = torch.randn(2, 3).view(7)\n")
    assert any("recursion depth" in m for m in budget_notes(r))
    assert ("PT001", 5) in rules(r)


def test_recursion_on_values_not_understood_is_not_followed_to_the_depth_budget(tmp_path: Path) -> None:
    """A walk down a folder listing (what a library's import does to find its modules): how deep CPython
    recurses depends on the disk, so the recursive call on the unknown listing is not followed — no
    depth budget spent, and the code of the first call still checked."""
    src = ("import os\nimport torch\n"
           "def tree(path):\n"
           "    y = torch.nn.Linear(3, 4)(torch.randn(2, 3))\n"
           "    out = {}\n"
           "    for name in os.listdir(path):\n"
           "        if os.path.isdir(os.path.join(path, name)):\n"
           "            out[name] = tree(os.path.join(path, name))\n"
           "    return out\n"
           "t = tree('data')\n"
           "z = torch.randn(2, 3).view(7)\n")
    r = analyze(tmp_path, src)
    assert budget_notes(r) == [], budget_notes(r)
    assert rules(r) == [("PT001", 11)]
    assert r.entries[0].stats.ops_checked >= 2  # Linear in the first call, and the view


def test_exponential_branching(tmp_path: Path) -> None:
    lines = ["import torch", "from torchvision import datasets"]
    lines += [f"n{i} = len(datasets.ImageFolder('x{i}'))\nif n{i} % 2 == 0:\n    a{i} = 1\nelse:\n    a{i} = 2"
              for i in range(30)]
    lines += ["y = torch.randn(2, 3).view(7)"]
    r = analyze(tmp_path, "\n".join(lines) + "\n")
    assert any("paths per entry point" in m for m in budget_notes(r))
    assert any(rule == "PT001" for rule, _ in rules(r))


def test_twenty_thousand_line_file(tmp_path: Path) -> None:
    body = "import torch\nx = torch.randn(4, 4)\n" + "".join(f"v{i} = x + {i}\n" for i in range(20_000))
    r = analyze(tmp_path, body + "bad = x.view(3)\n")
    assert ("PT001", 20_003) in rules(r)


def test_deeply_nested_expression(tmp_path: Path) -> None:
    expr = "1" + " + 1" * 1000
    nested = "(" * 150 + "2" + ")" * 150
    r = analyze(tmp_path, f"import torch\nn = {expr}\nm = {nested}\nx = torch.randn(n, m).view(3)\n")
    assert ("PT001", 4) in rules(r)


def test_huge_ranges_views_and_literals(tmp_path: Path) -> None:
    src = ("import torch\nfor i in range(10**12):\n    pass\nxs = list(range(10**12))\n"
           "big = 10**100000\nh = 123456789 ** 999\nx = torch.randn(4)\ny = x.view(10**18)\n")
    r = analyze(tmp_path, src)
    assert ("PT001", 8) in rules(r)


def test_self_import_and_star_import_cycles(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from b import *\nA = 1\n")
    (tmp_path / "b.py").write_text("from a import *\nB = 2\n")
    r = analyze(tmp_path, "import main\nimport torch\nfrom a import *\nx = torch.randn(2).view(B + 1)\n")
    assert ("PT001", 4) in rules(r)


def test_star_import_of_a_module_that_updates_its_globals_with_unknown_keys(tmp_path: Path) -> None:
    # the stdlib's re._constants does this: `globals().update({item.name: item for item in items})`
    (tmp_path / "consts.py").write_text(
        "class C(int):\n    def __new__(cls, value, name):\n        self = super().__new__(cls, value)\n"
        "        self.name = name\n        return self\n"
        "def make(*names):\n    items = [C(i, n) for i, n in enumerate(names)]\n"
        "    globals().update({item.name: item for item in items})\n    return items\n"
        "CODES = make('A', 'B')\nWIDTH = 3\n")
    r = analyze(tmp_path, "import torch\nfrom consts import *\nprint(A)\nx = torch.randn(2, WIDTH).view(7)\n")
    assert ("PT001", 4) in rules(r)


def test_oversized_file_is_skipped_with_a_note(tmp_path: Path) -> None:
    r = analyze(tmp_path, "import torch\n" + "# padding\n" * 1000, budget=Budget(max_file_bytes=100))
    assert any("file size" in m for m in budget_notes(r))


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is enforced on Linux")
def test_memory_stays_bounded(tmp_path: Path) -> None:
    """The README states the bound: the analysis fits in 3 GiB of address space (RLIMIT_AS)."""
    lines = ["import torch", "xs = []", "for i in range(5000):", "    xs.append(torch.randn(i, 3))",
             "y = torch.randn(2, 3).view(7)"]
    (tmp_path / "main.py").write_text("\n".join(lines) + "\n")
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))\n"
            "from pytea_ci.cli import main\n"
            f"sys.exit(main(['check', '--root', {str(tmp_path)!r}, {str(tmp_path / 'main.py')!r}]))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "main.py:5:" in p.stdout


def test_symlinks_leaving_the_project_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "helper.py").write_text("import torch\nbad = torch.randn(2, 3).view(7)\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "helper.py").symlink_to(outside / "helper.py")
    (project / "main.py").write_text("import torch\nimport helper\nx = helper.bad\n")
    result = run([str(project / "main.py")], Options(root=str(project)))
    assert not [d for d in result.diagnostics if d.rule.startswith("PT00")]
    assert all(e.status != "internal-error" for e in result.entries)


def test_symlinked_module_inside_the_project_is_followed(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "lib").mkdir(parents=True)
    (project / "lib" / "real.py").write_text("import torch\nbad = torch.randn(2, 3).view(7)\n")
    (project / "helper.py").symlink_to(project / "lib" / "real.py")
    (project / "main.py").write_text("import torch\nimport helper\n")
    result = run([str(project / "main.py")], Options(root=str(project)))
    assert [d.rule for d in result.diagnostics] == ["PT001"]


def test_discovery_skips_symlinks_out_of_the_project(tmp_path: Path) -> None:
    from pytea_ci.driver.discover import python_files

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "train.py").write_text("import torch\nif __name__ == '__main__':\n    pass\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").symlink_to(outside / "train.py")
    (project / "main.py").write_text("import torch\nif __name__ == '__main__':\n    pass\n")
    found = [Path(p).name for p in python_files(str(project), str(project), [])]
    assert found == ["main.py"]
