"""What a long-lived process (the language server) keeps in memory between `check` runs: the
per-file import facts (by content hash) and one solver decider with its query cache, so a run after
an edit re-parses only the changed files' imports and asks z3 only the questions it has not seen.
The model registry stays loaded with the process. A one-shot `check` has none of this."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytea_ci.driver.imports_graph import ImportCache

if TYPE_CHECKING:
    from pytea_ci.driver.run import Options
    from pytea_ci.solver import Decider


@dataclass
class Resident:
    imports: ImportCache = field(default_factory=lambda: ImportCache(None))
    _decider: Decider | None = None
    runs: int = 0

    def decider(self, opts: Options) -> Decider:
        """The kept decider (made on first use, with `opts`' solver timeout and an in-memory cache)."""
        if self._decider is None:
            from pytea_ci.driver.run import make_decider

            self._decider = make_decider(opts)
        return self._decider
