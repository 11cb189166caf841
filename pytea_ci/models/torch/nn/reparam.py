"""`torch.nn.utils` reparametrizations of a module's weight: `weight_norm`, `spectral_norm` (the old
functions and `torch.nn.utils.parametrizations.*`) and their `remove_*`. They return the module they
were given, whose forward keeps its shapes; the parameters it holds change (`weight_g`/`weight_v`,
`weight_orig`, a `parametrizations` dict), so its parameter count becomes not known."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model
from pytea_ci.models.torch.nn.parameters import UNSURE
from pytea_ci.models.values import Instance


@model("torch.nn.utils.weight_norm", "torch.nn.utils.spectral_norm",
       "torch.nn.utils.parametrizations.weight_norm", "torch.nn.utils.parametrizations.spectral_norm",
       "torch.nn.utils.parametrizations.orthogonal")
def reparametrized(ctx: Ctx, module: Any, *args: Any, **kwargs: Any) -> Any:
    if isinstance(module, Instance):
        module.attrs[UNSURE] = True
    return module


@model("torch.nn.utils.remove_weight_norm", "torch.nn.utils.remove_spectral_norm")
def removed(ctx: Ctx, module: Any, *args: Any, **kwargs: Any) -> Any:
    return module
