"""`torch.nn.modules.distance`: nn.CosineSimilarity and nn.PairwiseDistance, and their functional
forms (`F.cosine_similarity`, `F.pairwise_distance`): the inputs broadcast, the dim is reduced."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import broadcast_shapes, known, norm_dim, shape_of
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.values import Instance


def distance_forward(ctx: Ctx, x1: Any, x2: Any, dim: Any, keepdim: bool, op: str) -> Any:
    if not known(x1, x2):
        return ctx.unknown(f"{op} of unknown input")
    s = broadcast_shapes(ctx, shape_of(x1), shape_of(x2), op, ("x1", "x2"))
    if not s:
        return x1.with_shape(())
    d = norm_dim(ctx, dim, len(s), op)
    if d is None:
        return ctx.unknown(f"{op} over an unknown dim")
    return x1.with_shape(tuple(1 if (i == d and keepdim) else x for i, x in enumerate(s) if i != d or keepdim))


@native_class("torch.nn.CosineSimilarity", bases=(Module,))
class CosineSimilarity:
    def init(ctx: Ctx, self: Instance, dim: Any = 1, eps: Any = 1e-8) -> None:
        self.attrs.update(training=True, dim=dim)

    def forward(ctx: Ctx, self: Instance, x1: Any, x2: Any) -> Any:
        return distance_forward(ctx, x1, x2, self.attrs["dim"], False, "CosineSimilarity")


@native_class("torch.nn.PairwiseDistance", bases=(Module,))
class PairwiseDistance:
    def init(ctx: Ctx, self: Instance, p: Any = 2.0, eps: Any = 1e-6, keepdim: Any = False) -> None:
        self.attrs.update(training=True, keepdim=keepdim is True)

    def forward(ctx: Ctx, self: Instance, x1: Any, x2: Any) -> Any:
        return distance_forward(ctx, x1, x2, -1, self.attrs["keepdim"], "PairwiseDistance")


@model("torch.nn.functional.cosine_similarity", "torch.cosine_similarity")
def f_cosine_similarity(ctx: Ctx, x1: Any, x2: Any, dim: Any = 1, eps: Any = 1e-8) -> Any:
    return distance_forward(ctx, x1, x2, dim, False, "cosine_similarity")


@model("torch.nn.functional.pairwise_distance", "torch.pairwise_distance")
def f_pairwise_distance(ctx: Ctx, x1: Any, x2: Any, p: Any = 2.0, eps: Any = 1e-6, keepdim: Any = False) -> Any:
    return distance_forward(ctx, x1, x2, -1, keepdim is True, "pairwise_distance")


