"""Start-up stays cheap: `--version` and a warm (fully cached) `check` import neither the analyzer
(interpreter, models, solver) nor z3, GitPython or the SARIF model, and a replayed `check` imports
only the replay fast path (benchmarks/startup.py times it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = ("z3", "git", "sarif_om", "pytea_ci.interp.interpreter", "pytea_ci.models.all", "pytea_ci.solver.decide")

PROBE = """
import json, sys
ROOTS = ("z3", "git", "sarif_om", "argparse", "tomllib", "dataclasses")
from pytea_ci.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stdout.flush()
print("\\n" + json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ROOTS or m.startswith("pytea_ci."))))
"""


def _loaded(args: list[str], cwd: Path) -> set[str]:
    out = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_version_imports_nothing_heavy(tmp_path: Path) -> None:
    loaded = _loaded(["--version"], tmp_path)
    assert not loaded & set(HEAVY)
    assert not any(m.startswith("pytea_ci.driver") for m in loaded)


def test_warm_check_loads_no_analyzer(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("import torch\nx = torch.zeros(2, 3) @ torch.ones(3, 4)\n")
    cold = _loaded(["check", "--root", str(tmp_path), "main.py"], tmp_path)
    assert "pytea_ci.interp.interpreter" in cold  # analyzed: the analyzer was needed
    warm = _loaded(["check", "--root", str(tmp_path), "main.py"], tmp_path)
    assert not warm & set(HEAVY), warm & set(HEAVY)


def test_replayed_check_loads_only_the_fast_path(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("import torch\nx = torch.zeros(2, 3) @ torch.ones(3, 4)\n")
    args = ["check", "--root", str(tmp_path), "main.py"]
    _loaded(args, tmp_path)  # analyzed
    full = _loaded(args, tmp_path)  # from the result cache: leaves a replay record
    assert {"argparse", "pytea_ci.driver.config"} <= full
    replayed = _loaded(args, tmp_path)
    assert replayed == {"pytea_ci.cli", "pytea_ci.cli.common", "pytea_ci.driver", "pytea_ci.driver.fs", "pytea_ci.driver.identity",
                        "pytea_ci.driver.replay"}, replayed


def test_a_machine_branch_needs_no_z3(tmp_path: Path) -> None:
    """`"cuda" if torch.cuda.is_available() else "cpu"` asks only one-symbol questions (solver/presolve.py)."""
    (tmp_path / "main.py").write_text("import torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
                                      "x = torch.zeros(2, 3).to(device) @ torch.ones(3, 4).to(device)\n")
    cold = _loaded(["check", "--no-cache", "--root", str(tmp_path), "main.py"], tmp_path)
    assert "pytea_ci.interp.interpreter" in cold and "z3" not in cold
    (tmp_path / "main.py").write_text("import sys\nimport torch\nn = len(sys.argv)\nx = torch.zeros(n, 3).view(2, -1)\n")
    cold = _loaded(["check", "--no-cache", "--root", str(tmp_path), "main.py"], tmp_path)
    assert "z3" in cold  # a question about a product of sizes still goes to z3
