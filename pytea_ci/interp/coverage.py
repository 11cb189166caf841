"""Coverage bookkeeping of one entry point (DESIGN §3, "Unknowns have origins"): which tensor
operations were reached and checked, what made the others unchecked, which checks were skipped, and
which paths ended before the program's end and why.

A tensor operation is a call site (a span) of a tensor-library model (or of a callable not understood) that
received a tensor or a value not understood that could be one. A site is *checked* when, on some
path, its operands' shapes were known (concrete or symbolic) and the model computed a result; else it
is *skipped*, with the origin of the first value not understood that reached it. Shared by all paths
of the entry point.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.diagnostics import Diagnostic, Severity, Span
from pytea_ci.diagnostics.result import EntryStats
from pytea_ci.diagnostics.rules import NOTHING_CHECKED, nothing_checked_note
from pytea_ci.shapes.dim import UNKNOWN, symbols
from pytea_ci.shapes.pred import foreign_leaf, understood
from pytea_ci.shapes.tensor import Origin, Tensor
from pytea_ci.models.values import Unknown

UNRECORDED = "value not understood (origin not recorded)"
MAX_ORIGINS = 50  # per entry point, the ones that disabled the most operations


def loc(span: Span) -> list[Any]:
    return [span.path, span.line, span.col]


def origin_of_value(v: Any, span: Span) -> Origin | None:
    """The origin an operand carries: an Unknown's, or a tensor-of-unknown-shape's; None if known."""
    if isinstance(v, Unknown):
        return v.origin or Origin(span, f"{v.reason or 'value'} ({UNRECORDED})")
    if isinstance(v, Tensor) and v.shape is None:
        return v.origin or Origin(span, f"tensor of unknown shape ({UNRECORDED})")
    return None


def opaque_origin(cond: object, span: Span) -> Origin | None:
    """What keeps a check from being decided: its first size of unknown kind (sorted by name, so the
    same check names the same origin on every run), or the value not understood a model put in it; None
    when it has none."""
    leaf = foreign_leaf(cond) if not understood(cond) else None
    if leaf is not None:
        found = getattr(leaf, "origin", None)
        return found if isinstance(found, Origin) else Origin(span, "a value not understood in a size check")
    opaque = sorted((s for s in symbols(cond) if s.kind == UNKNOWN), key=lambda s: s.name)
    if not opaque:
        return None
    s = opaque[0]
    return Origin(s.origin or span, f"a size of unknown kind: {s.note or s.name}")


def first_origin(values: Any, span: Span, depth: int = 2) -> Origin | None:
    """The first origin among `values` (one level into lists, tuples and dicts)."""
    for v in values:
        o = origin_of_value(v, span)
        if o is not None:
            return o
        if depth > 1 and isinstance(v, (list, tuple)) and not isinstance(v, str):
            o = first_origin(v, span, depth - 1)
            if o is not None:
                return o
    return None


class Coverage:
    def __init__(self) -> None:
        self.ops: dict[Span, Origin | None] = {}  # call site -> None once checked, else what disabled it
        self.checks_decided = 0
        self.checks_skipped = 0
        self.skipped: dict[Span, Origin] = {}  # where a check needing a size of unknown kind was skipped
        self.ended: dict[tuple[str, Span, str, str | None], int] = {}  # (kind, span, reason, module) -> paths
        self.library_used = False  # a tensor-library API was called (even if no tensor operation was reached)
        # (file as shown, class) of the project's nn.Module classes built (outside another module's
        # constructor), and of those whose `forward` some path reached with every argument known: the
        # entry point checked it on those inputs (the driver may check the others alone)
        self.modules_built: set[tuple[str, str]] = set()
        self.modules_run: set[tuple[str, str]] = set()
        self.building = 0  # constructors of project modules running (the outermost's module is the one built)

    def op(self, span: Span, origin: Origin | None) -> None:
        """A tensor operation reached at `span` (one per call site: a module call and the `forward`
        it runs are one operation): checked when `origin` is None, else skipped because of it."""
        if origin is None:
            self.ops[span] = None
        elif span not in self.ops:
            self.ops[span] = origin

    def forward_reached(self, key: tuple[str, str] | None, args: tuple, kwargs: dict, span: Span) -> None:
        """`forward` of a project module was called, with known inputs when no argument is a value not
        understood (or a tensor of unknown shape): the entry point checks it on them, to its end or to
        the finding that ends the path, and checking it alone again would only repeat the work (issue 32
        item 6: a finding inside `forward` ended the path, and the module alone ran out of its budget)."""
        if key is not None and first_origin([*args, *kwargs.values()], span) is None:
            self.modules_run.add(key)

    def check(self, decided: bool, span: Span | None = None, origin: Origin | None = None) -> None:
        """A shape check made at `span`; one not decided (it needs a size of unknown kind, `origin`)
        leaves the operation there not checked, whatever other paths or checks there decided."""
        if decided:
            self.checks_decided += 1
            return
        self.checks_skipped += 1
        if span is not None and span not in self.skipped:
            self.skipped[span] = origin or Origin(span, "a size of unknown kind (origin not recorded)")

    def outcome(self) -> dict[Span, Origin | None]:
        """Each operation reached: None when checked, else what disabled it (a skipped decisive check
        counts: an operation is checked only when every check it made was decided)."""
        out = dict(self.ops)
        out.update(self.skipped)
        return out

    def end(self, kind: str, span: Span, reason: str, module: str | None = None) -> None:
        """A path ended before the program's end: `kind` exception | budget | launcher; or `import`: the rest
        of a project module whose import raised was not followed (the path went on without it)."""
        key = (kind, span, reason, module)
        self.ended[key] = self.ended.get(key, 0) + 1

    def origins(self) -> list[tuple[Origin, int]]:
        counts: dict[Origin, int] = {}
        for o in self.outcome().values():
            if o is not None:
                counts[o] = counts.get(o, 0) + 1
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].span.path, kv[0].span.line, kv[0].what))

    def fill(self, stats: EntryStats) -> None:
        ops = self.outcome()
        checked = sum(o is None for o in ops.values())
        stats.ops_reached = len(ops)
        stats.ops_checked = checked
        stats.unknowns = len(ops) - checked
        stats.checks_decided = self.checks_decided
        stats.checks_skipped = self.checks_skipped
        stats.unknown_origins = [{"location": loc(o.span), "what": o.what, "ops": n}
                                 for o, n in self.origins()[:MAX_ORIGINS]]
        stats.modules_built = sorted(list(k) for k in self.modules_built)
        stats.modules_run = sorted(list(k) for k in self.modules_run)
        stats.ended_paths = [{"kind": kind, "location": loc(span), "reason": reason, "module": module, "paths": n}
                             for (kind, span, reason, module), n in self.ended.items()]


def _where(location: list[Any]) -> str:
    return f"{location[0]}:{location[1]}"


def nothing_checked(stats: EntryStats, entry: str, library_used: bool) -> Diagnostic | None:
    """PT013 when not one tensor operation was checked although there was something to check (an
    operation reached, a launcher not followed, every path ended early, or the tensor libraries were
    used without reaching an operation), with the first reason."""
    if stats.ops_checked:
        return None
    found = _first_reason(stats, library_used, entry)
    if found is None:
        return None
    location, why = found
    return Diagnostic(NOTHING_CHECKED.id, Severity.NOTE, Span(*location),
                      nothing_checked_note(entry, why), entry=entry)


def _first_reason(stats: EntryStats, library_used: bool, entry: str) -> tuple[list[Any], str] | None:
    launchers = [p for p in stats.ended_paths if p["kind"] == "launcher"]
    early = [p for p in stats.ended_paths if p["kind"] in ("exception", "budget")]
    early += [p for p in stats.ended_paths if p["kind"] == "import"]  # the path went on: never "every path ended"
    if launchers:
        return launchers[0]["location"], f"{launchers[0]['reason']} ({_where(launchers[0]['location'])})"
    if early and sum(p["paths"] for p in early if p["kind"] != "import") >= stats.paths:
        first = early[0]
        module = f" while importing {first['module']}" if first.get("module") else ""
        return first["location"], (f"every path ended early; the first at {_where(first['location'])}{module}: "
                                   f"{first['reason']}")
    if stats.unknown_origins:
        first = stats.unknown_origins[0]
        return first["location"], (f"{stats.ops_reached} tensor operation(s) received values not understood; the "
                                   f"first came from {first['what']} ({_where(first['location'])})")
    if library_used or early:
        where = early[0]["location"] if early else [entry, 1, 0]
        also = f"; a path ended at {_where(where)}: {early[0]['reason']}" if early else ""
        return where, ("the tensor libraries are used but no tensor operation was reached (is the code that "
                       f"computes with tensors called from this entry point?){also}")
    return None
