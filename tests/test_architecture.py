"""The layer boundaries of DESIGN.md §2 and the code-quality gates (ruff, mypy).

Imports go one way: diagnostics <- shapes <- solver/models <- interp <- packages <- driver <- cli;
report knows only diagnostics; only the solver imports z3; nothing imports torch, numpy or the analyzed
code. Installed packages read from source (`packages/`) reach the interpreter only through the protocol
it declares (`interp/installed.py`): the interpreter names no installed library.
"""

from __future__ import annotations

import ast
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
    # installed packages read from source: the interpreter's machinery, behind its `Installed` protocol
    "packages": {"interp", "models", "shapes", "solver", "diagnostics"},
    "report": {"diagnostics"},
    "driver": {"packages", "interp", "models", "shapes", "solver", "diagnostics", "report"},
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


# what only `packages/` may name: installed libraries and their hubs (models/ holds their API models)
_INSTALLED_NAMES = ("transformers", "timm", "from_pretrained", "from_config", "register_model", "huggingface")


def _names_in_code(path: Path) -> set[str]:
    """Identifiers, imported names and string constants of a file, docstrings and comments left out."""
    tree = ast.parse(path.read_text())
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.alias):
            out.add(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            out.add(node.value)
    return out


def test_the_interpreter_names_no_installed_library() -> None:
    bad = []
    for path in (PKG / "interp").rglob("*.py"):
        for name in _names_in_code(path):
            bad += [f"{path.relative_to(ROOT)} names {word}" for word in _INSTALLED_NAMES if word in name]
    assert not bad, "\n".join(sorted(set(bad)))


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


@pytest.mark.parametrize("tool", ["ruff", "mypy"])
def test_quality_gate(tool: str) -> None:
    if shutil.which(tool) is None and not (Path(sys.executable).parent / tool).exists():
        pytest.skip(f"{tool} is not installed")
    exe = str(Path(sys.executable).parent / tool) if (Path(sys.executable).parent / tool).exists() else tool
    args = [exe, "check", "pytea_ci"] if tool == "ruff" else [exe, "pytea_ci"]
    p = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
