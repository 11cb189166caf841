"""torch's run-time checks a program calls itself: `torch._assert(cond, msg)` (what `assert` is where
TorchScript cannot trace one: AssertionError) and `torch._check(cond, msg)` with its siblings
(`_check_index`: IndexError, `_check_value`: ValueError, `_check_type`: TypeError). Each states
`cond` as the program's own requirement, as an `assert` does: assumed from here on, and when it can
never hold the program raises (the path ends, recorded; the check is the program's, not torch's
shape rule, so it is not a finding by itself)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model

_RAISES = {"_assert": "AssertionError", "_check": "RuntimeError", "_check_index": "IndexError",
           "_check_value": "ValueError", "_check_type": "TypeError"}


def _declare(name: str, kind: str) -> None:
    @model(f"torch.{name}")
    def check(ctx: Ctx, *args: Any, **kwargs: Any) -> None:
        cond = args[0] if args else kwargs.get("cond", kwargs.get("condition"))
        ctx.raise_unless(cond, kind)


for _name, _kind in _RAISES.items():
    _declare(_name, _kind)
