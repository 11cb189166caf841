"""String-keyed registries of installed packages, resolved from their source (issue 21).

Model libraries look models up by name in a table their decorators fill at import time: timm's
`create_model("resnet50")` asks `_model_entrypoints`, which `@register_model` filled when
`timm.models.resnet` ran. Running every module that registers something costs the whole package
(and `lazy.py` defers those imports); instead the key is found in the text of the package's
files: a top-level `def <key>(...)` decorated by the registry's decorator (`@register_model`,
`@x.register_model`, `@register_model(...)`), and only the module that defines it is imported.

`registered(interp, "timm.models", "register_model", "resnet50")` gives the function, or None when
the key is not found that way (a name built at run time, a key registered by other means): the model
asking (`models/timm_.py`) then gives a value not understood naming the registry and the key.
"""

from __future__ import annotations

import ast
import os
import re
from typing import TYPE_CHECKING, Any

from pytea_ci.fsio import read_source
from pytea_ci.interp.runtime import ModuleVal, Scope

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

_MAX_FILES = 2000  # a package folder larger than this is not scanned (the key stays unknown)
_FOUND: dict[tuple[str, str, str], str | None] = {}  # (package file, decorator, key) -> defining module


def registered(interp: "Interpreter", package: str, decorator: str, key: str) -> Any:
    """The function registered under `key` by `@decorator` in the modules of `package`, or None."""
    init = interp.find_module_file(package)
    if init is None or os.path.basename(init) != "__init__.py" or not key.isidentifier():
        return None
    memo = (init, decorator, key)
    if memo not in _FOUND:
        _FOUND[memo] = _scan(interp, package, os.path.dirname(init), decorator, key)
    dotted = _FOUND[memo]
    if dotted is None:
        return None
    mod = interp.import_module(dotted, Scope({}, {}), ast.Pass())
    if not isinstance(mod, ModuleVal):
        return None
    return mod.globals.get(key)


def _scan(interp: "Interpreter", package: str, folder: str, decorator: str, key: str) -> str | None:
    pattern = re.compile(rf"^def\s+{re.escape(key)}\s*\(", re.MULTILINE)
    for rel in _modules(folder):
        path = os.path.join(folder, rel)
        text = read_source(path)
        if text is None or decorator not in text or not pattern.search(text):
            continue
        tree = interp.shared.parse(path)
        if isinstance(tree, ast.Module) and any(_decorated(s, decorator, key) for s in tree.body):
            name = rel[:-3].replace(os.sep, ".")
            return f"{package}.{name[:-len('.__init__')] if name.endswith('.__init__') else name}"
    return None


def _modules(folder: str) -> list[str]:
    out: list[str] = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d.isidentifier())
        out += sorted(os.path.relpath(os.path.join(here, f), folder) for f in files if f.endswith(".py"))
        if len(out) > _MAX_FILES:
            return []
    return out


def _decorated(stmt: ast.stmt, decorator: str, key: str) -> bool:
    if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) or stmt.name != key:
        return False
    for deco in stmt.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        name = target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else None
        if name == decorator:
            return True
    return False
