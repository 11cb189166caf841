"""Run the analyzer over entry points: one failure never stops the others."""

from __future__ import annotations

import os
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from pytea_ci import __version__
from pytea_ci.diagnostics import Diagnostic, Severity, Span
from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.interp.explore import analyze_entry
from pytea_ci.interp.interpreter import Budget
from pytea_ci.solver import Decider


@dataclass
class Options:
    root: str = "."
    budget: Budget = field(default_factory=Budget)
    solver_timeout_ms: int = 2000
    entry_options: dict[str, Any] = field(default_factory=dict)  # argparse overrides etc.
    strict: bool = False  # re-raise internal errors (used by the test suite)


def run(entries: list[str], opts: Options) -> RunResult:
    t0 = time.monotonic()
    decider = Decider(timeout_ms=opts.solver_timeout_ms, salt=f"pytea-ci {__version__}")
    result = RunResult(tool_version=__version__)
    for entry in entries:
        result.entries.append(run_one(entry, opts, decider))
    result.seconds = time.monotonic() - t0
    return result


def run_one(entry: str, opts: Options, decider: Decider) -> EntryResult:
    rel = os.path.relpath(os.path.abspath(entry), os.path.abspath(opts.root))
    try:
        return analyze_entry(entry, opts.root, decider, opts.budget, opts.entry_options, opts.root, opts.strict)
    except Exception as e:  # an analyzer bug: report it for this entry point, keep going
        if opts.strict:
            raise
        where = traceback.extract_tb(e.__traceback__)[-1]
        text = f"internal error: {type(e).__name__}: {e} (at {os.path.basename(where.filename)}:{where.lineno})"
        d = Diagnostic("PT011", Severity.NOTE, Span(rel, 1, 0), f"analysis failed: {text}", entry=rel)
        return EntryResult(rel, [d], status="internal-error", error=text)
