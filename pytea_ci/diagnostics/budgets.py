"""The budgets a PT011 `incomplete` note can name, and the rates that map seconds-style options to
the deterministic units budgets count (interpreter steps, z3 resource units). Here, at the bottom
of the layers, because the interpreter, the solver and the driver all speak of them.

The rates were measured once on the reference machine (2 cores, CPython 3.11, z3 4.x): they only
translate `time-budget = 20` into steps and `solver-timeout = 2000` into resource units; a faster
or busier machine runs the same number of units, so results never depend on it."""

from __future__ import annotations

STEPS_PER_SECOND = 50_000  # interpreter steps per second of a typical PyTorch program
RLIMIT_PER_MS = 4_000  # z3 resource units per millisecond of a typical shape query

STEPS_PER_PATH = "steps per path"
STEPS_PER_ENTRY = "steps per entry point"
SOLVER = "solver resource"
RUN = "steps per run"
WALL_CLOCK = "wall-clock safety net"  # the one budget whose hit depends on the machine: never cached
CANCELLED = "superseded run"  # the editor server stopped a run a newer edit made useless (never cached)


def steps_for(seconds: float) -> int:
    return max(1, int(seconds * STEPS_PER_SECOND))


def rlimit_for(ms: float) -> int:
    return max(1, int(ms * RLIMIT_PER_MS))
