"""timm's model registry (issue 21), for an installed timm read from source.

`timm.create_model("resnet18", num_classes=0)` runs from timm's source (`_factory.py`: keyword
pruning, `pretrained` tags, the layer config); the name is looked up in `_model_entrypoints`, a table
`@register_model` fills as each model module is imported. The package's `__init__` imports are
deferred (`packages/lazy.py`), so the table is read from the source instead: the model function
is the top-level `def <name>` decorated `@register_model` in `timm.models`, and only its module is
imported (`ctx.registered`). A name that is not a string literal, or not found that way, is a value
not understood naming the registry and the name — never a missing model (timm would raise).
Everything else (the model's classes, `num_features`, `get_classifier`, `reset_classifier`,
`forward_features`) is timm's own source.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model

_PACKAGE, _DECORATOR = "timm.models", "register_model"


@model("timm.models._registry.model_entrypoint")
def model_entrypoint(ctx: Ctx, model_name: Any, module_filter: Any = None) -> Any:
    """The function `@register_model` registered under the name (its pretrained tag dropped)."""
    if not isinstance(model_name, str):
        return ctx.unknown("timm model registry: a model name not known")
    arch = model_name.split(".", 1)[0]
    found = ctx.registered(_PACKAGE, _DECORATOR, arch)
    return found if found is not None else ctx.unknown(f"timm model registry: '{arch}' not found in the source")


@model("timm.models._registry.is_model")
def is_model(ctx: Ctx, model_name: Any) -> Any:
    """True for a name registered in the source; not known otherwise (never False: timm would raise)."""
    if isinstance(model_name, str) and ctx.registered(_PACKAGE, _DECORATOR, model_name.split(".", 1)[0]) is not None:
        return True
    return ctx.unknown("timm model registry: a model name not found in the source")
