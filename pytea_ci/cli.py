"""Command-line interface: argument parsing and exit codes only (0 clean, 1 findings, 2 usage or
internal error). The work happens in the driver; output in the reporters."""

from __future__ import annotations

import argparse
import ast
import os
import sys
from typing import Sequence

from pytea_ci import __version__
from pytea_ci.diagnostics import RULES, Severity, rule_by_id
from pytea_ci.diagnostics.result import RunResult

FORMATS = ("text", "json", "sarif", "github")


class UsageError(Exception):
    """A problem with how pytea-ci was invoked; reported in one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="pytea-ci", description="Find tensor shape errors in PyTorch programs "
                                "without running them.")
    p.add_argument("--version", action="version", version=f"pytea-ci {__version__}")
    sub = p.add_subparsers(dest="command")
    c = sub.add_parser("check", help="analyze entry points (each file is run as __main__)")
    c.add_argument("paths", nargs="*", help="entry-point files, or directories to search for entry points")
    c.add_argument("--format", action="append", choices=FORMATS, help="output format (repeatable; default text)")
    c.add_argument("--output", action="append", help="write the matching --format to FILE instead of stdout")
    c.add_argument("--fail-on", choices=("error", "warning", "never"), default="error",
                   help="lowest level of finding that makes the exit code 1 (default: error)")
    c.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE",
                   help="override an argparse default of the analyzed program (repeatable)")
    c.add_argument("--solver-timeout", type=int, default=2000, metavar="MS", help="z3 time limit per query")
    c.add_argument("--max-paths", type=int, default=64, help="paths explored per entry point")
    c.add_argument("--time-budget", type=float, default=20.0, metavar="S", help="seconds per entry point")
    c.add_argument("--root", default=None, help="project root (default: current directory)")
    c.add_argument("--category", default="pytea-ci/", help="SARIF automationDetails.id (code-scanning category)")
    sub.add_parser("rules", help="list the rules")
    r = sub.add_parser("rule", help="show the documentation of one rule")
    r.add_argument("id", help="rule id (PT001) or slug (shape-mismatch)")
    return p


def _parse_value(text: str) -> object:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _entries(paths: Sequence[str]) -> list[str]:
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            for dirpath, dirnames, files in os.walk(p):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in ("venv", "node_modules"))
                for f in sorted(files):
                    full = os.path.join(dirpath, f)
                    if f.endswith(".py") and _is_entry(full):
                        out.append(full)
        elif os.path.isfile(p):
            out.append(p)
        else:
            raise UsageError(f"{p}: no such file or directory")
    return out


def _is_entry(path: str) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return False
    return "__main__" in text


def _check(ns: argparse.Namespace) -> int:
    from pytea_ci.driver.run import Options, run
    from pytea_ci.interp.interpreter import Budget

    root = os.path.abspath(ns.root or os.getcwd())
    if not ns.paths:
        raise UsageError("no paths given: pass entry-point files or directories (e.g. pytea-ci check main.py)")
    entries = _entries(ns.paths)
    overrides = {}
    for item in ns.arg:
        if "=" not in item:
            raise UsageError(f"--arg {item!r}: expected NAME=VALUE")
        k, v = item.split("=", 1)
        overrides[k.strip().lstrip("-").replace("-", "_")] = _parse_value(v)
    formats = ns.format or ["text"]
    outputs = ns.output or []
    if len(outputs) > len(formats):
        raise UsageError("more --output than --format options")
    opts = Options(root=root, budget=Budget(paths=ns.max_paths, seconds=ns.time_budget),
                   solver_timeout_ms=ns.solver_timeout, entry_options={"args": overrides})
    result = run(entries, opts)
    for i, fmt in enumerate(formats):
        dest = outputs[i] if i < len(outputs) else None
        _emit(result, fmt, root, dest, ns.category)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if "github" in formats and summary:
        from pytea_ci.report.github import write_step_summary

        write_step_summary(result, root, summary)
    if any(e.status == "internal-error" for e in result.entries):
        return 2
    return _exit_code(result, ns.fail_on)


def _emit(result: RunResult, fmt: str, root: str, dest: str | None, category: str) -> None:
    if fmt == "text":
        from pytea_ci.report import text

        body = text.render(result, root, color=dest is None and text.use_color(sys.stdout))
    elif fmt == "sarif":
        from pytea_ci.report import sarif

        body = sarif.render(result, root, category=category)
    else:
        from pytea_ci.report import get_renderer

        body = get_renderer(fmt)(result, root)
    if dest is None:
        sys.stdout.write(body)
    else:
        try:
            with open(dest, "w", encoding="utf-8") as f:
                f.write(body)
        except OSError as e:
            raise UsageError(f"cannot write {dest}: {e.strerror}") from None


def _exit_code(result: RunResult, fail_on: str) -> int:
    if fail_on == "never":
        return 0
    floor = Severity.ERROR.rank if fail_on == "error" else Severity.WARNING.rank
    return 1 if any(d.severity.rank >= floor for d in result.diagnostics) else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    ns = parser.parse_args(argv)
    try:
        if ns.command == "check":
            return _check(ns)
        if ns.command == "rules":
            for r in RULES:
                print(f"{r.id}  {r.slug:<24} {r.level.value:<8} {r.summary}")
            return 0
        if ns.command == "rule":
            rule = rule_by_id(ns.id)
            if rule is None:
                raise UsageError(f"unknown rule {ns.id!r} (see `pytea-ci rules`)")
            print(rule.markdown())
            return 0
        parser.print_help()
        return 2
    except UsageError as e:
        print(f"pytea-ci: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 2
