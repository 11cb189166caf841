"""`importlib.util.find_spec` and `importlib.metadata.version` as CPython answers them where the program
runs: `find_spec` is None for a top-level module the environment named with `--python` lacks (nor the
project, the standard library or the models have it), so a package's `is_x_available()` is decided
there instead of forking each path (transformers 5 asks for flash_attn, NPU and kernel packages as a
model is built); torch, which the analysis takes as installed (its models stand for it), has a spec and
the modeled torch's version. `importlib.import_module` and `__import__` of a name the program spells out
(`optional_import("torch.nn.functional")`, a registry of module names) import it as `import` does, and
give CPython's module (`__import__` without a `fromlist`: the top-level package). Anything else stays
unknown."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.machine import TORCH_VERSION
from pytea_ci.models.registry import lookup, model, native_class
from pytea_ci.models.values import MISSING, Instance


def _resolve(name: str, package: Any) -> "str | None":
    """The absolute name of `name` relative to `package` (importlib's `_resolve_name`); None when it cannot be."""
    level = len(name) - len(name.lstrip("."))
    if not level:
        return name
    if not isinstance(package, str) or not package or package.count(".") < level - 1:
        return None
    base = package.rsplit(".", level - 1)[0]
    return f"{base}.{name[level:]}" if name[level:] else base


@model("importlib.import_module")
def import_module(ctx: Ctx, name: Any, package: Any = None) -> Any:
    dotted = _resolve(name, package) if isinstance(name, str) else None
    return ctx.import_named(dotted) if dotted else ctx.unknown("importlib.import_module of a name not known")


@model("builtins.__import__")
def dunder_import(ctx: Ctx, name: Any, globals: Any = None, locals: Any = None, fromlist: Any = (),
                  level: Any = 0) -> Any:
    if not isinstance(name, str) or not name or level != 0 or not isinstance(fromlist, (tuple, list)):
        return ctx.unknown("__import__ of a name not known")
    mod = ctx.import_named(name)
    return mod if fromlist or "." not in name else ctx.import_named(name.split(".")[0])


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
