"""Objects loaded or compiled from outside the program: `torch.hub.load`, `torch.jit.load`
(unknown objects: calling them gives unknowns, never findings), `torch.jit.trace` (the traced
module or function behaves as the one given), saving calls with no shape effect, and pytree
registrations (transformers registers its `ModelOutput` at import: torch calls the functions given
only to flatten such outputs, which never changes a shape)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model


@model("torch.hub.load", "torch.jit.load", "torch.hub.load_state_dict_from_url", "torch.package.PackageImporter")
def hub_load(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return ctx.unknown("object loaded from outside the program")


@model("torch.jit.trace", "torch.jit.trace_module", "torch.jit.freeze", "torch.jit.optimize_for_inference")
def trace(ctx: Ctx, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """A traced/frozen module computes what the module given computes."""
    return fn


@model("torch.jit.save", "torch.onnx.export", "torch.hub.set_dir")
def save(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return None


@model("torch.utils._pytree.register_pytree_node", "torch.utils._pytree._register_pytree_node")
def register_pytree_node(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return None
