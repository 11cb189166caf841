"""The analysis budget of one entry point. Apart from the interpreter so the driver can build
options and cache keys (a warm run) without importing the interpreter, the models or the solver.

Budgets are deterministic: they count interpreter steps and z3 resource units (`rlimit`), never
seconds, so a commit and its input give the same paths, coverage and findings on any machine
under any load. Wall-clock time is only an outer safety net (`wall_seconds`), reported when hit.
Seconds-style options (`time-budget`, `solver-timeout`, `library-time-budget`) are mapped to
units by the rates of `diagnostics/budgets.py`."""

from __future__ import annotations

from dataclasses import dataclass

from pytea_ci.diagnostics.budgets import WALL_CLOCK, rlimit_for, steps_for

__all__ = ["WALL_CLOCK", "Budget"]


@dataclass
class Budget:
    paths: int = 64
    steps: int = 400_000  # per path
    entry_steps: int = steps_for(20.0)  # all paths of the entry point together (`time-budget`)
    unroll: int = 16
    build_unroll: int = 64  # in a module's constructor: blocks built per stage (DenseNet's 24, ResNet-152's 36)
    loop_iterations: int = 2_000
    loop_steps: int = 40_000  # a loop over a long known sequence followed item by item: then summarised
    recursion: int = 60
    solver_rlimit: int = rlimit_for(10_000)  # z3 resource units in total per entry point
    wall_seconds: float = 600.0  # the safety net: never reached by a healthy run
    run_deadline: float | None = None  # the whole run's safety net (monotonic seconds; driver/run.py RunMeter)
    max_file_bytes: int = 2_000_000  # larger files are skipped with a note
