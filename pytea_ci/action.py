"""Entry point of the GitHub Action (`action.yml`, a composite action whose last step runs
`python -m pytea_ci.action`; also the ENTRYPOINT of the container image).

What it does, in order:

1. Reads its inputs from `INPUT_<NAME>` variables — `INPUT_SARIF_FILE` as action.yml passes them through
   `env:`, or with the hyphens kept (`INPUT_SARIF-FILE`) as GitHub sets them for container actions — and
   the event from `GITHUB_EVENT_PATH` / `GITHUB_EVENT_NAME`.
2. Decides which changes to analyze:
   * `pull_request`, `pull_request_target`: `pull_request.base.sha ... pull_request.head.sha` (the PR's
     own changes, from their merge-base);
   * `push`: `before ... after`; an all-zero `before` is a new branch: every entry point is analyzed;
   * `workflow_dispatch` and any other event: every entry point;
   * the `base` input, when set, replaces the event's base for every event.
3. Makes sure git can answer (both commits present, a merge-base reachable). On a shallow checkout it
   deepens the fetch (`git fetch --deepen=50`, then 1000) from `origin`; when that fails it logs one
   clear line and analyzes every entry point instead.
4. Runs `pytea-ci check --diff BASE...HEAD` through the library (the same argument parser and driver as
   the CLI, so `args` takes any CLI flag), from `GITHUB_WORKSPACE`.
5. Writes the SARIF file first — always, also when the run fails (then it holds no results and an
   `executionSuccessful: false` invocation saying why) — then at most 10 annotations per level, the job
   summary (`GITHUB_STEP_SUMMARY`: findings new in the change apart from pre-existing ones, and the shapes
   of the modules defined in the changed files) and the outputs (`GITHUB_OUTPUT`).

Exit codes are the CLI's: 0 nothing at or above `fail-on`, 1 findings, 2 bad inputs or internal error.
Given command-line arguments, it is the `pytea-ci` CLI instead (the container's other use).
"""

from __future__ import annotations

import json
import math
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytea_ci.report.summary import Summary

ZERO_SHA = "0" * 40
DEFAULT_SARIF = "pytea-ci.sarif"
DEFAULT_CATEGORY = "pytea-ci/"
DEEPEN_STEPS = (50, 1000)  # commits fetched per attempt on a shallow clone
PR_EVENTS = ("pull_request", "pull_request_target")
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0", "")


class InputError(Exception):
    """An input value the action cannot use (exit code 2, reported as an error annotation)."""


# ----- inputs --------------------------------------------------------------------------------------
def get_input(env: Mapping[str, str], name: str, default: str = "") -> str:
    """An action input: `INPUT_<NAME>` upper-cased with hyphens kept (as the runner sets it), or with
    hyphens as underscores (as people set it by hand), stripped; `default` when unset or empty."""
    for key in (f"INPUT_{name.upper()}", f"INPUT_{name.upper().replace('-', '_')}"):
        value = env.get(key, "").strip()
        if value:
            return value
    return default


def get_bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    value = get_input(env, name, "").lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return default if value == "" else False
    raise InputError(f"input {name!r}: expected true or false, got {value!r}")


@dataclass
class Inputs:
    paths: list[str] = field(default_factory=list)
    config: str = ""
    base: str = ""
    sarif_file: str = DEFAULT_SARIF
    category: str = DEFAULT_CATEGORY
    fail_on: str = ""
    annotations: bool = True
    cache_dir: str = ""
    baseline: str = ""
    args: list[str] = field(default_factory=list)
    python: str = ""  # the job's interpreter: its installed packages are read from source
    suggestions: bool = False  # post proven fixes as review comments with a suggested change
    token: str = ""  # the workflow's token, for those comments

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Inputs:
        fail_on = get_input(env, "fail-on", "").lower()  # empty: the configuration's (default error)
        if fail_on not in ("", "error", "warning", "never"):
            raise InputError(f"input 'fail-on': expected error, warning or never, got {fail_on!r}")
        try:
            paths = shlex.split(get_input(env, "paths"))  # spaces or newlines; quote a path with spaces
            args = shlex.split(get_input(env, "args"))
        except ValueError as e:
            raise InputError(f"input 'paths' or 'args': {e}") from None
        return cls(paths=paths, config=get_input(env, "config"), base=get_input(env, "base"),
                   sarif_file=get_input(env, "sarif-file", DEFAULT_SARIF),
                   category=get_input(env, "category", DEFAULT_CATEGORY), fail_on=fail_on,
                   annotations=get_bool(env, "annotations", True), cache_dir=get_input(env, "cache-dir"),
                   baseline=get_input(env, "baseline"), args=args, python=get_input(env, "python"),
                   suggestions=get_bool(env, "pull-request-suggestions", False),
                   token=get_input(env, "github-token"))


# ----- the event -----------------------------------------------------------------------------------
@dataclass
class Range:
    """What to diff: `base...head`, or (base None) every entry point, with the reason in `why`."""

    base: str | None
    head: str
    why: str


def load_event(env: Mapping[str, str]) -> dict[str, Any]:
    path = env.get("GITHUB_EVENT_PATH", "")
    if not path or not os.path.isfile(path):
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _sha(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def resolve_range(event_name: str, event: Mapping[str, Any], base_input: str, env: Mapping[str, str]) -> Range:
    head = _sha(env.get("GITHUB_SHA")) or "HEAD"
    if event_name in PR_EVENTS:
        pr = event.get("pull_request") or {}
        head = _sha((pr.get("head") or {}).get("sha")) or head
        base = base_input or _sha((pr.get("base") or {}).get("sha"))
        if base:
            return Range(base, head, f"{event_name}: changes of the pull request ({_short(base)}...{_short(head)})")
        return Range(None, head, f"{event_name}: the event has no base commit; analyzing every entry point")
    if event_name == "push":
        after = _sha(event.get("after"))
        head = after if after and after != ZERO_SHA else head
        before = base_input or _sha(event.get("before"))
        if before and before != ZERO_SHA:
            return Range(before, head, f"push: changes since {_short(before)} ({_short(before)}...{_short(head)})")
        return Range(None, head, "push: a new branch (no previous commit); analyzing every entry point")
    if base_input:
        return Range(base_input, head, f"{event_name or 'run'}: changes since the 'base' input "
                                       f"({_short(base_input)}...{_short(head)})")
    return Range(None, head, f"{event_name or 'run'}: no base to compare with; analyzing every entry point "
                             "(set the 'base' input to analyze only what changed)")


def _short(rev: str) -> str:
    return rev[:12] if len(rev) == 40 else rev


# ----- git -----------------------------------------------------------------------------------------
def _git(cwd: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    try:
        return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        return subprocess.CompletedProcess(["git", *args], 128, "", str(e))


def _has_commit(cwd: str, rev: str) -> bool:
    return _git(cwd, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").returncode == 0


def _answerable(cwd: str, base: str, head: str) -> bool:
    return (_has_commit(cwd, base) and _has_commit(cwd, head)
            and _git(cwd, "merge-base", base, head).returncode == 0)


def _is_shallow(cwd: str) -> bool:
    return _git(cwd, "rev-parse", "--is-shallow-repository").stdout.strip() == "true"


def _remote(cwd: str) -> str | None:
    remotes = _git(cwd, "remote").stdout.split()
    return "origin" if "origin" in remotes else (remotes[0] if remotes else None)


def ensure_history(cwd: str, base: str, head: str, log: Any) -> bool:
    """True when git can diff `base...head` here, deepening a shallow clone (or fetching missing
    commits) from the remote when needed."""
    if _answerable(cwd, base, head):
        return True
    remote = _remote(cwd)
    if remote is None:
        log(f"pytea-ci: cannot find the merge-base of {_short(base)} and {_short(head)} and there is no remote "
            "to fetch from")
        return False
    wanted = [rev for rev in (base, head) if rev != "HEAD"]
    if _is_shallow(cwd):
        for depth in DEEPEN_STEPS:
            log(f"pytea-ci: shallow clone: fetching {depth} more commits from {remote} to find the merge-base "
                f"(git fetch --deepen={depth})")
            _git(cwd, "fetch", "--no-tags", "--quiet", f"--deepen={depth}", remote, *wanted)
            if _answerable(cwd, base, head):
                return True
    else:
        log(f"pytea-ci: fetching {' '.join(_short(w) for w in wanted)} from {remote}")
        _git(cwd, "fetch", "--no-tags", "--quiet", remote, *wanted)
        if _answerable(cwd, base, head):
            return True
    return False


# ----- outputs -------------------------------------------------------------------------------------
def write_outputs(path: str, values: Mapping[str, object]) -> None:
    """Append `name=value` lines to `$GITHUB_OUTPUT` (values are single-line)."""
    with open(path, "a", encoding="utf-8") as f:
        f.writelines(f"{k}={str(v).replace(chr(10), ' ').replace(chr(13), ' ')}\n" for k, v in values.items())


def failed_sarif(root: str, category: str, reason: str) -> str:
    """A valid SARIF log without results whose invocation says the run failed and why."""
    from pytea_ci.diagnostics.result import RunResult
    from pytea_ci.report import sarif

    data = json.loads(sarif.render(RunResult(tool_version=""), root, category=category))
    data["runs"][0]["invocations"] = [{
        "executionSuccessful": False,
        "toolExecutionNotifications": [{"level": "error", "message": {"text": reason[:2000]}}],
    }]
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n"


def _write(path: str, text: str) -> None:
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _command_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


# ----- the run -------------------------------------------------------------------------------------
def check_argv(inputs: Inputs, rng: Range, diff_ok: bool) -> list[str]:
    argv = ["check", *inputs.paths, "--category", inputs.category, "--no-progress"]
    if inputs.fail_on:
        argv += ["--fail-on", inputs.fail_on]
    if inputs.config:
        argv += ["--config", inputs.config]
    if inputs.cache_dir:
        argv += ["--cache-dir", inputs.cache_dir]
    if inputs.baseline:
        argv += ["--baseline", inputs.baseline]
    if inputs.python:
        argv += ["--python", inputs.python]
    if rng.base is not None and diff_ok:
        argv += ["--diff", f"{rng.base}...{rng.head}"]
    return argv + inputs.args


def run(env: Mapping[str, str] | None = None, out: Any = None, err: Any = None) -> int:
    env = os.environ if env is None else env
    out = out or sys.stdout
    err = err or sys.stderr

    def log(message: str) -> None:
        print(message, file=out, flush=True)

    workspace = os.path.abspath(env.get("GITHUB_WORKSPACE") or os.getcwd())
    sarif_path = os.path.join(workspace, get_input(env, "sarif-file", DEFAULT_SARIF))
    category = get_input(env, "category", DEFAULT_CATEGORY)
    outputs: dict[str, object] = {"sarif-file": get_input(env, "sarif-file", DEFAULT_SARIF)}
    saved = os.getcwd()
    started = time.monotonic()
    try:
        os.chdir(workspace)
        return _run(env, workspace, sarif_path, outputs, log, out)
    except BaseException as e:
        reason = _describe(e)
        code = e.code if isinstance(e, SystemExit) and isinstance(e.code, int) else 2
        code = 2 if code == 0 else code
        log(f"::error title=pytea-ci::{_command_data(reason)}")
        try:
            _write(sarif_path, failed_sarif(workspace, category, reason))
            log(f"pytea-ci: wrote {os.path.relpath(sarif_path, workspace)} (no results: the run failed)")
        except OSError as w:
            print(f"pytea-ci: cannot write {sarif_path}: {w}", file=err)
        if env.get("GITHUB_OUTPUT"):
            write_outputs(env["GITHUB_OUTPUT"], {**outputs, "findings": 0, "errors": 0, "warnings": 0,
                                                 "analyzed": 0, "cached": 0, "coverage": "", "exit-code": code})
        if isinstance(e, KeyboardInterrupt):
            raise
        return code
    finally:
        os.chdir(saved)
        print(f"pytea-ci: action finished in {time.monotonic() - started:.1f}s", file=err)


def _describe(e: BaseException) -> str:
    if isinstance(e, SystemExit):
        return "invalid inputs or 'args' (see the usage message above)"
    if isinstance(e, (InputError, OSError)):
        return str(e)
    name = type(e).__name__
    if name in ("UsageError", "ConfigError", "SelectionError", "GitError"):
        return str(e)
    import traceback

    return f"internal error: {name}: {e}\n{traceback.format_exc(limit=8)}"


def _run(env: Mapping[str, str], workspace: str, sarif_path: str, outputs: dict[str, object], log: Any,
         out: Any) -> int:
    from pytea_ci.cli import run as cli_run
    from pytea_ci.cli.parser import build_parser
    from pytea_ci.driver.check import check
    from pytea_ci.report import github, sarif
    from pytea_ci.report.summary import summarize

    inputs = Inputs.from_env(env)
    event_name = env.get("GITHUB_EVENT_NAME", "")
    rng = resolve_range(event_name, load_event(env), inputs.base, env)
    log(f"pytea-ci: {rng.why}")
    diff_ok = False
    if rng.base is not None:
        diff_ok = ensure_history(workspace, rng.base, rng.head, log)
        if not diff_ok:
            log(f"::warning title=pytea-ci::cannot diff {_short(rng.base)}...{_short(rng.head)} (shallow or "
                "incomplete clone); analyzing every entry point. To fix: `fetch-depth: 0` on actions/checkout.")
    argv = check_argv(inputs, rng, diff_ok)
    log("pytea-ci: running pytea-ci " + " ".join(shlex.quote(a) for a in argv))
    ns = build_parser().parse_args(argv)
    if ns.format or ns.output:
        raise InputError("the action chooses the output formats itself: do not pass --format/--output in 'args'")
    req = cli_run.request(ns)
    req.classify = rng.base is not None and diff_ok  # the summary separates new from pre-existing findings
    if req.classify:  # and shows the shapes of the modules the change touched
        from pytea_ci.report.shapes import MAX_DETAILS_MODULES

        req.changed_shapes = MAX_DETAILS_MODULES
    outcome = check(req)
    if inputs.suggestions or ns.suggest_fixes:  # the job summary shows the fixes; the comments post them
        from pytea_ci.cli import fixing

        fixing.prove(outcome, req)
    for message in outcome.messages:
        log(f"::warning title=pytea-ci::{_command_data(message)}")
    result, root = outcome.result, outcome.root
    repo_result, repo = cli_run.for_github(result, root)  # GitHub resolves paths from the repository root

    _write(sarif_path, sarif.render(repo_result, repo, category=ns.category))  # first: whatever follows
    log(f"pytea-ci: wrote {os.path.relpath(sarif_path, workspace)}")
    if inputs.annotations:
        out.write(github.render(repo_result, repo))
        out.flush()
    from pytea_ci.report.text import render as text_render

    from pytea_ci.driver.notebook import to_cells

    out.write(text_render(to_cells(result, root), root, color=False))
    out.flush()
    if env.get("GITHUB_STEP_SUMMARY"):
        modules = outcome.shapes if req.changed_shapes else None  # None: the library-mode results of the run
        github.write_step_summary(repo_result, repo, env["GITHUB_STEP_SUMMARY"], modules=modules)
        scope = rng.why if diff_ok or rng.base is None else f"{rng.why}; history missing: every entry point analyzed"
        with open(env["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as f:
            f.write(f"\nScope: {github.escape_cell(scope)}\n")
            if outcome.verdict is not None:
                f.write(new_and_old(result, outcome.verdict, root, repo, env, rng.head))
            if modules:
                f.write("\n" + "\n".join(github.shapes_section(modules)))
    if inputs.suggestions:
        _suggest(repo_result, repo, inputs, event_name, load_event(env), env, log)
    s = summarize(result)
    code = 2 if s.internal_errors else cli_run.exit_code(result, outcome.config.fail_on)
    gate = cli_run.coverage_gate(result, root, outcome.config.min_coverage)
    if gate:
        log(gate.rstrip("\n"))
        code = max(code, 1)
    if env.get("GITHUB_OUTPUT"):
        write_outputs(env["GITHUB_OUTPUT"], {**outputs, "findings": s.findings, "errors": s.by_level["error"],
                                             "warnings": s.by_level["warning"], "analyzed": s.analyzed,
                                             "cached": s.cached, "coverage": _coverage_output(s),
                                             "exit-code": code})
    return code


def _suggest(result: Any, repo: str, inputs: Inputs, event_name: str, event: Mapping[str, Any],
             env: Mapping[str, str], log: Any) -> None:
    """`pull-request-suggestions: true`: each proven fix as a review comment on the pull request."""
    from pytea_ci.fixes import suggestions

    pr = event.get("pull_request") or {}
    if event_name not in PR_EVENTS or not isinstance(pr.get("number"), int):
        log("pytea-ci: pull-request-suggestions: not a pull request event; nothing posted")
        return
    if not inputs.token or not env.get("GITHUB_REPOSITORY"):
        log("::warning title=pytea-ci::pull-request-suggestions needs the github-token input and GITHUB_REPOSITORY")
        return
    head = _sha((pr.get("head") or {}).get("sha")) or env.get("GITHUB_SHA", "")
    base = _sha((pr.get("base") or {}).get("sha"))
    lines = suggestions.pull_request_lines(repo, base, head) if base and head else None
    items, outside = suggestions.in_diff(suggestions.comments(result, repo), lines or {})
    if lines is None and outside:
        log("::warning title=pytea-ci::pull-request-suggestions: the pull request's diff is not in this clone "
            "(to fix: `fetch-depth: 0` on actions/checkout); no fix posted")
    target = suggestions.Target(env.get("GITHUB_API_URL", "https://api.github.com"), env["GITHUB_REPOSITORY"],
                                pr["number"], head, inputs.token)
    failed = suggestions.post(items, target)
    posted = len(items) - len(failed)
    note = (f"{posted} posted as review comments; {len(outside)} not posted because "
            + ("their line is outside the pull request's diff" if lines is not None
               else "the pull request's diff is not in this clone"))
    log(f"pytea-ci: suggested fixes on pull request #{pr['number']}: {note}")
    for line in failed:
        log(f"::warning title=pytea-ci::suggested fix not posted: {_command_data(line)}")
    if env.get("GITHUB_STEP_SUMMARY"):
        with open(env["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as f:
            f.write(f"\nSuggested fixes: {note} (GitHub takes review comments only on the lines of the diff).\n")


def _coverage_output(s: Summary) -> str:
    """Percent of the tensor operations reached that were checked, rounded down; "" when none was reached."""
    return "" if s.coverage is None else str(math.floor(s.coverage * 100 + 1e-9))


def new_and_old(result: Any, verdict: Any, root: str, repo: str, env: Mapping[str, str], head: str) -> str:
    """The job summary's split: findings the pull request introduced, then pre-existing ones, each
    linked to its line in the file at the head commit."""
    from pytea_ci.report.github import escape_cell

    server = env.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
    slug = env.get("GITHUB_REPOSITORY", "")
    prefix = os.path.relpath(os.path.realpath(root), os.path.realpath(repo)).replace(os.sep, "/")
    groups: dict[bool, list[str]] = {True: [], False: []}
    for d in result.diagnostics:
        path = d.span.path.replace(os.sep, "/") if prefix == "." else f"{prefix}/{d.span.path}"
        where = f"{path}:{d.span.line}"
        link = f"[{where}]({server}/{slug}/blob/{head}/{path}#L{d.span.line})" if slug else where
        first = d.message.splitlines()[0] if d.message else ""
        groups[verdict.is_new(d)].append(f"| {d.severity.value} | {d.rule} | {link} | {escape_cell(first)} |")
    out = [f"\n{escape_cell(verdict.message)}\n"]
    for new, title in ((True, "New in this pull request"), (False, "Pre-existing")):
        out.append(f"\n### {title}: {len(groups[new])}\n")
        if groups[new]:
            out += ["", "| level | rule | location | message |", "|---|---|---|---|", *groups[new]]
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """No arguments: the action. Arguments: the pytea-ci CLI, so the same image serves other CI systems
    (`docker run IMAGE check --format sarif ...`)."""
    if argv:
        from pytea_ci import cli

        return cli.main(list(argv))
    return run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
