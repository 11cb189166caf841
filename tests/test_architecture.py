"""The layer boundaries of DESIGN.md §2 and the code-quality gates (ruff, mypy).

Imports go one way: diagnostics <- shapes <- solver/models <- interp <- driver <- cli; report knows
only diagnostics; only the solver imports z3; nothing imports torch, numpy or the analyzed code.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "pytea_ci"

# package -> packages it may import (besides itself, the top-level `pytea_ci` version and the shared
# file I/O of `pytea_ci.fsio`)
ALLOWED = {
    "diagnostics": set(),
    "shapes": {"diagnostics"},
    "solver": {"shapes", "diagnostics"},
    "models": {"shapes", "diagnostics"},
    "interp": {"models", "shapes", "solver", "diagnostics"},
    "report": {"diagnostics"},
    "driver": {"interp", "models", "shapes", "solver", "diagnostics", "report"},
    # the language server calls the driver like the CLI does; of the core it sees only the shape recorder
    "lsp": {"driver", "report", "diagnostics", "interp.observe"},
}
FORBIDDEN_EVERYWHERE = {"torch", "numpy", "torchvision", "PIL", "einops"}


def _imports(path: Path) -> list[str]:
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append(node.module)
    return out


def test_layers_import_one_way() -> None:
    bad = []
    for layer, allowed in ALLOWED.items():
        for path in (PKG / layer).rglob("*.py"):
            for mod in _imports(path):
                if not mod.startswith("pytea_ci."):
                    continue
                target = mod.split(".", 2)[1] if mod.count(".") >= 1 else ""
                full = ".".join(mod.split(".")[1:3])
                if target != layer and target not in allowed and full not in allowed and target not in ("__init__", "fsio"):
                    bad.append(f"{path.relative_to(ROOT)} imports {mod}")
    assert not bad, "\n".join(bad)


def test_only_the_solver_imports_z3_and_nothing_imports_torch() -> None:
    bad = []
    for path in PKG.rglob("*.py"):
        for mod in _imports(path):
            root = mod.split(".")[0]
            if root == "z3" and "solver" not in path.parts:
                bad.append(f"{path.relative_to(ROOT)} imports z3")
            if root in FORBIDDEN_EVERYWHERE:
                bad.append(f"{path.relative_to(ROOT)} imports {root}")
    assert not bad, "\n".join(bad)


RULE_ID = re.compile(r"PT\d{3}")
CATALOGUE = PKG / "diagnostics" / "rules.py"


def test_rule_ids_are_written_only_in_the_catalogue() -> None:
    """Rule codes are objects of the rule catalogue: outside `diagnostics/rules.py` a rule is named by
    its object (`INVALID_ARGUMENT`, `INCOMPLETE.id`), never by a string literal such as "PT003", so a
    renumbered or retired rule cannot live on in a copy of its id."""
    bad = []
    for path in sorted(PKG.rglob("*.py")):
        if path == CATALOGUE:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE_ID.fullmatch(node.value):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not bad, "rule ids written outside the catalogue:\n" + "\n".join(bad)


def test_the_interpreter_names_no_library_api_in_its_tables() -> None:
    """The interpreter holds no table of library names: what an API does besides its shape rule (layout,
    value ranges, devices, dtype) is declared with its model and read through the registry."""
    bad = []
    for path in sorted((PKG / "interp").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.Set, ast.Dict, ast.Tuple, ast.List)):
                keys = node.keys if isinstance(node, ast.Dict) else node.elts
                names = [k.value for k in keys if isinstance(k, ast.Constant) and isinstance(k.value, str)
                         and k.value.startswith(("torch.", "torchvision.", "numpy."))]
                if len(names) >= 2:
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {names[:3]}")
    assert not bad, "tables of library names in interp/:\n" + "\n".join(bad)


@pytest.mark.parametrize("tool", ["ruff", "mypy"])
def test_quality_gate(tool: str) -> None:
    if shutil.which(tool) is None and not (Path(sys.executable).parent / tool).exists():
        pytest.skip(f"{tool} is not installed")
    exe = str(Path(sys.executable).parent / tool) if (Path(sys.executable).parent / tool).exists() else tool
    args = [exe, "check", "pytea_ci"] if tool == "ruff" else [exe, "pytea_ci"]
    p = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
