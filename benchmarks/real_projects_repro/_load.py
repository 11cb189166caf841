"""Shared by the reproductions here: a reviewed project's own definitions, read at run time from the
sweep's cache (`$PYTEA_REAL_CACHE/src/<project>-<version>`, as benchmarks/real_projects.py unpacks it),
so that torch runs the project's code without its other imports and without our repository holding it."""

from __future__ import annotations

import ast
import os
from typing import Any


def source_dir(project: str) -> str:
    cache = os.environ.get("PYTEA_REAL_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "pytea-ci-real")
    return os.path.join(cache, "src", project)


def definitions(project: str, path: str, names: list[str], scope: dict[str, Any]) -> dict[str, Any]:
    """Run the top-level `def`/`class` statements called `names` of `path` (in `project`) in `scope`."""
    with open(os.path.join(source_dir(project), path), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    wanted = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
    missing = set(names) - {n.name for n in wanted}
    if missing:
        raise SystemExit(f"{path}: no definition of {sorted(missing)}")
    exec(compile(ast.Module(wanted, []), path, "exec"), scope)
    return scope
