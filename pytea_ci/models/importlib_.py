"""`importlib.util.find_spec` and `importlib.metadata.version` as CPython answers them where the program
runs: `find_spec` is None for a top-level module the environment named with `--python` lacks (nor the
project, the standard library or the models have it), so a package's `is_x_available()` is decided
there instead of forking each path (transformers 5 asks for flash_attn, NPU and kernel packages as a
model is built); torch, which the analysis takes as installed (its models stand for it), has a spec and
the modeled torch's version.

`importlib.import_module(name, package)` and `__import__(name, ..., fromlist, level)` of a name known
here (`'models.' + args.model` with the model named on the command line, `--arg model=TextCNN`) import
it as the program's own import statement would: a project module is run and followed, a modeled
library is its model. A name not known (a required option nobody gave) gives a module not known that
keeps the name's origin, so the note names what to configure. Anything else stays unknown."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.machine import TORCH_VERSION
from pytea_ci.models.registry import lookup, model, native_class
from pytea_ci.models.values import MISSING, Instance, Unknown
from pytea_ci.shapes.tensor import Origin


@native_class("importlib.machinery.ModuleSpec")
class ModuleSpec:
    pass


@model("importlib.util.find_spec")
def find_spec(ctx: Ctx, name: Any, package: Any = None) -> Any:
    if isinstance(name, str) and name and not name.startswith("."):
        if ctx.module_absent(name.split(".")[0]):
            return None
        if name.split(".")[0] == "torch" and lookup(name) is not MISSING:
            return Instance(ModuleSpec, {"name": name, "parent": name.rpartition(".")[0]})  # type: ignore[arg-type]
    return ctx.unknown("importlib.util.find_spec")


@model("importlib.metadata.version")
def version(ctx: Ctx, name: Any) -> Any:
    return TORCH_VERSION if name == "torch" else ctx.unknown("importlib.metadata.version")


def _resolved(name: str, package: Any, level: int) -> str | None:
    """The absolute name of a relative import (importlib._bootstrap._resolve_name), None where CPython
    raises (no package, beyond the top-level package)."""
    if level == 0:
        return name
    if not isinstance(package, str) or not package or package.count(".") < level - 1:
        return None
    base = package.rsplit(".", level - 1)[0]
    return f"{base}.{name}" if name else base


def _named(ctx: Ctx, name: Any, how: str) -> Any:
    """A module imported by a name not known: not known, from where the name came when it says."""
    origin = name.origin if isinstance(name, Unknown) and name.origin is not None else None
    what = f"{how} of a module name not known"
    return Unknown(what, None, Origin(ctx.span, f"{what}: {origin.what}") if origin is not None else Origin(ctx.span, what))


@model("importlib.import_module")
def import_module(ctx: Ctx, name: Any, package: Any = None) -> Any:
    if not isinstance(name, str) or not name:
        return _named(ctx, name, "importlib.import_module")
    level = len(name) - len(name.lstrip("."))
    dotted = _resolved(name[level:], package, level)
    return ctx.load_module(dotted) if dotted is not None else ctx.unknown("importlib.import_module: a relative name")


@model("builtins.__import__")
def dunder_import(ctx: Ctx, name: Any, globals: Any = None, locals: Any = None, fromlist: Any = (),
                  level: Any = 0) -> Any:
    """The top-level package of `name` (its module itself when `fromlist` names something), as CPython."""
    if not isinstance(name, str) or not name:
        return _named(ctx, name, "__import__")
    if level != 0:
        return ctx.unknown("__import__ with a level")
    mod = ctx.load_module(name)
    if isinstance(fromlist, (list, tuple)) and fromlist:
        return mod
    return ctx.load_module(name.partition(".")[0]) if "." in name else mod
