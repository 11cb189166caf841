"""Per parsed file, what library mode's project-wide searches read for every module class: the file's
import statements, and per scope (the module body, each function) its names assigned once and its
calls outside nested definitions. Computed once per tree, not once per (class, file): a project with
hundreds of module classes (timm: 745) walked every file's whole tree once per class that its text
names, which took minutes before any module was analyzed."""

from __future__ import annotations

import ast
import weakref
from dataclasses import dataclass

from pytea_ci.driver.pysource import assigned_once

Import = ast.Import | ast.ImportFrom


@dataclass(frozen=True)
class CallScope:
    assigned: dict[str, ast.expr | None]  # `pysource.assigned_once` of the scope's body (read, never changed)
    calls: tuple[ast.Call, ...]  # in `ast.walk` order per statement, statement by statement


_IMPORTS: "weakref.WeakKeyDictionary[ast.Module, tuple[Import, ...]]" = weakref.WeakKeyDictionary()
_SCOPES: "weakref.WeakKeyDictionary[ast.Module, tuple[CallScope, ...]]" = weakref.WeakKeyDictionary()


def imports(tree: ast.Module) -> tuple[Import, ...]:
    """Every `import` / `from ... import` of the file, nested ones too, in `ast.walk` order."""
    found = _IMPORTS.get(tree)
    if found is None:
        found = _IMPORTS[tree] = tuple(n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)))
    return found


def call_scopes(tree: ast.Module) -> tuple[CallScope, ...]:
    """The module body and every function body, each with its calls (not those of definitions nested in it)."""
    found = _SCOPES.get(tree)
    if found is None:
        bodies = [tree.body] + [n.body for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        found = _SCOPES[tree] = tuple(CallScope(assigned_once(body), _calls(body)) for body in bodies)
    return found


def _calls(body: list[ast.stmt]) -> tuple[ast.Call, ...]:
    return tuple(node for st in body if not isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                 for node in ast.walk(st) if isinstance(node, ast.Call))
