"""Applying the facets a model declares (registry.Facets) around a call of it, and which models are
tensor operations: the interpreter calls `before_call` and `after_call` and names no API itself.

After the model computed its result: the device and dtype origin (dtype_device.after_model), the
memory layout (strides, and whether it is dense for certain), then the value range (ranges.values_after),
in that order.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pytea_ci.models import contents
from pytea_ci.models.dtype_device import after_model
from pytea_ci.models.prim import contiguous_strides, is_dense
from pytea_ci.models.ranges import values_after
from pytea_ci.models.registry import CONTIGUOUS, KEEPS, LIKE_INPUT, facets_of
from pytea_ci.models.torch.devices import note_devices
from pytea_ci.models.values import Instance, Unknown
from pytea_ci.shapes.tensor import Tensor

_TENSOR_LIBS = ("torch.", "torchvision.", "numpy.", "einops.")
_NOT_TENSOR_OPS = ("torch.optim.", "torch.save", "torch.manual_seed", "torch.load", "torchvision.utils.save_image")


def of_tensor_library(name: str) -> bool:
    """A model of a tensor library (torch, torchvision, numpy, einops)."""
    return name.startswith(_TENSOR_LIBS)


def is_tensor_op(name: str) -> bool:
    """A model whose calls count as tensor operations for coverage."""
    return name.startswith(_TENSOR_LIBS) and not name.startswith(_NOT_TENSOR_OPS)


def reads_data(name: str) -> bool:
    """The model returns a value read from tensor data (`.item()`): a result not understood does not
    make the operation unchecked."""
    return facets_of(name).reads_data


def before_call(facts: dict[str, Any], name: str, args: tuple, kwargs: dict) -> None:
    """What a call of `name` (a model, or an API not modeled) tells the path before it runs: whether
    it may place tensors off the CPU."""
    note_devices(facts, facets_of(name).places, args, kwargs)


def after_call(ctx: Any, name: str, out: Any, args: tuple, kwargs: dict) -> Any:
    """The result `out` of the model `name` with its device, dtype origin, layout and value range."""
    f = facets_of(name)
    out = after_model(ctx, name, f.device, out, args, kwargs)
    if isinstance(out, Tensor) and f.layout != KEEPS:
        out = _layout_after(f.layout, out, args)
    if isinstance(out, Tensor) and out.dense and not _dense_operands(args, kwargs):
        out = dataclasses.replace(out, dense=None)
    return contents.after(name, values_after(ctx, name, f.values, out, args, kwargs), args, kwargs)


_SCALARS = ("int", "float", "bool", "str", "complex")


def _dense_operands(args: tuple, kwargs: dict) -> bool:
    """Whether a tensor made from these arguments is dense for certain (`torch.strided`): no operand (one
    level into lists and tuples) is a tensor of layout not known or a value not understood that may be
    one, and no `layout=` other than `torch.strided` is asked for. Else its layout is not known: many ops
    keep a sparse input's layout (`zeros_like`, `coalesce`, `* 2`)."""
    wanted = kwargs.get("layout")
    if wanted is not None and not (isinstance(wanted, Instance) and wanted.cls.name == "layout"
                                   and wanted.attrs.get("name") == "strided"):
        return False
    for v in (*args, *kwargs.values()):
        for x in v if isinstance(v, (list, tuple)) else (v,):
            if (isinstance(x, Tensor) and not x.dense) or (isinstance(x, Unknown) and x.pytype not in _SCALARS):
                return False
    return True


def _layout_after(layout: str | None, out: Tensor, args: tuple) -> Tensor:
    """Memory layout (strides, read only by `view`): views compute theirs; fresh and explicitly
    contiguous tensors have contiguous strides; element-wise ops on one tensor (a Python number or
    tensors of the very same layout beside it) allocate their output like their input, so a dense
    input's layout is kept (checked against torch, tests/oracle); after any other op the layout is not
    known (many ops keep their input's layout, so guessing "contiguous" would invent errors)."""
    if layout == CONTIGUOUS and out.shape is not None and out.lib == "torch":
        return dataclasses.replace(out, strides=contiguous_strides(out.shape), origin=None, vrange=None)
    if layout == LIKE_INPUT and args and isinstance(src := args[0], Tensor) and src.strides is not None \
            and src.shape == out.shape \
            and all((a.shape, a.strides) == (src.shape, src.strides) for a in args[1:] if isinstance(a, Tensor)) \
            and out.shape is not None and is_dense(out.shape, src.strides):
        return dataclasses.replace(out, strides=src.strides, origin=None, vrange=None)
    return dataclasses.replace(out, strides=None, origin=None, vrange=None) if out.strides is not None else out
