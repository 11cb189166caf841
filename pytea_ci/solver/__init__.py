"""Deciding checks and branch conditions: concrete fast path, then z3 (the only layer importing it)."""

from pytea_ci.solver.decide import Decider, Verdict

__all__ = ["Decider", "Verdict"]
