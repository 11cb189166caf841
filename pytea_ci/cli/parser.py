"""The command line's grammar: every command, subcommand and option, each with its help text.

`check`, `explain` and `baseline write` analyze the same way, so they share one set of analysis options;
an unknown option is reported by the command it was given to (its usage, not the top level's).
"""

from __future__ import annotations

import argparse

from pytea_ci import __version__
from pytea_ci.cli.outputs import FORMATS


class Parser(argparse.ArgumentParser):
    """argparse, with unknown options reported in the usage of the subcommand that got them."""

    def parse_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def,override]
        ns, extra = self.parse_known_args(args, namespace)
        if extra:
            self._innermost(ns).error(f"unrecognized arguments: {' '.join(extra)}")
        return ns

    def _innermost(self, ns: argparse.Namespace) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = self
        while True:
            sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
            name = getattr(ns, sub.dest, None) if sub is not None else None
            if sub is None or name not in sub.choices:
                return parser
            parser = sub.choices[name]


def _number(text: str, allow_zero: bool) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value < 0 or (value == 0 and not allow_zero) or value != value:
        raise argparse.ArgumentTypeError("must be positive" if not allow_zero else "must not be negative")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def _positive_float(text: str) -> float:
    return _number(text, allow_zero=False)


def _nonnegative_float(text: str) -> float:
    return _number(text, allow_zero=True)


def _percent(text: str) -> float:
    try:
        value = float(text.rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a percentage from 0 to 100, got {text!r}") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"expected a percentage from 0 to 100, got {text!r}")
    return value


def _shard(text: str) -> tuple[int, int]:
    k, sep, n = text.partition("/")
    if not (sep and k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise argparse.ArgumentTypeError(f"expected K/N with 1 <= K <= N, got {text!r}")
    return int(k), int(n)


def _project_options(p: argparse.ArgumentParser) -> None:
    """Where the project and its configuration are (every command that reads a project)."""
    p.add_argument("--root", default=None, help="project root (default: the folder of the nearest pyproject.toml "
                   "with [tool.pytea-ci], else the git work tree, else the current directory)")
    p.add_argument("--config", default=None, metavar="FILE", help="configuration file (TOML; default: the root's "
                   "pyproject.toml)")


def _cache_dir_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cache-dir", default=None, metavar="DIR", help="cache folder (default: .pytea_cache/ at the root)")


def _analysis_options(p: argparse.ArgumentParser) -> None:
    """How entry points are analyzed: shared by check, explain and baseline write."""
    p.add_argument("paths", nargs="*", help="files (entry points; modules: mapped to the entry points importing "
                   "them; data files: to those reading them) or directories (the entry points in them; with "
                   "none, their modules alone); none: every entry point")
    p.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE",
                   help="override an argparse default of the analyzed program (repeatable)")
    p.add_argument("--argv", default=None, metavar="ARGS",
                   help="the analyzed program's command line, as shell words (--argv=\"-c config.json data.txt\"): "
                        "sys.argv[1:], and what its argparse parser reads from it (an --arg wins)")
    p.add_argument("--symbolic", action="append", default=[], metavar="NAME=RANGE",
                   help="declare an argparse option, a Dataset class's length or the value at FILE:LINE symbolic "
                        "over RANGE, e.g. batch_size=1..1024 or image_size=224,256..512 step 32 (repeatable)")
    p.add_argument("--solver-timeout", type=_positive, default=None, metavar="MS",
                   help="z3 budget per query, in reference milliseconds (counted as z3 resource units: deterministic)")
    p.add_argument("--max-paths", type=int, default=None, metavar="N", help="paths explored per entry point")
    p.add_argument("--time-budget", type=_positive_float, default=None, metavar="S",
                   help="budget per entry point, in reference seconds (counted as interpreter steps: deterministic)")
    p.add_argument("--run-budget", type=_nonnegative_float, default=None, metavar="S",
                   help="budget of the whole invocation, in reference seconds (counted as steps), shared by its entry points and "
                        "modules: each gets its --time-budget (a module its library-time-budget) while the run budget covers "
                        "them all, else the same part of what is left, in proportion (PT011 names an entry its share "
                        "stopped); twice as many real seconds, at least 60, is its wall-clock safety net, shared alike; "
                        "0: no limit; default 240)")
    p.add_argument("--loop-unroll", type=_positive, default=None, metavar="N", help="loop iterations run one by one")
    _project_options(p)
    p.add_argument("--python", default=None, metavar="PATH",
                   help="interpreter (or virtualenv folder) whose installed packages are read from source, never "
                        "imported (default: $VIRTUAL_ENV, else .venv/ at the root)")
    p.add_argument("--library-mode", choices=("auto", "always", "only", "never"), default=None,
                   help="check nn.Modules alone, without an entry point (default auto: those no entry point ran)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the caches")
    _cache_dir_option(p)
    p.add_argument("--jobs", "-j", type=_positive, default=None, metavar="N",
                   help="worker processes (default: number of CPUs)")


def _check_options(c: argparse.ArgumentParser) -> None:
    _analysis_options(c)
    c.add_argument("--format", action="append", choices=FORMATS,
                   help="output format (repeatable; default text); formats without an --output go to stdout, "
                        "at most one of them")
    c.add_argument("--output", "-o", action="append", metavar="[FORMAT=]FILE",
                   help="write a report to FILE (repeatable): FORMAT=FILE, or FILE whose extension names the format "
                        "(.sarif, .json, .txt, .log), or FILE for the only --format; missing folders are created")
    c.add_argument("--fail-on", choices=("error", "warning", "never"), default=None,
                   help="lowest level of finding that makes the exit code 1 (default: error)")
    c.add_argument("--min-coverage", type=_percent, default=None, metavar="P",
                   help="exit 1 when an entry point checked less than P%% of the tensor operations it reached "
                        "(default: off)")
    c.add_argument("--explain", action="store_true",
                   help="also list, per entry point, what made values not understood, paths that ended early, "
                        "budgets and unmodeled APIs (to stdout after text, else to stderr)")
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
    c.add_argument("--shard", type=_shard, default=None, metavar="K/N", help="analyze only shard K of N")
    c.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show progress (default: on a terminal only)")
    _fix_options(c)


def _fix_options(c: argparse.ArgumentParser) -> None:
    """Verified repairs (pytea_ci/fixes/). `--diff` already names the git base, so the diff of the fixes is
    `--show-fixes`."""
    c.add_argument("--suggest-fixes", action="store_true",
                   help="prove a one-edit repair for each finding (re-analysis of the edited program) and show it "
                        "in every report (`= fix: in_features 500 -> 320`)")
    c.add_argument("--fix", action="store_true",
                   help="apply the safe proven fixes (literal edits, every path followed) to the files, then report "
                        "what is left")
    c.add_argument("--unsafe-fixes", action="store_true",
                   help="with --fix or --show-fixes: the other proven fixes too (added calls, drop_last=True, ...)")
    c.add_argument("--show-fixes", action="store_true",
                   help="print the proven fixes as a unified diff on stdout instead of a report; write nothing "
                        "(exit 1 when there is a fix)")



def _add_baseline(sub: argparse._SubParsersAction) -> None:
    b = sub.add_parser("baseline", help="record the current findings, so that `check --baseline` reports only new ones")
    w = b.add_subparsers(dest="baseline_command", metavar="{write}", required=True).add_parser(
        "write", help="write the baseline file")
    _analysis_options(w)
    w.add_argument("--output", "-o", default="pytea-ci-baseline.json", metavar="FILE",
                   help="where to write it (default: pytea-ci-baseline.json)")


def _add_tools(sub: argparse._SubParsersAction) -> None:
    """The commands around check: rules, shapes, sarif merge, lsp, cache."""
    sub.add_parser("rules", help="list the rules")
    r = sub.add_parser("rule", help="show the documentation of one rule")
    r.add_argument("id", help="rule id (PT001) or slug (shape-mismatch)")
    sh = sub.add_parser("shapes", help="each nn.Module's input contract, example input, output shape and layers")
    sh.add_argument("target", help="a file, file.py::ClassName, or a folder")
    sh.add_argument("--format", choices=("text", "json", "markdown"), default="text", help="output format")
    sh.add_argument("--output", "-o", default=None, metavar="FILE", help="write here instead of stdout")
    _project_options(sh)
    sm = sub.add_parser("sarif", help="SARIF utilities").add_subparsers(dest="sarif_command", metavar="{merge}",
                                                                          required=True)
    m = sm.add_parser("merge", help="merge the SARIF files of several shards into one run")
    m.add_argument("files", nargs="+", metavar="FILE", help="the shards' SARIF files")
    m.add_argument("-o", "--output", default=None, metavar="FILE", help="write here instead of stdout")
    m.add_argument("--category", default=None, help="replace the shards' category (default: they must agree)")
    sub.add_parser("lsp", help="run the editor language server on stdin/stdout (needs the `lsp` extra: "
                   "pip install 'pytea-ci[lsp]')")
    k = sub.add_parser("cache", help="show or clear the cache")
    k.add_argument("action", choices=("info", "clear"), metavar="{info,clear}",
                   help="info: what the cache holds; clear: remove it")
    _cache_dir_option(k)
    _project_options(k)


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="pytea-ci", description="Find tensor shape errors in PyTorch programs without running them.")
    p.add_argument("--version", action="version", version=f"pytea-ci {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    _check_options(sub.add_parser("check", help="analyze entry points (each file is run as __main__)"))
    _check_options(sub.add_parser("explain", help="check --explain: per entry point, what was checked and where the "
                                  "analysis lost track"))
    _add_tools(sub)
    _add_baseline(sub)
    return p
