"""`check`, `explain` and `baseline write`: a request built from the options, the run, its reports
written where the output plan says, and the exit code (0 clean, 1 findings, 2 usage or internal error)."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pytea_ci.cli.common import UsageError, write_file, write_stdout
from pytea_ci.cli.outputs import Destination, plan

if TYPE_CHECKING:
    import argparse

    from pytea_ci.diagnostics.result import RunResult
    from pytea_ci.driver.project import CheckRequest


def _parse_value(text: str) -> object:
    import ast

    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def arg_overrides(items: Sequence[str]) -> dict[str, object]:
    overrides = {}
    for item in items:
        if "=" not in item:
            raise UsageError(f"--arg {item!r}: expected NAME=VALUE")
        k, v = item.split("=", 1)
        overrides[k.strip().lstrip("-").replace("-", "_")] = _parse_value(v)
    return overrides


def command_line(text: str | None) -> list[str] | None:
    """--argv: the analyzed program's command line split as a POSIX shell splits it."""
    if text is None:
        return None
    try:
        return shlex.split(text)
    except ValueError as e:
        raise UsageError(f"--argv {text!r}: {e}") from None


def _symbolic(items: Sequence[str]) -> dict[str, object]:
    from pytea_ci.driver.symranges import parse_cli

    try:
        return parse_cli(list(items))
    except ValueError as e:
        raise UsageError(str(e)) from None


def _overrides(ns: argparse.Namespace) -> dict[str, object]:
    """The configuration the analysis options override (shared by check and baseline write)."""
    return {"solver_timeout": ns.solver_timeout, "max_paths": ns.max_paths, "time_budget": ns.time_budget,
            "run_budget": ns.run_budget, "loop_unroll": ns.loop_unroll, "jobs": ns.jobs,
            "library_mode": ns.library_mode, "symbolic": _symbolic(ns.symbolic),
            "cache_dir": os.path.abspath(ns.cache_dir) if ns.cache_dir else None,
            "python": os.path.abspath(ns.python) if ns.python else None}


def request(ns: argparse.Namespace) -> CheckRequest:
    from pytea_ci.driver import progress
    from pytea_ci.driver.project import CheckRequest

    overrides = {"fail_on": ns.fail_on, "min_coverage": ns.min_coverage, **_overrides(ns)}
    if ns.affected_only and not ns.diff:
        raise UsageError("--affected-only needs --diff")
    return CheckRequest(paths=ns.paths, root=ns.root, config_file=ns.config, staged=ns.staged, diff=ns.diff,
                        affected_only=ns.affected_only, new_only=ns.new_only, baseline=ns.baseline, shard=ns.shard,
                        no_cache=ns.no_cache, args=arg_overrides(ns.arg), argv=command_line(ns.argv),
                        overrides=overrides,
                        progress=progress.for_stderr(ns.progress))


def check(ns: argparse.Namespace, argv: Sequence[str]) -> int:
    from pytea_ci.cli import fixing
    from pytea_ci.driver import fs, replay
    from pytea_ci.driver.project import cache_dir
    from pytea_ci.driver.check import check as run_check
    from pytea_ci.driver.progress import TtyProgress

    destinations = plan(ns.format, ns.output)
    req = request(ns)
    journal = fs.open_journal() if replay.eligible(ns) else None
    try:
        try:
            outcome = run_check(req)
            if fixing.wanted(ns):
                fixing.prove(outcome, req)
                if ns.show_fixes:
                    return fixing.show(outcome, ns.unsafe_fixes)
                if ns.fix:
                    outcome = fixing.apply(outcome, req, ns.unsafe_fixes)
        finally:
            if isinstance(req.progress, TtyProgress):
                req.progress.close()
        warnings = "".join(f"pytea-ci: warning: {message}\n" for message in outcome.messages)
        warnings += "".join(f"pytea-ci: {note}\n" for note in outcome.notes)
        sys.stderr.write(warnings)
        result, root = outcome.result, outcome.root
        repo_result, repo = for_github(result, root)
        printed: list[str] = []
        failed: list[UsageError] = []  # a file that cannot be written does not keep the others from being written
        for d in destinations:
            try:
                if d.fmt in ("sarif", "github"):
                    printed.append(_emit(repo_result, d, repo, ns.category, outcome.messages))
                else:
                    printed.append(_emit(result, d, root, ns.category))
            except UsageError as e:
                failed.append(e)
        if ns.explain:
            to_stdout = [d.fmt for d in destinations if d.path is None] == ["text"]
            warnings += _explain(result, root, to_stdout, printed)
    finally:
        fs.close_journal()
    if failed:
        raise failed[0]
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if any(d.fmt == "github" for d in destinations) and summary:
        from pytea_ci.report.github import write_step_summary

        write_step_summary(repo_result, repo, summary)
    if any(e.status == "internal-error" for e in result.entries):
        return 2
    code = exit_code(result, outcome.config.fail_on)
    gate = coverage_gate(result, root, outcome.config.min_coverage)
    if gate:
        sys.stderr.write(gate)
        warnings += gate
        code = max(code, 1)
    if journal is not None:
        replay.save(argv, cache_dir(outcome.config, root), journal, result, root, outcome.figures.analyzed,
                    "".join(printed), warnings, code)
    return code


def baseline_write(ns: argparse.Namespace) -> int:
    from pytea_ci.driver import baseline
    from pytea_ci.driver.project import CheckRequest
    from pytea_ci.driver.check import check as run_check

    outcome = run_check(CheckRequest(paths=ns.paths, root=ns.root, config_file=ns.config, no_cache=ns.no_cache,
                                     args=arg_overrides(ns.arg), argv=command_line(ns.argv),
                                     overrides=_overrides(ns)))
    sys.stderr.write("".join(f"pytea-ci: warning: {message}\n" for message in outcome.messages))
    if any(e.status == "internal-error" for e in outcome.result.entries):
        raise UsageError("an entry point failed with an internal error; the baseline was not written")
    write_file(os.path.abspath(ns.output), baseline.render(outcome.result, outcome.root))
    count = len(outcome.result.diagnostics)
    print(f"pytea-ci: wrote {count} finding(s) of {len(outcome.result.entries)} entry point(s) to {ns.output}; "
          f"`pytea-ci check --baseline {ns.output}` reports only the others", file=sys.stderr)
    return 0


def for_github(result: RunResult, root: str) -> tuple[RunResult, str]:
    """SARIF and annotations name files relative to the repository root (GitHub resolves them
    there), which is above the project root when the project lives in a sub-folder."""
    from pytea_ci.driver.gitdiff import work_tree
    from pytea_ci.report.rebase import rebase

    repo = work_tree(root)
    if repo is None or os.path.realpath(repo) == os.path.realpath(root):
        return result, root
    return rebase(result, os.path.relpath(os.path.realpath(root), os.path.realpath(repo))), repo


def _emit(result: RunResult, d: Destination, root: str, category: str, notices: Sequence[str] = ()) -> str:
    """Render `result` in `d.fmt` to `d.path` (None: stdout); what went to stdout."""
    if d.fmt == "text":
        from pytea_ci.driver.notebook import to_cells
        from pytea_ci.report import text

        body = text.render(to_cells(result, root), root, color=d.path is None and text.use_color(sys.stdout))
    elif d.fmt == "sarif":
        from pytea_ci.report import sarif

        body = sarif.render(result, root, category=category, notices=notices)
    else:
        from pytea_ci.report import get_renderer

        body = get_renderer(d.fmt)(result, root)
    if d.path is None:
        write_stdout(body)
        return body
    write_file(d.path, body)
    return ""


def _explain(result: RunResult, root: str, to_stdout: bool, printed: list[str]) -> str:
    """Write the explanation (after the text output on stdout, else on stderr); returns what went to stderr."""
    from pytea_ci.report.explain import render

    text = render(result, root)
    if to_stdout:
        write_stdout(text)
        printed.append(text)
        return ""
    sys.stderr.write(text)
    return text


def coverage_gate(result: RunResult, root: str, minimum: float | None) -> str:
    """The message of `--min-coverage` naming the entry points below it ("" when none or no gate)."""
    if minimum is None:
        return ""
    from pytea_ci.report.source import Sources
    from pytea_ci.report.summary import below, checked_text

    failing = below(result.entries, minimum / 100)
    if not failing:
        return ""
    sources = Sources(root)
    names = "; ".join(f"{sources.display(e.entry)} {checked_text(e.stats.ops_checked, e.stats.ops_reached)}"
                      for e in failing)
    return (f"pytea-ci: coverage below --min-coverage {minimum:g}% in {len(failing)} entry point"
            f"{'s' if len(failing) != 1 else ''}: {names}\n")


def exit_code(result: RunResult, fail_on: str) -> int:
    from pytea_ci.diagnostics import Severity

    if fail_on == "never":
        return 0
    floor = Severity.ERROR.rank if fail_on == "error" else Severity.WARNING.rank
    return 1 if any(d.severity.rank >= floor for d in result.diagnostics) else 0
