"""Command-line interface: argument parsing and exit codes only (0 clean, 1 findings, 2 usage or
internal error). The work happens in the driver; output in the reporters."""

from __future__ import annotations

import os
import sys

from pytea_ci import __version__

TYPE_CHECKING = False  # as typing's; importing typing (and argparse) is left to runs that need them
if TYPE_CHECKING:  # everything else loads on demand: a replayed `check` imports nothing more
    import argparse
    from collections.abc import Sequence

    from pytea_ci.diagnostics.result import RunResult
    from pytea_ci.driver.check import CheckRequest

FORMATS = ("text", "json", "sarif", "github")


class UsageError(Exception):
    """A problem with how pytea-ci was invoked; reported in one line, exit code 2."""


def _positive(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def _number(text: str, allow_zero: bool) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value < 0 or (value == 0 and not allow_zero) or value != value:
        raise argparse.ArgumentTypeError("must be positive" if not allow_zero else "must not be negative")
    return value


def _positive_float(text: str) -> float:
    return _number(text, allow_zero=False)


def _nonnegative_float(text: str) -> float:
    return _number(text, allow_zero=True)


def _percent(text: str) -> float:
    import argparse

    try:
        value = float(text.rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a percentage from 0 to 100, got {text!r}") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"expected a percentage from 0 to 100, got {text!r}")
    return value


def _shard(text: str) -> tuple[int, int]:
    import argparse

    k, sep, n = text.partition("/")
    if not (sep and k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise argparse.ArgumentTypeError(f"expected K/N with 1 <= K <= N, got {text!r}")
    return int(k), int(n)


def _add_check(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    import argparse

    c = sub.add_parser("check", help="analyze entry points (each file is run as __main__)")
    c.add_argument("paths", nargs="*", help="files (entry points; modules: mapped to the entry points importing "
                   "them; data files: to those reading them) or directories; none: every entry point")
    c.add_argument("--format", action="append", choices=FORMATS, help="output format (repeatable; default text)")
    c.add_argument("--output", action="append", help="write the matching --format to FILE instead of stdout")
    c.add_argument("--fail-on", choices=("error", "warning", "never"), default=None,
                   help="lowest level of finding that makes the exit code 1 (default: error)")
    c.add_argument("--min-coverage", type=_percent, default=None, metavar="P",
                   help="exit 1 when an entry point checked less than P%% of the tensor operations it reached "
                        "(default: off)")
    c.add_argument("--explain", action="store_true",
                   help="also list, per entry point, what made values not understood, paths that ended early, "
                        "budgets and unmodeled APIs (to stdout after text, else to stderr)")
    c.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE",
                   help="override an argparse default of the analyzed program (repeatable)")
    c.add_argument("--symbolic", action="append", default=[], metavar="NAME=RANGE",
                   help="declare an argparse option, a Dataset class's length or the value at FILE:LINE symbolic "
                        "over RANGE, e.g. batch_size=1..1024 or image_size=224,256..512 step 32 (repeatable)")
    c.add_argument("--solver-timeout", type=_positive, default=None, metavar="MS",
                   help="z3 budget per query, in reference milliseconds (counted as z3 resource units: deterministic)")
    c.add_argument("--max-paths", type=int, default=None, help="paths explored per entry point")
    c.add_argument("--time-budget", type=_positive_float, default=None, metavar="S",
                   help="budget per entry point, in reference seconds (counted as interpreter steps: deterministic)")
    c.add_argument("--run-budget", type=_nonnegative_float, default=None, metavar="S",
                   help="budget of the whole invocation, in reference seconds (0: no limit; default 900)")
    c.add_argument("--loop-unroll", type=_positive, default=None, metavar="N", help="loop iterations run one by one")
    c.add_argument("--root", default=None, help="project root (default: the folder of the nearest pyproject.toml "
                   "with [tool.pytea-ci], else the git work tree, else the current directory)")
    c.add_argument("--config", default=None, metavar="FILE", help="configuration file (TOML)")
    c.add_argument("--python", default=None, metavar="PATH",
                   help="interpreter (or virtualenv folder) whose installed packages are read from source, never "
                        "imported (default: $VIRTUAL_ENV, else .venv/ at the root)")
    c.add_argument("--category", default="pytea-ci/", help="SARIF automationDetails.id (code-scanning category)")
    g = c.add_mutually_exclusive_group()
    g.add_argument("--staged", action="store_true", help="only entry points affected by staged changes")
    g.add_argument("--diff", metavar="BASE[...HEAD]", help="changes since BASE, or since the merge-base of BASE "
                   "and HEAD; unaffected entry points come from the cache")
    c.add_argument("--affected-only", action="store_true", help="with --diff: report only affected entry points")
    c.add_argument("--new-only", action="store_true", help="keep only findings that the changes introduced "
                   "(none with the same fingerprint on the base revision)")
    c.add_argument("--baseline", default=None, metavar="FILE", help="report only findings not recorded in FILE "
                   "(written by `pytea-ci baseline write`)")
    c.add_argument("--no-cache", action="store_true", help="neither read nor write the caches")
    c.add_argument("--cache-dir", default=None, metavar="DIR", help="cache folder (default: .pytea_cache/ at the root)")
    c.add_argument("--jobs", "-j", type=_positive, default=None, metavar="N",
                   help="worker processes (default: number of CPUs)")
    c.add_argument("--shard", type=_shard, default=None, metavar="K/N", help="analyze only shard K of N")
    c.add_argument("--library-mode", choices=("auto", "always", "only", "never"), default=None,
                   help="check nn.Modules alone, without an entry point (default auto: those no entry point ran)")
    c.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show progress (default: on a terminal only)")


def _add_baseline(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    b = sub.add_parser("baseline", help="record the current findings, so that `check --baseline` reports only new ones")
    w = b.add_subparsers(dest="baseline_command", required=True).add_parser("write", help="write the baseline file")
    w.add_argument("paths", nargs="*", help="as for check (default: every entry point)")
    w.add_argument("--output", "-o", default="pytea-ci-baseline.json", metavar="FILE",
                   help="where to write it (default: pytea-ci-baseline.json)")
    w.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE")
    w.add_argument("--root", default=None)
    w.add_argument("--config", default=None, metavar="FILE")
    w.add_argument("--no-cache", action="store_true")
    w.add_argument("--cache-dir", default=None, metavar="DIR")
    w.add_argument("--jobs", "-j", type=_positive, default=None, metavar="N")


def build_parser() -> argparse.ArgumentParser:
    import argparse

    p = argparse.ArgumentParser(prog="pytea-ci", description="Find tensor shape errors in PyTorch programs "
                                "without running them.")
    p.add_argument("--version", action="version", version=f"pytea-ci {__version__}")
    sub = p.add_subparsers(dest="command")
    _add_check(sub)
    sub.add_parser("explain", add_help=False,
                   help="check --explain: per entry point, what was checked and where the analysis lost track "
                        "(takes the arguments of check)")
    sub.add_parser("rules", help="list the rules")
    sh = sub.add_parser("shapes", help="each nn.Module's input contract, example input, output shape and layers")
    sh.add_argument("target", help="a file, file.py::ClassName, or a folder")
    sh.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    sh.add_argument("--output", default=None, metavar="FILE", help="write here instead of stdout")
    sh.add_argument("--root", default=None)
    sh.add_argument("--config", default=None, metavar="FILE")
    r = sub.add_parser("rule", help="show the documentation of one rule")
    r.add_argument("id", help="rule id (PT001) or slug (shape-mismatch)")
    sm = sub.add_parser("sarif", help="SARIF utilities").add_subparsers(dest="sarif_command", required=True)
    m = sm.add_parser("merge", help="merge the SARIF files of several shards into one run")
    m.add_argument("files", nargs="+", metavar="FILE")
    m.add_argument("-o", "--output", default=None, metavar="FILE", help="write here instead of stdout")
    m.add_argument("--category", default=None, help="replace the shards' category (default: they must agree)")
    _add_baseline(sub)
    sub.add_parser("lsp", help="run the editor language server on stdin/stdout (needs the `lsp` extra: "
                   "pip install 'pytea-ci[lsp]')")
    k = sub.add_parser("cache", help="show or clear the cache")
    k.add_argument("action", choices=("info", "clear"))
    k.add_argument("--cache-dir", default=None, metavar="DIR")
    k.add_argument("--root", default=None)
    k.add_argument("--config", default=None, metavar="FILE")
    return p


def _parse_value(text: str) -> object:
    import ast

    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _arg_overrides(items: Sequence[str]) -> dict[str, object]:
    overrides = {}
    for item in items:
        if "=" not in item:
            raise UsageError(f"--arg {item!r}: expected NAME=VALUE")
        k, v = item.split("=", 1)
        overrides[k.strip().lstrip("-").replace("-", "_")] = _parse_value(v)
    return overrides


def _symbolic(items: Sequence[str]) -> dict[str, object]:
    from pytea_ci.driver.symranges import parse_cli

    try:
        return parse_cli(list(items))
    except ValueError as e:
        raise UsageError(str(e)) from None


def _request(ns: argparse.Namespace) -> CheckRequest:
    from pytea_ci.driver import progress
    from pytea_ci.driver.check import CheckRequest

    overrides = {"fail_on": ns.fail_on, "min_coverage": ns.min_coverage, "solver_timeout": ns.solver_timeout, "max_paths": ns.max_paths,
                 "time_budget": ns.time_budget, "run_budget": ns.run_budget, "loop_unroll": ns.loop_unroll,
                 "jobs": ns.jobs,
                 "library_mode": ns.library_mode, "symbolic": _symbolic(ns.symbolic),
                 "cache_dir": os.path.abspath(ns.cache_dir) if ns.cache_dir else None,
                 "python": os.path.abspath(ns.python) if ns.python else None}
    if ns.affected_only and not ns.diff:
        raise UsageError("--affected-only needs --diff")
    return CheckRequest(paths=ns.paths, root=ns.root, config_file=ns.config, staged=ns.staged, diff=ns.diff,
                        affected_only=ns.affected_only, new_only=ns.new_only, baseline=ns.baseline, shard=ns.shard,
                        no_cache=ns.no_cache, args=_arg_overrides(ns.arg), overrides=overrides,
                        progress=progress.for_stderr(ns.progress))


def _check(ns: argparse.Namespace, argv: Sequence[str]) -> int:
    from pytea_ci.driver import fs, replay
    from pytea_ci.driver.check import check
    from pytea_ci.driver.project import cache_dir
    from pytea_ci.driver.progress import TtyProgress

    formats = ns.format or ["text"]
    outputs = ns.output or []
    if len(outputs) > len(formats):
        raise UsageError("more --output than --format options")
    from pytea_ci.driver.sanity import output_mismatches

    mismatches = output_mismatches(formats, outputs)
    req = _request(ns)
    journal = fs.open_journal() if replay.eligible(ns) else None
    try:
        try:
            outcome = check(req)
        finally:
            if isinstance(req.progress, TtyProgress):
                req.progress.close()
        outcome.messages[:0] = mismatches
        warnings = "".join(f"pytea-ci: warning: {message}\n" for message in outcome.messages)
        warnings += "".join(f"pytea-ci: {note}\n" for note in outcome.notes)
        sys.stderr.write(warnings)
        result, root = outcome.result, outcome.root
        repo_result, repo = _for_github(result, root)
        printed = []
        for i, fmt in enumerate(formats):
            dest = outputs[i] if i < len(outputs) else None
            if fmt in ("sarif", "github"):
                printed.append(_emit(repo_result, fmt, repo, dest, ns.category, outcome.messages))
            else:
                printed.append(_emit(result, fmt, root, dest, ns.category))
        if ns.explain:
            warnings += _explain(result, root, set(formats[len(outputs):]) == {"text"}, printed)
    finally:
        fs.close_journal()
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if "github" in formats and summary:
        from pytea_ci.report.github import write_step_summary

        write_step_summary(repo_result, repo, summary)
    if any(e.status == "internal-error" for e in result.entries):
        return 2
    code = _exit_code(result, outcome.config.fail_on)
    gate = _coverage_gate(result, root, outcome.config.min_coverage)
    if gate:
        sys.stderr.write(gate)
        warnings += gate
        code = max(code, 1)
    if journal is not None:
        replay.save(argv, cache_dir(outcome.config, root), journal, result, root, outcome.figures.analyzed,
                    "".join(printed), warnings, code)
    return code


def _baseline_write(ns: argparse.Namespace) -> int:
    from pytea_ci.driver import baseline
    from pytea_ci.driver.check import CheckRequest, check

    overrides = {"jobs": ns.jobs, "cache_dir": os.path.abspath(ns.cache_dir) if ns.cache_dir else None}
    outcome = check(CheckRequest(paths=ns.paths, root=ns.root, config_file=ns.config, no_cache=ns.no_cache,
                                 args=_arg_overrides(ns.arg), overrides=overrides))
    sys.stderr.write("".join(f"pytea-ci: warning: {message}\n" for message in outcome.messages))
    if any(e.status == "internal-error" for e in outcome.result.entries):
        raise UsageError("an entry point failed with an internal error; the baseline was not written")
    from pytea_ci.fsio import atomic_write

    try:
        atomic_write(os.path.abspath(ns.output), baseline.render(outcome.result, outcome.root))
    except OSError as e:
        raise UsageError(f"cannot write {ns.output}: {e.strerror}") from None
    count = len(outcome.result.diagnostics)
    print(f"pytea-ci: wrote {count} finding(s) of {len(outcome.result.entries)} entry point(s) to {ns.output}; "
          f"`pytea-ci check --baseline {ns.output}` reports only the others", file=sys.stderr)
    return 0


def _cache(ns: argparse.Namespace) -> int:
    from pytea_ci.driver import cache
    from pytea_ci.driver.project import cache_dir, load_config, project_root

    root = project_root(ns.root, os.getcwd())
    cfg = load_config(root, ns.config, {"cache_dir": os.path.abspath(ns.cache_dir) if ns.cache_dir else None})
    folder = cache_dir(cfg, root)
    if ns.action == "clear":
        try:
            removed = cache.clear(folder)
        except OSError as e:
            raise UsageError(str(e)) from None
        print(f"{'removed' if removed else 'no cache at'} {folder}")
        return 0
    print(cache.format_info(cache.info(folder)), end="")
    return 0


def _for_github(result: RunResult, root: str) -> tuple[RunResult, str]:
    """SARIF and annotations name files relative to the repository root (GitHub resolves them
    there), which is above the project root when the project lives in a sub-folder."""
    from pytea_ci.driver.gitdiff import work_tree
    from pytea_ci.report.rebase import rebase

    repo = work_tree(root)
    if repo is None or os.path.realpath(repo) == os.path.realpath(root):
        return result, root
    return rebase(result, os.path.relpath(os.path.realpath(root), os.path.realpath(repo))), repo


def _emit(result: RunResult, fmt: str, root: str, dest: str | None, category: str,
          notices: Sequence[str] = ()) -> str:
    """Render `result` in `fmt` to `dest` (None: stdout); what went to stdout."""
    if fmt == "text":
        from pytea_ci.driver.notebook import to_cells
        from pytea_ci.report import text

        body = text.render(to_cells(result, root), root, color=dest is None and text.use_color(sys.stdout))
    elif fmt == "sarif":
        from pytea_ci.report import sarif

        body = sarif.render(result, root, category=category, notices=notices)
    else:
        from pytea_ci.report import get_renderer

        body = get_renderer(fmt)(result, root)
    if dest is None:
        write_stdout(body)
        return body
    try:
        with open(dest, "w", encoding="utf-8") as f:
            f.write(body)
    except OSError as e:
        raise UsageError(f"cannot write {dest}: {e.strerror}") from None
    return ""


def write_stdout(text: str) -> None:
    """Print; a reader that went away (`| head -1`) ends the output quietly, not with a traceback."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()


def _silence_stdout() -> None:
    # what Python's documentation advises: point stdout at devnull, so the flush at exit cannot fail again
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


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


def _coverage_gate(result: RunResult, root: str, minimum: float | None) -> str:
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


def _exit_code(result: RunResult, fail_on: str) -> int:
    from pytea_ci.diagnostics import Severity

    if fail_on == "never":
        return 0
    floor = Severity.ERROR.rank if fail_on == "error" else Severity.WARNING.rank
    return 1 if any(d.severity.rank >= floor for d in result.diagnostics) else 0


def _sarif_merge(ns: argparse.Namespace) -> int:
    from pytea_ci.report.sarif_merge import MergeError, merge

    try:
        body = merge(ns.files, category=ns.category, indent=2)
    except MergeError as e:
        raise UsageError(str(e)) from None
    if ns.output is None:
        sys.stdout.write(body)
        return 0
    try:
        with open(ns.output, "w", encoding="utf-8") as f:
            f.write(body)
    except OSError as e:
        raise UsageError(f"cannot write {ns.output}: {e.strerror}") from None
    return 0


def _shapes(ns: argparse.Namespace) -> int:
    from pytea_ci.library.run import TargetError, shapes
    from pytea_ci.report import shapes as render

    try:
        modules = shapes(ns.target, ns.root, ns.config)
    except TargetError as e:
        raise UsageError(str(e)) from None
    fn = {"text": render.render_text, "json": render.render_json, "markdown": render.render_markdown}[ns.format]
    text = fn(modules)
    if ns.output:
        with open(ns.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 1 if any(d.severity.value != "note" for m in modules for d in m.diagnostics) else 0


def _lsp() -> int:
    try:
        from pytea_ci.lsp.server import main as serve
    except ImportError as e:  # the optional extra is missing
        if (e.name or "").split(".")[0] not in {"pygls", "lsprotocol", "cattrs", "attrs"}:
            raise
        raise UsageError(f"the language server needs pygls and lsprotocol ({e.name} is not installed): "
                         "pip install 'pytea-ci[lsp]'") from None
    return serve()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _main(args)
    except BrokenPipeError:  # the reader went away (`pytea-ci rule PT001 | head -1`): stop quietly
        _silence_stdout()
        return 0


def _main(args: list[str]) -> int:
    if args[:1] == ["explain"]:  # `explain ARGS` is `check --explain ARGS`
        args = ["check", "--explain", *args[1:]]
    if args[:1] == ["check"]:  # an unchanged, already reported run is printed again (driver/replay.py)
        from pytea_ci.driver.replay import replay

        code = replay(args)
        if code is not None:
            return code
    parser = build_parser()
    ns = parser.parse_args(args)
    from pytea_ci.driver.config import ConfigError
    from pytea_ci.driver.gitdiff import GitError
    from pytea_ci.driver.select import SelectionError

    try:
        if ns.command == "check":
            return _check(ns, args)
        if ns.command == "cache":
            return _cache(ns)
        if ns.command == "baseline":
            return _baseline_write(ns)
        if ns.command == "sarif":
            return _sarif_merge(ns)
        if ns.command == "shapes":
            return _shapes(ns)
        if ns.command == "lsp":
            return _lsp()
        if ns.command == "rules":
            from pytea_ci.diagnostics import RULES

            write_stdout("".join(f"{r.id}  {r.slug:<24} {r.level.value:<8} {r.summary}\n" for r in RULES))
            return 0
        if ns.command == "rule":
            from pytea_ci.diagnostics import rule_by_id

            rule = rule_by_id(ns.id)
            if rule is None:
                raise UsageError(f"unknown rule {ns.id!r} (see `pytea-ci rules`)")
            write_stdout(rule.markdown() + "\n")
            return 0
        parser.print_help()
        return 2
    except (UsageError, ConfigError, SelectionError, GitError) as e:
        print(f"pytea-ci: error: {e}", file=sys.stderr)
        return 2
    except Exception as e:
        baseline = sys.modules.get("pytea_ci.driver.baseline")  # loaded by the runs that read a baseline
        if baseline is not None and isinstance(e, baseline.BaselineError):
            print(f"pytea-ci: error: {e}", file=sys.stderr)
            return 2
        raise
    except KeyboardInterrupt:
        return 2
