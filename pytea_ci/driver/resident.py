"""What a long-lived process (the language server) keeps in memory between `check` runs: the
per-file import facts (by content hash) and one solver decider with its query cache, so a run after
an edit re-parses only the changed files' imports and asks z3 only the questions it has not seen.
The model registry stays loaded with the process. A one-shot `check` has none of this."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytea_ci.driver.imports_graph import ImportCache

if TYPE_CHECKING:
    from pytea_ci.driver.run import Options
    from pytea_ci.solver import Decider
    from pytea_ci.solver.decide import Cached


class BoundedCache:
    """Solver answers in memory, the least recently used dropped past `limit` (a server runs for days)."""

    def __init__(self, limit: int = 100_000) -> None:
        self.limit = limit
        self.data: OrderedDict[str, Cached] = OrderedDict()

    def get(self, key: str) -> Cached | None:
        hit = self.data.get(key)
        if hit is not None:
            self.data.move_to_end(key)
        return hit

    def put(self, key: str, value: Cached) -> None:
        self.data[key] = value
        self.data.move_to_end(key)
        while len(self.data) > self.limit:
            self.data.popitem(last=False)


@dataclass
class Resident:
    imports: ImportCache = field(default_factory=lambda: ImportCache(None))
    _decider: Decider | None = None
    runs: int = 0

    def decider(self, opts: Options) -> Decider:
        """The kept decider (made on first use, with `opts`' solver timeout and a bounded in-memory cache)."""
        if self._decider is None:
            from pytea_ci import __version__
            from pytea_ci.solver import Decider

            self._decider = Decider(timeout_ms=opts.solver_timeout_ms, cache=BoundedCache(),
                                    salt=f"pytea-ci {__version__}")
        return self._decider
