"""Which report goes where: `--format` and `--output` of `check` turned into one plan that cannot be
misread.

An `--output` names its format explicitly (`--output sarif=reports/x.sarif`) or by its file's extension
(`.sarif` sarif, `.json` json, `.txt`/`.log` text); a bare file whose extension says nothing takes the
one `--format` given. Every format asked for with `--format` and not given a file goes to stdout — at
most one of them, so two documents are never printed back to back. Anything ambiguous (two formats for
stdout, a bare file whose format cannot be told, a file whose extension contradicts the only `--format`)
is a usage error naming the fix, never a report written to the wrong place.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from pytea_ci.cli.common import UsageError

FORMATS = ("text", "json", "sarif", "github")
_BY_EXTENSION = {".sarif": "sarif", ".json": "json", ".txt": "text", ".log": "text"}


@dataclass(frozen=True)
class Destination:
    fmt: str
    path: str | None  # None: stdout


def _explicit(item: str) -> tuple[str, str] | None:
    """`FORMAT=FILE` split, when FORMAT is a format name (a file may contain `=` otherwise)."""
    fmt, sep, path = item.partition("=")
    if sep and fmt in FORMATS:
        if not path:
            raise UsageError(f"--output {item}: expected {fmt}=FILE")
        return fmt, path
    return None


def _by_extension(path: str) -> str | None:
    name = path.lower()
    if name.endswith(".sarif.json"):
        return "sarif"
    return _BY_EXTENSION.get(os.path.splitext(name)[1])


def _bare(item: str, asked: list[str]) -> str:
    """The format of a bare `--output FILE`: the only one asked for, else its extension's."""
    fmt = _by_extension(item)
    if len(asked) == 1:
        if fmt not in (None, asked[0]) and not (fmt == "json" and asked[0] == "sarif"):
            raise UsageError(f"--output {item} looks like {fmt}, but the format asked for is {asked[0]}; write "
                             f"--output {asked[0]}={item} if that is meant")
        return asked[0]
    if fmt is None:
        raise UsageError(f"--output {item}: cannot tell which format goes there; write --output FORMAT={item} "
                         f"(FORMAT one of {', '.join(FORMATS)})")
    if asked and fmt not in asked:
        if fmt == "json" and "sarif" in asked and "json" not in asked:
            return "sarif"
        raise UsageError(f"--output {item} looks like {fmt}, which no --format asks for; write --output "
                         f"FORMAT={item}")
    return fmt


def plan(formats: Sequence[str] | None, outputs: Sequence[str] | None) -> list[Destination]:
    """The destinations of one `check` run, in the order they are written (files first, stdout last)."""
    asked = list(dict.fromkeys(formats or []))
    files: list[Destination] = []
    for item in outputs or []:
        explicit = _explicit(item)
        if explicit is not None:
            files.append(Destination(*explicit))
            continue
        files.append(Destination(_bare(item, asked), item))
    written = {d.fmt for d in files}
    unknown = [f for f in asked if f not in FORMATS]
    if unknown:
        raise UsageError(f"unknown format {unknown[0]!r} (one of {', '.join(FORMATS)})")
    if asked:
        to_stdout = [f for f in asked if f not in written]
    else:  # no --format: the report for people stays on the terminal unless it has a file
        to_stdout = [] if "text" in written else ["text"]
    if len(to_stdout) > 1:
        raise UsageError(f"formats {' and '.join(to_stdout)} would both go to stdout; give all but one a file with "
                         f"--output FORMAT=FILE")
    return files + [Destination(f, None) for f in to_stdout]
