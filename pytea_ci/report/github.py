"""The `github` format: workflow-command annotations, and the markdown job summary of a run.

`render` prints `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=PT001 shape-mismatch::message`
(`warning`, `notice` for the other levels). GitHub shows at most 10 annotations of each level per step,
so only the gravest 10 of each level are printed, plus one plain line counting the rest (SARIF carries
them all). Columns are 1-based UTF-16 code units, end exclusive as in SARIF, and given only for
single-line spans (GitHub ignores columns when start and end lines differ).

`write_step_summary` appends a markdown report to `$GITHUB_STEP_SUMMARY`: counts, a table of findings
(each location a link to the file and line of the analyzed commit), counts by rule, and the entry points
analyzed or taken from the cache. Every text is escaped for markdown, control characters included.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from urllib.parse import quote

from pytea_ci.diagnostics import Diagnostic, Severity, rule_by_id
from pytea_ci.diagnostics.modshapes import ModuleShapes
from pytea_ci.diagnostics.result import RunResult
from pytea_ci.report.source import Sources, Unit
from pytea_ci.report.summary import LEVELS, TOOL_NAME, checked_text, gravest_first, percent, summarize, top_origins

MAX_ANNOTATIONS_PER_LEVEL = 10
MAX_SUMMARY_FINDINGS = 200  # rows; the summary must stay well under GitHub's 1 MiB per step
MAX_SUMMARY_ENTRIES = 200
MAX_SUMMARY_ORIGINS = 10
MAX_CELL = 300  # characters of a message shown in a table cell

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")  # what can change meaning inside a table cell
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # C0 but tab, LF, CR; DEL; C1


def visible(text: str) -> str:
    """Control characters (an ANSI escape's ESC, a CSI, NUL, ...) shown as `\\x1b`, never sent raw:
    GitHub's log and annotation viewers would interpret them. Tab, LF and CR are escaped elsewhere."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


# ----- workflow commands ---------------------------------------------------------------------------
def escape_data(text: str) -> str:
    """Escape a workflow command's message (and make control characters visible)."""
    return visible(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command's property value (file, title, ...)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def rule_label(rule_id: str) -> str:
    """"PT001 shape-mismatch": the annotation title and the summary's rule column."""
    rule = rule_by_id(rule_id)
    return f"{rule_id} {rule.slug}" if rule else rule_id


def annotation(d: Diagnostic, sources: Sources) -> str:
    """One workflow command for a diagnostic."""
    r = sources.region(d.span, Unit.UTF16)
    props = {"file": sources.display(d.span.path), "line": str(r.line)}
    if r.end_line == r.line:
        props["col"] = str(r.col)
    props["endLine"] = str(r.end_line)
    if r.end_line == r.line and r.end_col is not None:
        props["endColumn"] = str(r.end_col)
    props["title"] = rule_label(d.rule)
    fields = ",".join(f"{k}={escape_property(v)}" for k, v in props.items())
    message = "\n".join((d.message, *d.notes))
    return f"::{_COMMAND[d.severity]} {fields}::{escape_data(message)}"


def render(result: RunResult, root: str) -> str:
    sources = Sources(root)
    lines: list[str] = []
    left_out: list[str] = []
    ordered = gravest_first(result.diagnostics)
    for level in LEVELS:
        of_level = [d for d in ordered if d.severity is level]
        lines += [annotation(d, sources) for d in of_level[:MAX_ANNOTATIONS_PER_LEVEL]]
        if len(of_level) > MAX_ANNOTATIONS_PER_LEVEL:
            left_out.append(f"{len(of_level) - MAX_ANNOTATIONS_PER_LEVEL} {_COMMAND[level]}")
    if left_out:
        lines.append(f"{TOOL_NAME}: not annotated (GitHub shows {MAX_ANNOTATIONS_PER_LEVEL} per level): "
                     f"{', '.join(left_out)}; see the SARIF results or the job summary.")
    return "".join(line + "\n" for line in lines)


# ----- job summary ---------------------------------------------------------------------------------
def escape_cell(text: str, limit: int = MAX_CELL) -> str:
    """Text safe inside a markdown table cell: markdown escaped, pipes escaped, line breaks as <br>."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    text = visible(text)
    return "<br>".join(_MARKDOWN_SPECIAL.sub(r"\\\1", line) for line in text.splitlines())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    return [f"| {' | '.join(header)} |", f"|{'---|' * len(header)}",
            *(f"| {' | '.join(row)} |" for row in rows), ""]


def blob_url(env: Mapping[str, str]) -> str | None:
    """`https://github.com/OWNER/REPO/blob/SHA/` from a workflow's environment, None outside one."""
    server, repo, sha = (env.get(k, "") for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA"))
    return f"{server.rstrip('/')}/{repo}/blob/{sha}/" if server and repo and sha else None


def _where(sources: Sources, d: Diagnostic, links: str | None) -> str:
    """The location cell: `path:line`, linked to the file and line on GitHub when `links` is given."""
    text = escape_cell(f"{sources.display(d.span.path)}:{d.span.line}")
    rel = sources.relative(d.span.path)
    if links is None or rel is None:
        return text
    return f"[{text}]({links}{quote(rel, safe='/')}#L{max(1, d.span.line)})"


def _fix_line(d: Diagnostic) -> list[str]:
    """The proven fix under the message (`check --suggest-fixes`, the action's pull-request-suggestions)."""
    if d.fix is None:
        return []
    return [f"fix: {d.fix.title}" + ("" if d.fix.safe else " (unsafe)")]


def step_summary(result: RunResult, root: str, links: str | None = None,
                 modules: Sequence[ModuleShapes] | None = None) -> str:
    """The markdown job summary of a run. `links` (see `blob_url`) makes each location a link. The
    module shapes are those of the run's library-mode results unless `modules` is given (the caller
    then places `shapes_section(modules)` itself)."""
    sources = Sources(root)
    s = summarize(result)
    counts = ", ".join(_plural(s.by_level[level.value], level.value) for level in LEVELS)
    totals = (f"**{counts}** in {_plural(s.entries, 'entry point')} ({s.analyzed} analyzed, "
              f"{s.cached} from the cache) in {s.seconds:.2f} s; {checked_text(s.ops_checked, s.ops_reached)}.")
    out = [f"## {TOOL_NAME}", "", totals, ""]
    if s.internal_errors or s.incomplete:
        failed = (f"⚠️ {_plural(s.internal_errors, 'entry point')} failed with an internal error, "
                  f"{s.incomplete} stopped at a budget.")
        out += [failed, ""]
        out += [f"- {escape_cell(sources.display(e.entry))}: {escape_cell(e.error.splitlines()[0])}"
                for e in result.entries if e.status == "internal-error" and e.error]
        out += [""] if s.internal_errors else []
    diagnostics = gravest_first(result.diagnostics)
    if diagnostics:
        rows = [(d.severity.value, escape_cell(rule_label(d.rule)),
                 _where(sources, d, links),
                 escape_cell("\n".join((d.message, *d.notes, *_fix_line(d)))))
                for d in diagnostics[:MAX_SUMMARY_FINDINGS]]
        out += ["### Findings", "", *_table(("Level", "Rule", "Location", "Message"), rows)]
        if len(diagnostics) > MAX_SUMMARY_FINDINGS:
            out += [f"… and {len(diagnostics) - MAX_SUMMARY_FINDINGS} more (see the SARIF results).", ""]
        out += ["### By rule", "",
                *_table(("Rule", "Count"), [(escape_cell(rule_label(k)), str(v)) for k, v in s.by_rule.items()])]
    if result.entries:
        entries = [(escape_cell(sources.display(e.entry)), escape_cell(e.status), "yes" if e.cached else "no",
                    str(len(e.diagnostics)), _coverage_cell(e.stats.ops_checked, e.stats.ops_reached),
                    f"{e.stats.seconds:.2f} s")
                   for e in result.entries[:MAX_SUMMARY_ENTRIES]]
        out += ["### Entry points", "",
                *_table(("Entry point", "Status", "Cached", "Findings", "Coverage", "Time"), entries)]
        if len(result.entries) > MAX_SUMMARY_ENTRIES:
            out += [f"… and {len(result.entries) - MAX_SUMMARY_ENTRIES} more.", ""]
    out += _origins_section(result, sources)
    if modules is None:
        out += shapes_section([e.shapes for e in result.entries if e.shapes is not None])
    return "\n".join(out)


def shapes_section(modules: Sequence[ModuleShapes]) -> list[str]:
    """Modules checked alone (library mode; with a diff, those of the changed files), one collapsed
    block each: input contract, output shape and per-layer table, as `pytea-ci shapes` prints them."""
    from pytea_ci.report.shapes import render_details

    if not modules:
        return []
    return ["### Module shapes", "",
            "Each module checked alone (library mode), for every input that satisfies its contract; "
            "expand a module for its example and layers.", "", render_details(list(modules))]


def _coverage_cell(checked: int, reached: int) -> str:
    """`92% (212/230)`: tensor operations checked of those reached; `n/a` when none was reached."""
    return "n/a" if not reached else f"{percent(checked / reached)} ({checked}/{reached})"


def _origins_section(result: RunResult, sources: Sources) -> list[str]:
    """The values not understood that disabled the most tensor operations (`pytea-ci explain` lists all)."""
    top = top_origins(result.entries, MAX_SUMMARY_ORIGINS)
    if not top:
        return []
    rows = [(str(o.ops), escape_cell(f"{sources.display(o.path)}:{o.line}"), escape_cell(o.what)) for o in top]
    return ["### Where the analysis lost track", "",
            "Tensor operations not checked because a value was not understood, by where it came from "
            "(`pytea-ci explain ENTRY` lists every reason):", "",
            *_table(("Operations", "Location", "Value not understood"), rows)]


def write_step_summary(result: RunResult, root: str, path: str, env: Mapping[str, str] | None = None,
                       modules: Sequence[ModuleShapes] | None = None) -> None:
    """Append the job summary to `path` (the file named by `$GITHUB_STEP_SUMMARY`); locations link to
    the analyzed commit when `env` (default: the process environment) describes a workflow run."""
    with open(path, "a", encoding="utf-8") as f:
        f.write(step_summary(result, root, blob_url(os.environ if env is None else env), modules))
