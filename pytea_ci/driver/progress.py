"""Progress for long runs, on a terminal only: `[done/total] path` on one rewritten stderr line.

Never shown in hooks, CI logs or any non-TTY output (pre-commit and CI capture stderr), nor when the
`CI` environment variable is set.
"""

from __future__ import annotations

import os
import sys
from typing import IO


class TtyProgress:
    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.width = 0

    def __call__(self, done: int, total: int, entry: str) -> None:
        text = f"[{done}/{total}] {entry}"[:100]
        self.stream.write("\r" + text.ljust(self.width))
        self.width = len(text)
        self.stream.flush()

    def close(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def for_stderr(enabled: bool | None = None) -> TtyProgress | None:
    """A progress printer when stderr is a terminal (and not in CI), else None; `enabled` forces it."""
    stream = sys.stderr
    if enabled is None:
        enabled = bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("CI")
    return TtyProgress(stream) if enabled else None
