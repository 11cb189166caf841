"""The analysis budget of one entry point. Apart from the interpreter so the driver can build
options and cache keys (a warm run) without importing the interpreter, the models or the solver."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Budget:
    paths: int = 64
    steps: int = 400_000
    unroll: int = 16
    loop_iterations: int = 2_000
    recursion: int = 60
    seconds: float = 20.0
    solver_seconds: float = 10.0  # z3 time in total per entry point
    max_file_bytes: int = 2_000_000  # larger files are skipped with a note
