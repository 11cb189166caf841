"""Entry-point discovery: programs (a `__main__` block, a torch script nobody imports, a notebook) are
entry points; modules imported by others and test files are not, unless configured."""

from __future__ import annotations

from pathlib import Path

from tests.driver.conftest import entries, run_json

GENERAL = "import torch\nimport logging\n\nlogging.basicConfig()\nDEVICE = torch.device('cpu')\nprint('loaded')\n\n\n" \
          "def make(n):\n    return torch.zeros(n, 3)\n"
TRAIN = "import torch\nfrom utils.general import make\n\nx = make(4)\nprint(x.view(12))\n"
GUARDED = "import torch\n\n\ndef f():\n    return torch.ones(2)\n\n\nif __name__ == '__main__':\n    f()\n"
TEST = "import torch\n\n\ndef test_x():\n    assert torch.ones(2).shape == (2,)\n\n\ntest_x()\n"


def _project(root: Path) -> Path:
    (root / "utils").mkdir(parents=True)
    (root / "utils" / "__init__.py").write_text("")
    (root / "utils" / "general.py").write_text(GENERAL)
    (root / "train.py").write_text(TRAIN)
    (root / "model.py").write_text(GUARDED)
    (root / "use_model.py").write_text("import torch\nfrom model import f\n\nprint(f())\n")
    (root / "test_train.py").write_text(TEST)
    (root / "train_test.py").write_text(TEST)
    (root / "conftest.py").write_text("import torch\nprint(torch.ones(1))\n")
    (root / "tests").mkdir()
    (root / "tests" / "smoke.py").write_text(TEST)
    return root


def test_programs_are_entry_points_and_imported_modules_and_tests_are_not(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    code, doc = run_json(root)
    # utils/general.py has top-level calls but train.py imports it; model.py is imported but has a
    # __main__ block, so it is a program too
    assert sorted(entries(doc)) == ["model.py", "train.py", "use_model.py"]
    assert code == 0


def test_a_changed_library_module_maps_to_its_importers(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    _code, doc = run_json(root, "utils/general.py")  # what pre-commit passes
    assert sorted(entries(doc)) == ["train.py"]
    _code, doc = run_json(root, "test_train.py")  # a test file: not a program, imported by nobody
    assert entries(doc) == {}


def test_a_training_script_named_like_a_test_is_a_program(tmp_path: Path) -> None:
    """TCN's experiment folders: `adding_problem/add_test.py` trains (argparse, top-level loop) and
    holds no test a runner collects; a `*_test.py` with a `def test…`, a `class Test…` or a pytest or
    unittest import stays a test file."""
    root = _project(tmp_path / "p")
    (root / "adding_problem").mkdir()
    (root / "adding_problem" / "add_test.py").write_text(
        "import argparse\nimport torch\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--n', default=4)\n"
        "args = parser.parse_args()\nfor epoch in range(2):\n    print(torch.zeros(args.n).view(2, 2))\n")
    (root / "adding_problem" / "unit_test.py").write_text("import unittest\nimport torch\n\nprint(torch.ones(1))\n")
    (root / "adding_problem" / "cls_test.py").write_text("import torch\n\n\nclass TestX:\n    pass\n\n\nprint(torch.ones(1))\n")
    _code, doc = run_json(root)
    assert sorted(entries(doc)) == ["adding_problem/add_test.py", "model.py", "train.py", "use_model.py"]


def test_configured_test_files_are_entry_points(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    (root / "pyproject.toml").write_text('[tool.pytea-ci]\nentry-points = ["train.py", "tests/*.py"]\n')
    _code, doc = run_json(root)
    assert sorted(entries(doc)) == ["tests/smoke.py", "train.py"]


SHIM = '''"""`pkg.old` was moved to `pkg.new`."""
import warnings
from warnings import warn as say

warnings.warn("pkg/old.py has moved to pkg/new.py", DeprecationWarning, stacklevel=2)
say("and will be removed")
from pkg.new import Net

__all__ = ["Net"]

Net = Net
'''


def test_a_module_that_only_warns_and_re_exports_is_no_entry_point(tmp_path: Path) -> None:
    """pytorch-ignite's `contrib/metrics/regression/*.py`: deprecation shims that nobody imports were
    taken as torch scripts and run (15-20 s each, nothing checked); a call to anything else is a program's."""
    root = tmp_path / "p"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "new.py").write_text("import torch\n\n\nclass Net(torch.nn.Module):\n    pass\n")
    (root / "pkg" / "old.py").write_text(SHIM)
    (root / "pkg" / "run.py").write_text(SHIM.replace('say("and will be removed")', 'print(Net())'))
    _code, doc = run_json(root)
    assert sorted(entries(doc)) == ["pkg/run.py"]
