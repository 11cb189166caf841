"""`importlib.util.find_spec` as CPython answers it where the program runs: None for a top-level module
the environment named with `--python` lacks (nor the project, the standard library or the models have
it), so a package's `is_x_available()` is decided there instead of forking each path (transformers 5
asks for flash_attn, NPU and kernel packages as a model is built); anything else stays unknown."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model


@model("importlib.util.find_spec")
def find_spec(ctx: Ctx, name: Any, package: Any = None) -> Any:
    if isinstance(name, str) and name and not name.startswith(".") and ctx.module_absent(name.split(".")[0]):
        return None
    return ctx.unknown("importlib.util.find_spec")
