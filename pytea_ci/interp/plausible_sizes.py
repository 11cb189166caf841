"""Plausible sizes of a program's inputs (issue 31 item 3): a size the program reads without saying what
it is (an environment variable, a command-line argument, a config key not read; `dim.ASSUMED_SIZE` in
its note) is, for a warning's counterexample, not degenerate: at least 2, as a module's inputs checked
alone are (docs/shapes.md "Plausible inputs"), except a batch size, which may be 1. A possible mismatch (PT002) whose
only counterexamples give such a size 1 is not reported; the path goes on assuming the check holds, as
after any warning. A range the program states (`random.randint(1, 1000)`, a declared symbolic range)
is the program's own word: its 1 stays a counterexample. So is a value that may be 0 (`x % (k - 1)`
with k read from the environment): a divisor is no size."""

from __future__ import annotations

from pytea_ci.shapes.dim import ASSUMED_SIZE, INPUT, Sym, symbols
from pytea_ci.shapes.pred import Cond, Pred, ge
from pytea_ci.solver import Decider, Verdict

_BATCH = ("batch", "bs")


def assumed(s: Sym) -> bool:
    """A size read without a stated range, and not named as a batch size."""
    note = s.note.lower()
    return s.kind == INPUT and ASSUMED_SIZE in s.note and not any(b in note for b in _BATCH)


def degenerate_only(decider: Decider, cond: Cond, pc: list[Cond]) -> bool:
    """Whether `cond` holds whenever every assumed size it involves is at least 2."""
    if not isinstance(cond, Pred) or cond.op == "ne":  # a divisor that may be 0 (`x % (k - 1)`): a value, not a size
        return False
    sizes = [s for s in symbols(cond) if isinstance(s, Sym) and assumed(s)]
    if not sizes:
        return False
    return decider.check(cond, pc + [ge(s, 2) for s in sizes]).verdict is Verdict.HOLDS
