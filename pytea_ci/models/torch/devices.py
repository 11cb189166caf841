"""Where tensors may live, as a per-path fact: whether anything may have been placed off the CPU.

Layouts some kernels choose depend on the device (`F.scaled_dot_product_attention` picks another
kernel on a GPU, and so another output layout), so a model that states a CPU layout asks this fact
first. It is set by every call that could place a tensor or module elsewhere: a `device=` argument, and the
models that declare `places=` (`.to(...)`/`.cuda()` with anything but a dtype or a CPU device,
`torch.device(...)` of another device, also a context manager setting the default,
`torch.set_default_device`). Shapes never depend on it.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.registry import ALWAYS, BY_ARGUMENTS
from pytea_ci.models.values import DType, Instance

OFF_CPU = "tensors may be off the CPU"


def on_cpu(v: Any) -> bool:
    """A device argument known to mean the CPU: "cpu", "cpu:0" or torch.device("cpu")."""
    if isinstance(v, str):
        return v.split(":")[0] == "cpu"
    return isinstance(v, Instance) and v.cls.name == "device" and on_cpu(v.attrs.get("type"))


def _placing(v: Any) -> bool:
    """An argument of `.to(...)` that may move to another device (a dtype, a flag or None does not,
    nor a tensor's own `x.device`: where that tensor was placed was recorded then)."""
    from_tensor = isinstance(v, Instance) and v.cls.name == "device" and v.attrs.get("from_tensor")
    return not (v is None or isinstance(v, (bool, DType)) or on_cpu(v) or from_tensor)


def note_devices(facts: dict[str, Any], places: str | None, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Record in the path's facts that a call may place tensors off the CPU: `places` is what its model
    declared (ALWAYS, BY_ARGUMENTS: unless its arguments name the CPU or a dtype, or None), and any
    `device=` argument not the CPU places too."""
    if OFF_CPU in facts:
        return
    device = kwargs.get("device")
    moves = places == ALWAYS or places == BY_ARGUMENTS and any(_placing(a) for a in (*args[1:], *kwargs.values()))
    if moves or ("device" in kwargs and device is not None and not on_cpu(device)):
        facts[OFF_CPU] = True
