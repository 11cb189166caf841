"""Command-line interface: argument parsing and exit codes only (0 clean, 1 findings, 2 usage or
internal error, 130 interrupted). The work happens in the driver; output in the reporters.

`parser` holds the grammar, `outputs` which report goes where, `run` the analyzing commands (check,
explain, baseline write), `tools` the others. Modules load on demand: a replayed `check` imports
nothing more than this package and the replay.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from pytea_ci.cli.common import UsageError, silence_stdout, write_stdout

if TYPE_CHECKING:
    import argparse

__all__ = ["UsageError", "main", "script", "write_stdout"]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _main(args)
    except BrokenPipeError:  # the reader went away (`pytea-ci rule PT001 | head -1`): stop quietly
        silence_stdout()
        return 0
    except KeyboardInterrupt:  # Ctrl-C: the shell's convention, 128 + SIGINT
        print("pytea-ci: interrupted", file=sys.stderr)
        return 130


def script() -> NoReturn:
    """The command line as a process (`pytea-ci`, `python -m pytea_ci`): `main`, then its output flushed
    and the process ended without tearing down the heap. A run through an installed package keeps the
    package's restored import (millions of objects): the interpreter's own exit would collect and free
    them one by one, a second or more of CPU that nobody waits for (mypy ends the same way). Nothing of
    the analyzer needs its exit: files are written whole, worker pools are joined, no `atexit` hook."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # the reader went away: as `main` does
            silence_stdout()
        except (ValueError, OSError):  # closed by the command itself (the language server's `exit`)
            pass
    os._exit(code)


def _main(args: list[str]) -> int:
    if args[:1] in (["check"], ["explain"]):  # an unchanged, already reported run is printed again (driver/replay.py)
        from pytea_ci.driver.replay import replay

        code = replay(args)
        if code is not None:
            return code
    from pytea_ci.cli.parser import build_parser

    parser = build_parser()
    ns = parser.parse_args(args)
    from pytea_ci.driver.config import ConfigError
    from pytea_ci.driver.gitdiff import GitError
    from pytea_ci.driver.select import SelectionError

    try:
        return _dispatch(ns, args, parser)
    except (UsageError, ConfigError, SelectionError, GitError) as e:
        print(f"pytea-ci: error: {e}", file=sys.stderr)
        return 2
    except Exception as e:
        baseline = sys.modules.get("pytea_ci.driver.baseline")  # loaded by the runs that read a baseline
        if baseline is not None and isinstance(e, baseline.BaselineError):
            print(f"pytea-ci: error: {e}", file=sys.stderr)
            return 2
        raise


def _dispatch(ns: argparse.Namespace, args: list[str], parser: argparse.ArgumentParser) -> int:
    from pytea_ci.cli import run, tools

    if ns.command in ("check", "explain"):
        ns.explain = ns.explain or ns.command == "explain"
        return run.check(ns, args)
    if ns.command == "baseline":
        return run.baseline_write(ns)
    commands = {"cache": tools.cache, "sarif": tools.sarif_merge, "shapes": tools.shapes, "lsp": tools.lsp,
                "rules": tools.rules, "rule": tools.rule}
    if ns.command in commands:
        return commands[ns.command](ns)
    parser.print_help()
    return 2
