"""Verified repairs (issue 34): for a finding, the one edit that makes its check hold, offered only after
the edited program has been re-analyzed and the finding is gone with no new finding on any path.

Owns: deriving candidate edits from a finding's structured data (`candidates.py`: the concrete sizes and
origins of `Related`, the call at the finding's span; `operands.py`: the operands of the failing
operation; `nearby.py`: the lines of its path just before it), proving them (`prove.py`: the entry point
re-run by the driver with the edited text as an editor overlay, `interp/observe.py`'s `Editor`, same
options), and applying or showing them (`apply.py`: rewritten files, a unified diff).

Calls: the driver (`driver.project` for run options, `driver.run.run_one` for one entry point) and the
diagnostics vocabulary (`Fix`, `Edit`). The interpreter, models and solver do not know repairs exist;
reporters only render the `Fix` a diagnostic carries.
"""

from pytea_ci.fixes.apply import apply_fixes, unified_diff
from pytea_ci.fixes.prove import Prover, attach

__all__ = ["Prover", "attach", "apply_fixes", "unified_diff"]
