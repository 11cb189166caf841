"""What one path of an entry point is run with, fixed before it starts (`PathConfig`), and the
installed packages a path is inside (`PackagePath`, per-path state of `packages/`).

The interpreter's state by lifetime (issue 35): `PathConfig` for one path, set by `explore.py` (the
entry point, the analysis root, the solver, the budgets, the choices the path replays); `Shared`
(interpreter.py) for all paths of an entry point (parsed files, findings, coverage, the installed
packages and the editor handed in by the driver); everything else an `Interpreter` holds is the state
of its one path, which `snapshot.py` copies whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pytea_ci.diagnostics import Span
from pytea_ci.interp import search_path
from pytea_ci.interp.budget import Budget
from pytea_ci.solver import Decider


@dataclass(frozen=True)
class PathConfig:
    entry: str  # the entry point's file
    root: str  # the analysis root, resolved (`os.path.realpath`)
    decider: Decider
    budget: Budget
    forced: list[bool]  # the branch choices this path replays before taking first sides (explore.py)
    options: dict[str, Any]  # per entry point: `args` overrides, `library` target, ... (driver/project.py)
    deadline: float  # wall-clock safety net (time.monotonic())
    strict: bool = False  # an analyzer bug raises instead of ending the path (tests)
    # where absolute imports of project modules are looked up: the entry's home (its own folder, or the
    # folder its top package sits in: search_path.py), then the root; and the entry's `__package__`
    search_roots: tuple[str, ...] = field(init=False)
    package: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "search_roots", search_path.search_roots(self.entry, self.root))
        object.__setattr__(self, "package", search_path.package_of(self.entry, self.root))


@dataclass
class PackagePath:
    """The installed packages one path is inside (packages/site.py charges their steps)."""

    # packages entered: (name, steps when entered, the counter of `used` charged: packages/site.py)
    stack: list[tuple[str, int, str]] = field(default_factory=list)
    entry: Span | None = None  # where the project last called into an installed package
    used: dict[str, int] = field(default_factory=dict)  # steps run inside each package (imports, calls) on this path
