"""`torch.nn.init`: in-place initialisers that return their tensor unchanged in shape; the few
that need a minimum rank (fan-in/fan-out, `eye_`, `dirac_`, `orthogonal_`) check it."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import fmt, known, shape_of
from pytea_ci.models.registry import model
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT

NS = "torch.nn.init."


def _rank_rule(ctx: Ctx, tensor: Any, ranks: tuple[int, ...] | None, op: str, message: str) -> Any:
    if ranks is not None and known(tensor):
        s = shape_of(tensor)
        ctx.require(len(s) in ranks, op, f"{message} (got a {len(s)}-D tensor {fmt(s)})", INVALID_ARGUMENT,
                    operands=(f"tensor: {fmt(s)}",))
    return tensor


@model(NS + "uniform_", NS + "normal_", NS + "constant_", NS + "zeros_", NS + "ones_", NS + "trunc_normal_",
       NS + "uniform", NS + "normal", NS + "constant")
def init_any(ctx: Ctx, tensor: Any, *args: Any, **kwargs: Any) -> Any:
    return tensor


_FAN = tuple(range(2, 65))


@model(NS + "xavier_uniform_", NS + "xavier_normal_", NS + "kaiming_uniform_", NS + "kaiming_normal_",
       NS + "xavier_uniform", NS + "xavier_normal", NS + "kaiming_uniform", NS + "kaiming_normal")
def init_fan(ctx: Ctx, tensor: Any, *args: Any, **kwargs: Any) -> Any:
    return _rank_rule(ctx, tensor, _FAN, "nn.init", "Fan in and fan out can not be computed for tensor with fewer "
                      "than 2 dimensions")


@model(NS + "orthogonal_", NS + "orthogonal", NS + "sparse_", NS + "sparse")
def init_orthogonal(ctx: Ctx, tensor: Any, *args: Any, **kwargs: Any) -> Any:
    return _rank_rule(ctx, tensor, _FAN, "nn.init", "Only tensors with 2 or more dimensions are supported")


@model(NS + "eye_")
def init_eye(ctx: Ctx, tensor: Any) -> Any:
    return _rank_rule(ctx, tensor, (2,), "nn.init.eye_", "Only tensors with 2 dimensions are supported")


@model(NS + "dirac_")
def init_dirac(ctx: Ctx, tensor: Any, groups: Any = 1) -> Any:
    return _rank_rule(ctx, tensor, (3, 4, 5), "nn.init.dirac_", "Only tensors with 3, 4, or 5 dimensions are supported")


@model(NS + "calculate_gain")
def calculate_gain(ctx: Ctx, nonlinearity: Any, param: Any = None) -> Any:
    import math

    gains = {"linear": 1.0, "conv1d": 1.0, "conv2d": 1.0, "conv3d": 1.0, "sigmoid": 1.0, "tanh": 5.0 / 3,
             "relu": math.sqrt(2.0), "selu": 3.0 / 4}
    return gains.get(nonlinearity, ctx.unknown("calculate_gain")) if isinstance(nonlinearity, str) else ctx.unknown("gain")


@model(NS + "_calculate_fan_in_and_fan_out")
def fan_in_out(ctx: Ctx, tensor: Any) -> Any:
    _rank_rule(ctx, tensor, _FAN, "nn.init", "Fan in and fan out can not be computed for tensor with fewer than 2 "
               "dimensions")
    if not known(tensor) or len(shape_of(tensor)) < 2:
        return (ctx.unknown("fan_in"), ctx.unknown("fan_out"))
    s = shape_of(tensor)
    field: Any = 1
    for d in s[2:]:
        field = field * d
    return (s[1] * field, s[0] * field)
