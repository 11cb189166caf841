"""Deciding checks and branch conditions: concrete fast path, then z3 (the only layer importing it).

`Decider` and `Verdict` load on first use, so the driver can use `solver.diskcache` (a warm run)
without importing the decision layer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytea_ci.solver.decide import Decider, Verdict

__all__ = ["Decider", "Verdict"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from pytea_ci.solver import decide

        return getattr(decide, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
