"""The analyzed program runs eagerly: not compiled by `torch.compile`, exported, traced or scripted.
Code that asks (`torch.compiler.is_compiling()`, `torch.jit.is_tracing()`, in the forward passes of
model libraries that keep a second code path for compilers) takes the eager side, as a run of the
program does. The tensors of a tracer
(`torch.fx.Proxy`, not a tensor) and of fake mode (`FakeTensor`) are classes no tensor the program makes
belongs to (`isinstance(x, torch.fx.Proxy)` is False: `models/builtins.py`)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, native_class
from pytea_ci.shapes.tensor import Tensor


@model("torch.compiler.is_compiling", "torch.compiler.is_dynamo_compiling", "torch.compiler.is_exporting",
       "torch._dynamo.is_compiling", "torch._dynamo.external_utils.is_compiling", "torch.jit.is_tracing",
       "torch.jit.is_scripting", "torch._utils.is_compiling", "torch.fx._symbolic_trace.is_fx_tracing",
       "torch.onnx.is_in_onnx_export")
def not_compiling(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return False


@native_class("torch.fx.Proxy", "torch.fx.proxy.Proxy")
class Proxy:
    pass


@native_class("torch._subclasses.FakeTensor", "torch._subclasses.fake_tensor.FakeTensor")
class FakeTensor:
    pass


@model("torch._dynamo.allow_in_graph", "torch.compiler.allow_in_graph", "torch._dynamo.decorators.allow_in_graph")
def allow_in_graph(ctx: Ctx, fn: Any) -> Any:
    """torch's returns `fn` itself, unchanged (it records its id in the compiler's tables, no attribute set);
    of a list or tuple, a list of them. (Not modeled, a class it decorated was handed to code not followed,
    and any attribute might be on it: diffusers' `Attention`.) Of a plain value (torch raises): not known."""
    if isinstance(fn, (list, tuple)):
        items = ctx.iterate(fn)
        return [allow_in_graph(ctx, x) for x in items] if items is not None else ctx.unknown("allow_in_graph")
    if fn is None or isinstance(fn, (bool, int, float, str, bytes, dict, set, Tensor)):
        return ctx.unknown("allow_in_graph of a value that is not callable")
    return fn
