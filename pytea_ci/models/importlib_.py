"""`importlib.util.find_spec` and `importlib.metadata.version` as CPython answers them where the program
runs: `find_spec` is None for a top-level module the environment named with `--python` lacks (nor the
project, the standard library or the models have it), so a package's `is_x_available()` is decided
there instead of forking each path (transformers 5 asks for flash_attn, NPU and kernel packages as a
model is built); torch, which the analysis takes as installed (its models stand for it), has a spec and
the modeled torch's version. Anything else stays unknown."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.machine import TORCH_VERSION
from pytea_ci.models.registry import lookup, model, native_class
from pytea_ci.models.values import MISSING, Instance


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
