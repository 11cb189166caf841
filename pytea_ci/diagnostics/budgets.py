"""The budgets a PT011 `incomplete` note can name, and the rates that map seconds-style options to
the deterministic units budgets count (interpreter steps, z3 resource units). Here, at the bottom
of the layers, because the interpreter, the solver and the driver all speak of them.

The rates were measured once on the reference machine (2 cores, CPython 3.11, z3 4.x): they only
translate `time-budget = 20` into steps and `solver-timeout = 2000` into resource units; a faster
or busier machine runs the same number of units, so results never depend on it."""

from __future__ import annotations

STEPS_PER_SECOND = 50_000  # interpreter steps per second of a typical PyTorch program
RLIMIT_PER_MS = 4_000  # z3 resource units per millisecond of a typical shape query
# Work outside the interpreter's statements is charged in steps too, in proportion to its size, so the step
# budgets follow the real cost of a run (issue 31: a big project's parses and state copies took most of its
# time and no step). Measured on one machine under one load against its own step rate (27k steps per CPU
# second over the acceptance corpus's correct programs): `ast` parses 3.0 MB of source per second, a state
# copy (`interp/snapshot.py`) 110k objects per second, library mode's target selection reads 1.15 MB/s.
SOURCE_BYTES_PER_STEP = 100  # parsing a file
COPIES_PER_STEP = 4  # restoring (or taking) a copy of a path's state: objects copied
SELECTION_BYTES_PER_STEP = 40  # library mode's target selection: source read to find modules and callers

STEPS_PER_PATH = "steps per path"
STEPS_PER_ENTRY = "steps per entry point"
STEPS_PER_LOOP = "steps per loop"  # a long loop followed item by item: its later items summarised (a note)
SOLVER = "solver resource"
RUN = "steps per run"
WALL_CLOCK = "wall-clock safety net"  # the one budget whose hit depends on the machine: never cached
CANCELLED = "superseded run"  # the editor server stopped a run a newer edit made useless (never cached)


def steps_for(seconds: float) -> int:
    return max(1, int(seconds * STEPS_PER_SECOND))


def parse_steps(source_bytes: int) -> int:
    return source_bytes // SOURCE_BYTES_PER_STEP


def copy_steps(objects: int) -> int:
    return objects // COPIES_PER_STEP


def rlimit_for(ms: float) -> int:
    return max(1, int(ms * RLIMIT_PER_MS))
