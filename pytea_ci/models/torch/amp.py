"""Mixed precision: `GradScaler` (`torch.cuda.amp` / `torch.amp`) scales the loss and steps the
optimizer; shapes are not affected (`autocast` lives with the other context managers)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import scalar_unknown
from pytea_ci.models.registry import native_class
from pytea_ci.models.values import Instance


@native_class("torch.cuda.amp.GradScaler", "torch.amp.GradScaler", "torch.GradScaler", identity_eq=True)
class GradScaler:
    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        return None

    def scale(ctx: Ctx, self: Instance, outputs: Any) -> Any:
        return outputs  # loss * scale: the same shape

    def step(ctx: Ctx, self: Instance, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        return None

    def update(ctx: Ctx, self: Instance, *args: Any) -> Any:
        return None

    def unscale_(ctx: Ctx, self: Instance, optimizer: Any) -> Any:
        return None

    def get_scale(ctx: Ctx, self: Instance) -> Any:
        return scalar_unknown(ctx, "loss scale", "float")

    def is_enabled(ctx: Ctx, self: Instance) -> Any:
        return scalar_unknown(ctx, "GradScaler enabled", "bool")

    def state_dict(ctx: Ctx, self: Instance) -> Any:
        return ctx.unknown("GradScaler state")

    def load_state_dict(ctx: Ctx, self: Instance, state: Any) -> Any:
        return None
