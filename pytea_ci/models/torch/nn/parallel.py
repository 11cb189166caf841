"""Running a module on several devices, and the autograd and gradient helpers training loops call
around it: nn.DataParallel / DistributedDataParallel and nn.parallel.data_parallel (on the CPU the
analysis assumes, the wrapped module's own forward) and nn.utils.clip_grad_norm_ / clip_grad_value_ (no
shape effect; the norm is a 0-d tensor); `torch.autograd` lives in models/torch/autograd.py."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import placed
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.torch.nn.module import Module
from pytea_ci.models.values import Instance
from pytea_ci.shapes.tensor import Tensor


@native_class("torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.DistributedDataParallel",
              bases=(Module,))
class DataParallel:
    def init(ctx: Ctx, self: Instance, module: Any, *args: Any, **kwargs: Any) -> None:
        self.attrs.update(training=True, module=module)

    def forward(ctx: Ctx, self: Instance, *inputs: Any, **kwargs: Any) -> Any:
        inputs, kwargs = _scattered(ctx, inputs), {k: _scattered(ctx, v) for k, v in kwargs.items()}
        return _scattered(ctx, ctx.call(self.attrs["module"], *inputs, **kwargs))


@model("torch.nn.parallel.data_parallel")
def data_parallel(ctx: Ctx, module: Any, inputs: Any, *args: Any, module_kwargs: Any = None, **kwargs: Any) -> Any:
    inputs = _scattered(ctx, inputs if isinstance(inputs, tuple) else (inputs,))
    return _scattered(ctx, ctx.call(module, *inputs, **(module_kwargs if isinstance(module_kwargs, dict) else {})))


def _scattered(ctx: Ctx, v: Any) -> Any:
    """Data parallelism copies inputs to the module's devices and gathers the outputs: no claim about
    where the tensors are (issue 22), so their devices become unknown."""
    if isinstance(v, Tensor):
        return placed(ctx, v, None, "DataParallel")
    if isinstance(v, tuple) and type(v) is tuple:
        return tuple(_scattered(ctx, x) for x in v)
    if isinstance(v, list):
        return [_scattered(ctx, x) for x in v]
    if isinstance(v, dict):
        return {k: _scattered(ctx, x) for k, x in v.items()}
    return v


@model("torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_norm", "torch.nn.utils.clip_grad_value_")
def clip_grad(ctx: Ctx, parameters: Any, *args: Any, **kwargs: Any) -> Any:
    return Tensor(())
