"""The layer boundaries of DESIGN.md §2 and the code-quality gates (ruff, mypy).

Imports go one way: diagnostics <- shapes <- solver/models <- interp <- packages <- driver <- cli;
report knows only diagnostics; only the solver imports z3; nothing imports torch, numpy or the analyzed
code. Installed packages read from source (`packages/`) reach the interpreter only through the protocol
it declares (`interp/installed.py`): the interpreter names no installed library.
Library mode (`library/`) sits beside the driver: it calls the interpreter through its public seams and
the few driver pieces a run needs, the driver calls it, and the interpreter never knows it exists.
No import circle joins modules of different packages, counting the imports inside functions.
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
    # installed packages read from source: the interpreter's machinery, behind its `Installed` protocol
    "packages": {"interp", "models", "shapes", "solver", "diagnostics"},
    "report": {"diagnostics"},
    "driver": {"packages", "interp", "models", "shapes", "solver", "diagnostics", "report", "library"},
    # library mode runs the interpreter on one module and reports like an entry point; of the driver it
    # needs file access, discovery, the import graph, the result cache and diff snapshots (which files,
    # cached results, the base of a diff), and the project's configuration and run options (`project`,
    # `run`), never `check` (which calls it)
    "library": {"interp", "models", "shapes", "solver", "diagnostics", "driver.fs", "driver.discover",
                "driver.imports_graph", "driver.cache", "driver.gitdiff", "driver.project", "driver.run",
                "driver.pysource"},
    # the language server calls the driver like the CLI does; of the core it sees only the shape recorder
    "lsp": {"driver", "report", "diagnostics", "interp.observe", "library.run", "library.targets", "fixes"},
    # verified repairs: candidates from a finding's data, proven by re-running the driver on the edited
    # text through the editor overlay; the core never knows repairs exist
    "fixes": {"driver", "diagnostics", "interp.observe"},
}
FORBIDDEN_EVERYWHERE = {"torch", "numpy", "torchvision", "PIL", "einops"}


def _imports(path: Path) -> list[str]:
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level and "." in node.module:
            out.extend(f"{node.module}.{a.name}" for a in node.names)  # `from pytea_ci.driver import fs`
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append(node.module)
    return out


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(tree: ast.Module) -> set[int]:
    """ids of the import nodes under `if TYPE_CHECKING:` (never run: no circle through them)."""
    return {id(n) for st in ast.walk(tree) if isinstance(st, ast.If) and ast.unparse(st.test) == "TYPE_CHECKING"
            for b in st.body for n in ast.walk(b)}


def _module_graph() -> dict[str, set[str]]:
    """module -> the pytea_ci modules it imports, anywhere in it (inside functions too)."""
    paths = {_module_name(p): p for p in PKG.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text())
        skip = _type_checking_only(tree)
        out: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names if a.name in paths)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level and node.module in paths:
                subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in paths]
                out.update(subs or [node.module])
        graph[name] = out - {name}
    return graph


def _package(module: str) -> str:
    return module.split(".")[1] if module.count(".") else ""


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    m = stack.pop()
                    on.discard(m)
                    comp.append(m)
                    if m == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
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


def test_no_import_circle_joins_modules_of_different_packages() -> None:
    mixed = [c for c in _cycles(_module_graph()) if len({_package(m) for m in c}) > 1]
    assert not mixed, "\n".join(" <-> ".join(c) for c in mixed)


def test_the_cycle_finder_finds_a_circle_through_a_function_level_import() -> None:
    graph = {"pytea_ci.a.x": {"pytea_ci.b.y"}, "pytea_ci.b.y": {"pytea_ci.a.x"}, "pytea_ci.c.z": {"pytea_ci.a.x"}}
    assert _cycles(graph) == [["pytea_ci.a.x", "pytea_ci.b.y"]]


def test_the_interpreter_knows_nothing_of_library_mode() -> None:
    """interp/ imports nothing of library/ (its row above forbids it too) and never names it: library
    mode plugs into the interpreter through its declared seams."""
    bad = []
    for path in (PKG / "interp").rglob("*.py"):
        text = path.read_text()
        bad += [f"{path.relative_to(ROOT)} imports {m}" for m in _imports(path) if m.startswith("pytea_ci.library")]
        bad += [f"{path.relative_to(ROOT)} names it: {m.group(0)!r}"
                for m in re.finditer(r"(?i)library[ -]mode\b|library_(run|verdict|inputs|report|plausible|sites)"
                                     r"|LibraryInterpreter|__pytea_(dim|unknown|run|model|defined)__", text)]
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
