"""Plausible sizes of a program's inputs (issue 31 item 3): a size the program reads without saying what
it is (an environment variable, a command-line argument, a config key not read; `dim.ASSUMED_SIZE` in
its note) is, for a warning's counterexample, not degenerate: at least 2, as a module's inputs checked
alone are (docs/shapes.md "Plausible inputs"), except a batch size, which may be 1. A possible mismatch (PT002) whose
only counterexamples give such a size 1 is not reported; the path goes on assuming the check holds, as
after any warning. A range the program states (`random.randint(1, 1000)`, a declared symbolic range)
is the program's own word: its 1 stays a counterexample. So is a value that may be 0 (`x % (k - 1)`
with k read from the environment): a divisor is no size.

A count of data read at run time (the lines or characters of a file, the distinct characters of a text,
the rows of a table, the entries of a listing) is the size of the data the program was written for, and
the program's constants say how large that data is at least: a check that fails only while such a count is
small (`torch.topk(logits, 10)` over a vocabulary of a text's distinct characters, `data[:64]` of a text)
and holds for any large enough data is the program's assumption about its data, not a finding (stop 35).
A check that fails for large data too (a size that must equal a constant, a last batch that must be full)
stays one, and so does a check that fails for every plausible count (an error). An empty input is such small
data too: `x.view(x.size(0), -1)` of a tensor with a row per line of a file fails only for an empty file."""

from __future__ import annotations

from pytea_ci.shapes.dim import ASSUMED_SIZE, INPUT, Sym, symbols
from pytea_ci.shapes.pred import Cond, Pred, ge
from pytea_ci.solver import Decider, Verdict

_BATCH = ("batch", "bs")
# Notes of the counts of data read at run time (models/random_.py, files.py, numpy_/creation.py, min_max.py,
# interp/exprs.py); `int()` of a file's text is a value read, not a count, and is not among them.
_COUNTS = ("number of entries read at run time", "number of lines read at run time", "number of rows read at run time",
           "sizes of data read at run time", "items a filter keeps of data read at run time")
_LARGE = 1 << 20  # "large enough data": a count the program's constants ask for is below it


def assumed(s: Sym) -> bool:
    """A size read without a stated range, and not named as a batch size."""
    note = s.note.lower()
    return s.kind == INPUT and ASSUMED_SIZE in s.note and not any(b in note for b in _BATCH)


def data_count(s: Sym) -> bool:
    """A count of data read at run time (an assumed size)."""
    return assumed(s) and any(c in s.note for c in _COUNTS)


def implausible_only(decider: Decider, cond: Cond, pc: list[Cond]) -> bool:
    """Whether `cond` fails only for implausible sizes: a degenerate one (1), or data too small for the
    program's constants (it holds once every count of data read at run time is large)."""
    if degenerate_only(decider, cond, pc):
        return True
    if not isinstance(cond, Pred):
        return False
    sizes = [s for s in symbols(cond) if isinstance(s, Sym) and assumed(s)]
    counts = [s for s in sizes if data_count(s)]
    if not counts or cond.op == "ne" and len(counts) < len(sizes):  # `!=`: a divisor read (`k - 1`) may be 0
        return False
    floor = [ge(s, _LARGE if s in counts else 2) for s in sizes]
    return decider.check(cond, pc + floor).verdict is Verdict.HOLDS


def degenerate_only(decider: Decider, cond: Cond, pc: list[Cond]) -> bool:
    """Whether `cond` holds whenever every assumed size it involves is at least 2."""
    if not isinstance(cond, Pred) or cond.op == "ne":  # a divisor that may be 0 (`x % (k - 1)`): a value, not a size
        return False
    sizes = [s for s in symbols(cond) if isinstance(s, Sym) and assumed(s)]
    if not sizes:
        return False
    return decider.check(cond, pc + [ge(s, 2) for s in sizes]).verdict is Verdict.HOLDS
