"""The collector tuned for an analyzer's heap (issue 31 item 9).

A run keeps every parsed tree of the project for its whole length (hundreds of thousands of AST nodes
in a big project) and copies a path's state at every checkpoint (tens of thousands of objects that
live as long as the path). With CPython's default thresholds the oldest generation was collected every
few seconds, each time walking every tree again: measured on monai's library mode, half of the CPU time
(`benchmarks/RESULTS.md`). So the run's long-lived objects (what discovery and selection built: the
trees, the import graph) are moved out of the collector's reach once built (`settle`), and young
collections run less often (`tune`). Neither changes what is computed: only when cyclic garbage is freed.
Only a one-shot run does it (the command line, the Action): a language server's process lives on, and what
one check froze could never be freed by the next.
"""

from __future__ import annotations

import gc

from pytea_ci.packages import disk

# allocations before a young collection, young collections before a middle one, middle ones before an
# old one (CPython: 700, 10, 10): a checkpoint's copy is tens of thousands of objects
THRESHOLDS = (20_000, 20, 10)


def tune() -> None:
    """Young collections less often (a process-wide setting: the analyzer owns its process)."""
    gc.set_threshold(*THRESHOLDS)
    disk.one_shot()  # what restored package imports read lives until the end too


def settle() -> None:
    """Free what is garbage now and keep what lives out of later collections (the parsed trees and the
    run's tables: they live until the run ends)."""
    gc.collect()
    gc.freeze()
