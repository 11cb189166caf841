"""`Check`: a predicate over dims that an API call requires, with the data a message is built from."""

from __future__ import annotations

from dataclasses import dataclass

from pytea_ci.diagnostics.rules import SHAPE_MISMATCH, Rule
from pytea_ci.shapes.pred import Cond


@dataclass(frozen=True)
class Check:
    """What must hold, which rule it belongs to, and how to explain a failure.

    `op` names the operation ("Linear", "view"), `message` says what is required, `operands`
    lists "name: shape" lines shown under the finding.
    """

    cond: Cond
    op: str
    message: str
    rule: Rule = SHAPE_MISMATCH
    operands: tuple[str, ...] = ()
    dims: tuple[tuple[str, object], ...] = ()  # (label, dim) pairs whose origins become related locations
