"""What every command of the command line shares: the usage error (one line, exit code 2) and writing
to stdout when the reader may have gone away."""

from __future__ import annotations

import os
import sys


class UsageError(Exception):
    """A problem with how pytea-ci was invoked; reported in one line, exit code 2."""


def write_stdout(text: str) -> None:
    """Print; a reader that went away (`| head -1`) ends the output quietly, not with a traceback."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()


def silence_stdout() -> None:
    # what Python's documentation advises: point stdout at devnull, so the flush at exit cannot fail again
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


def write_file(dest: str, body: str) -> None:
    """Write a report file, creating its folder (`--output reports/x.sarif` in a fresh checkout)."""
    folder = os.path.dirname(os.path.abspath(dest))
    try:
        os.makedirs(folder, exist_ok=True)
        with open(dest, "w", encoding="utf-8") as f:
            f.write(body)
    except OSError as e:
        raise UsageError(f"cannot write {dest}: {e.strerror or e}") from None
