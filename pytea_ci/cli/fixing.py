"""The command line's side of verified repairs (pytea_ci/fixes/): `--suggest-fixes` proves them and the
reports show them, `--show-fixes` prints them as a unified diff and writes nothing, `--fix` writes the
safe ones (`--unsafe-fixes`: all) and runs the check again so the report shows what is left."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from pytea_ci.cli.common import write_stdout

if TYPE_CHECKING:
    import argparse

    from pytea_ci.driver.check import CheckOutcome
    from pytea_ci.driver.project import CheckRequest


def wanted(ns: argparse.Namespace) -> bool:
    return bool(ns.suggest_fixes or ns.fix or ns.show_fixes)


def prove(outcome: CheckOutcome, req: CheckRequest) -> int:
    """Attach the proven fixes to the outcome's findings; how many findings got one."""
    from pytea_ci.driver.project import options
    from pytea_ci.fixes import attach

    root = outcome.root
    entries = [os.path.join(root, e.entry) for e in outcome.result.entries if "::" not in e.entry]
    return attach(outcome.result, options(outcome.config, root, entries, req), root)


def show(outcome: CheckOutcome, unsafe: bool) -> int:
    """`--show-fixes`: the diff on stdout; exit 1 when there is one."""
    from pytea_ci.fixes import unified_diff

    diff = unified_diff(outcome.result, outcome.root, unsafe)
    write_stdout(diff)
    return 1 if diff else 0


def apply(outcome: CheckOutcome, req: CheckRequest, unsafe: bool) -> CheckOutcome:
    """`--fix`: write the fixes, then check again (the rewritten files are new content: no stale cache)."""
    from pytea_ci.driver.check import check as run_check
    from pytea_ci.fixes import apply_fixes

    fixed = sum(1 for d in outcome.result.diagnostics if d.fix is not None and (d.fix.safe or unsafe))
    written = apply_fixes(outcome.result, outcome.root, unsafe)
    if not written:
        return outcome
    sys.stderr.write(f"pytea-ci: fixed {fixed} finding(s) in {len(written)} file(s): {', '.join(written)}\n")
    return run_check(req)
