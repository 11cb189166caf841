"""`numpy.random.default_rng(...)` and its `Generator`: arrays of the requested size and the
dtype numpy gives (int64 from `integers`, float64 otherwise); a draw without `size` is a number of
unknown value but of the right Python type."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.numpy_.creation import _make, array_of
from pytea_ci.models.random_ import SEED, constant_seed
from pytea_ci.models.ranges import integers_values
from pytea_ci.models.registry import facets, model, native_class
from pytea_ci.models.values import Instance, Unknown
from pytea_ci.shapes.dim import is_dim
from pytea_ci.shapes.tensor import Tensor


def _draw(ctx: Ctx, size: Any, dtype: str, kwargs: dict[str, Any] | None = None) -> Any:
    if size is None:
        return Unknown("a random number", pytype="int" if dtype.startswith("int") else "float")
    return _make(ctx, size, kwargs or {}, dtype)


@native_class("numpy.random.Generator", identity_eq=True)
class Generator:
    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        return None

    @facets(values=integers_values)
    def integers(ctx: Ctx, self: Instance, low: Any, high: Any = None, size: Any = None, **kwargs: Any) -> Any:
        return _draw(ctx, size, "int64", {k: v for k, v in kwargs.items() if k == "dtype"})

    def random(ctx: Ctx, self: Instance, size: Any = None, **kwargs: Any) -> Any:
        return _draw(ctx, size, "float64")

    def normal(ctx: Ctx, self: Instance, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        return _draw(ctx, size, "float64")

    uniform = normal

    def beta(ctx: Ctx, self: Instance, a: Any, b: Any, size: Any = None) -> Any:
        return _draw(ctx, size, "float64")

    def standard_normal(ctx: Ctx, self: Instance, size: Any = None, **kwargs: Any) -> Any:
        return _draw(ctx, size, "float64")

    def permutation(ctx: Ctx, self: Instance, x: Any) -> Any:
        if isinstance(x, Tensor):
            return x
        return array_of((x,), "int64") if is_dim(x) else ctx.unknown("permutation")

    def choice(ctx: Ctx, self: Instance, a: Any, size: Any = None, **kwargs: Any) -> Any:
        if size is None:
            return ctx.unknown("a random choice")
        dtype = a.dtype if isinstance(a, Tensor) and a.dtype else "int64"
        return _make(ctx, size, {}, dtype)

    def shuffle(ctx: Ctx, self: Instance, x: Any, **kwargs: Any) -> Any:
        return None


@model("numpy.random.default_rng")
def default_rng(ctx: Ctx, seed: Any = None) -> Any:
    rng = Instance(Generator)
    rng.attrs[SEED] = constant_seed(seed)  # its draws are fixed values after a constant one (models/random_.py)
    return rng
