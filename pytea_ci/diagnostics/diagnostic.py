"""Source spans and the `Diagnostic` record that the analyzer produces and the reporters consume."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Severity(str, enum.Enum):
    """Levels in increasing order of gravity; values match SARIF's `level`."""

    NOTE = "note"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return {"note": 0, "warning": 1, "error": 2}[self.value]


@dataclass(frozen=True)
class Span:
    """A source range: 1-based lines, 0-based columns (as `ast` gives them), end exclusive."""

    path: str
    line: int
    col: int = 0
    end_line: int | None = None
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col + 1}"


@dataclass(frozen=True)
class Related:
    """A secondary location, e.g. where a dimension involved in a failing check was born. `label` and
    `value` are the data the message was built from when it names a concrete size (`in_features`, 500):
    the repairs (pytea_ci/fixes/) read them instead of the prose."""

    span: Span
    message: str
    label: str = ""
    value: int | None = None


@dataclass(frozen=True)
class Edit:
    """Replace the text of `span` (which has its end) by `text`."""

    span: Span
    text: str


@dataclass(frozen=True)
class Fix:
    """A repair proven by re-analysis (pytea_ci/fixes/): `title` says it in a few words (`in_features 500 -> 320`);
    `safe` when it changes literals only and the re-analysis followed every path."""

    title: str
    edits: tuple[Edit, ...]
    safe: bool


@dataclass(frozen=True)
class Frame:
    """One step of the execution path from the entry point to the failing operation."""

    span: Span
    message: str


@dataclass(frozen=True)
class Diagnostic:
    """One finding. `rule` is the id of a rule of the catalogue (`SHAPE_MISMATCH.id`); the message is complete prose."""

    rule: str
    severity: Severity
    span: Span
    message: str
    notes: tuple[str, ...] = ()
    related: tuple[Related, ...] = ()
    trace: tuple[Frame, ...] = ()
    counterexample: dict[str, int] = field(default_factory=dict)
    entry: str = ""
    fix: Fix | None = None
    sizes: tuple[tuple[str, int], ...] = ()  # the concrete sizes the failing check compared, by label

    def key(self) -> tuple[str, str, int, int]:
        """Identity used to de-duplicate: one finding per rule and location, whichever paths reach it
        (the first path's message is kept)."""
        return (self.rule, self.span.path, self.span.line, self.span.col)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.span.path, self.span.line, self.span.col, self.rule)
