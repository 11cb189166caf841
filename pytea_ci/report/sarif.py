"""The `sarif` format: one SARIF 2.1.0 log for GitHub code scanning, built from sarif-om objects.

What GitHub reads, and how we fill it:
- `tool.driver.rules` is the whole rule catalogue (docs in `help.markdown`), so every `ruleIndex` is stable.
- Every result states its `level`, even when it equals the rule's default (a severity override may lower it).
- Paths are relative to the repository root under `uriBaseId` `%SRCROOT%`; regions are 1-based with
  columns in UTF-16 code units (`columnKind`), converted from Python's UTF-8 byte offsets.
- `partialFingerprints.primaryLocationLineHash` is computed here (the REST API does not compute it),
  with `primaryLocationStartColumnFingerprint` so that findings sharing a line stay apart.
- Related locations are linked from the message as `[text](id)`; the trace becomes one code flow whose
  thread-flow locations are inline, ending at the finding.
- Entry points that failed or stopped early become tool execution notifications. GitHub's limits
  (results per run, locations per result, thread-flow locations) are enforced by truncation, each with
  a notification, keeping the gravest results.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

from sarif_om import (  # type: ignore[import-untyped]
    ArtifactChange,
    ArtifactContent,
    ArtifactLocation,
    CodeFlow,
    Fix,
    Invocation,
    Location,
    Message,
    MultiformatMessageString,
    Notification,
    PhysicalLocation,
    Region,
    Replacement,
    ReportingConfiguration,
    ReportingDescriptor,
    ReportingDescriptorReference,
    Result,
    Run,
    RunAutomationDetails,
    SarifLog,
    ThreadFlow,
    ThreadFlowLocation,
    Tool,
    ToolComponent,
)

from pytea_ci.diagnostics import RULES, Diagnostic, Frame, Related, Rule, Severity, Span
from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.diagnostics.rules import (DEVICE_MISMATCH, DTYPE_MISMATCH, INCOMPLETE, NOTHING_CHECKED, PARSE_ERROR, POSSIBLE_SHAPE_MISMATCH, UNDECIDED)
from pytea_ci.report.fingerprint import decode_like_node, line_hashes
from pytea_ci.report.sarif_json import build, to_data
from pytea_ci.report.source import Sources, Unit
from pytea_ci.report.summary import (TOOL_NAME, construction, coverage_data, gravest_first, hit_budget, summarize, tool_version,
                                     top_origins)

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/pytea-ci/pytea-ci"
RULES_DOC_URI = f"{INFORMATION_URI}/blob/main/docs/rules.md"
SRCROOT = "%SRCROOT%"
DEFAULT_CATEGORY = "pytea-ci/"
COVERAGE_KEY = "pytea-ci/coverage"  # the run's property bag entry with the coverage figures

# GitHub code scanning limits: over them, an upload is rejected.
MAX_RESULTS = 25_000
MAX_LOCATIONS = 1_000
MAX_FLOW_LOCATIONS = 10_000
MAX_DESCRIPTION = 1_024

_PROBLEM_SEVERITY = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "recommendation"}
_PRECISION = {POSSIBLE_SHAPE_MISMATCH.id: "medium", UNDECIDED.id: "low", INCOMPLETE.id: "low", PARSE_ERROR.id: "very-high"}  # others: "high"
_TAGS = {UNDECIDED.id: ("pytorch", "analysis-coverage"), INCOMPLETE.id: ("pytorch", "analysis-coverage"),
         PARSE_ERROR.id: ("correctness", "syntax"), DTYPE_MISMATCH.id: ("correctness", "pytorch", "tensor-dtype"),
         DEVICE_MISMATCH.id: ("correctness", "pytorch", "tensor-device")}  # others: shape rules
_SHAPE_TAGS = ("correctness", "pytorch", "tensor-shape")
_LINK_LIKE = re.compile(r"\[(?=[^\]\n]*\]\()")  # a "[" that would start an embedded link


def render(result: RunResult, root: str, *, category: str = DEFAULT_CATEGORY, indent: int | None = None,
           notices: Sequence[str] = ()) -> str:
    """The SARIF log as JSON text. `category` becomes `automationDetails.id` ("" leaves it out);
    `notices` (the run's warnings, e.g. an entry-point glob that matched nothing) become warning
    notifications of the invocation.

    Compact by default: GitHub caps uploads by size, and Python's JSON encoder is several times
    slower with `indent` (seconds for 25,000 results).
    """
    data = to_data(build_log(result, root, category=category, notices=notices))
    data = {"$schema": data.pop("$schema"), "version": data.pop("version"), **data}  # the usual order
    separators = None if indent is not None else (",", ":")
    return json.dumps(data, indent=indent, separators=separators, ensure_ascii=False) + "\n"


def build_log(result: RunResult, root: str, *, category: str = DEFAULT_CATEGORY,
              notices: Sequence[str] = ()) -> SarifLog:
    builder = _LogBuilder(result, root)
    for text in notices:
        builder.warn(text)
    return builder.log(category)


def _text(text: str) -> Message:
    return build(Message, text=text)


def _clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _link_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _rule_descriptor(rule: Rule) -> ReportingDescriptor:
    return build(
        ReportingDescriptor,
        id=rule.id,
        name=rule.slug,
        short_description=build(MultiformatMessageString, text=_clip(rule.summary)),
        full_description=build(MultiformatMessageString, text=_clip(rule.what)),
        help=build(MultiformatMessageString, text=rule.text(), markdown=rule.markdown()),
        help_uri=f"{RULES_DOC_URI}#{rule.anchor}",
        default_configuration=build(ReportingConfiguration, level=rule.level.value),
        properties={
            "tags": list(_TAGS.get(rule.id, _SHAPE_TAGS)),
            "precision": _PRECISION.get(rule.id, "high"),
            "problem.severity": _PROBLEM_SEVERITY[rule.level],
        },
    )


def _unknown_rule(rule_id: str) -> ReportingDescriptor:
    """A descriptor for a rule id missing from the catalogue, so that its results stay valid."""
    return build(
        ReportingDescriptor, id=rule_id, name=rule_id.lower(),
        short_description=build(MultiformatMessageString, text=rule_id),
        full_description=build(MultiformatMessageString, text=rule_id),
        help=build(MultiformatMessageString, text=rule_id),
    )


def _keep(items: Sequence[Frame], limit: int) -> list[Frame]:
    """At most `limit` items: the first ones and the last (where a trace reaches the finding)."""
    return list(items) if len(items) <= limit else [*items[: limit - 1], items[-1]]


class _LogBuilder:
    """Builds one run; collects the notifications that truncation and failed entry points produce."""

    def __init__(self, result: RunResult, root: str) -> None:
        self.result = result
        self.sources = Sources(root)
        self.notifications: list[Notification] = []
        self.descriptors = [_rule_descriptor(r) for r in RULES]
        self.rule_index = {r.id: i for i, r in enumerate(RULES)}
        self._hashes: dict[str, list[str] | None] = {}

    # ----- the log ---------------------------------------------------------------------------------
    def log(self, category: str) -> SarifLog:
        results = [self.result_of(d) for d in self.kept_diagnostics()]
        self.entry_notifications()
        version = tool_version(self.result)
        driver = build(ToolComponent, name=TOOL_NAME, version=version, semantic_version=version,
                       information_uri=INFORMATION_URI, rules=self.descriptors)
        invocation = build(
            Invocation,
            execution_successful=all(e.status != "internal-error" for e in self.result.entries),
            tool_execution_notifications=self.notifications or None,
        )
        if category and "/" not in category:
            category += "/"  # GitHub reads `category/run-id`: a bare word would be a run id
        run = build(
            Run,
            tool=build(Tool, driver=driver),
            results=results,
            invocations=[invocation],
            automation_details=build(RunAutomationDetails, id=category) if category else None,
            column_kind="utf16CodeUnits",
            properties=self.coverage_properties(),
            original_uri_base_ids={SRCROOT: build(ArtifactLocation, uri=Path(self.sources.root).as_uri() + "/")},
        )
        return build(SarifLog, schema_uri=SCHEMA_URI, version="2.1.0", runs=[run])

    def kept_diagnostics(self) -> list[Diagnostic]:
        diagnostics = self.result.diagnostics
        if len(diagnostics) <= MAX_RESULTS:
            return diagnostics
        kept = {id(d) for d in gravest_first(diagnostics)[:MAX_RESULTS]}
        self.warn(f"{len(diagnostics) - MAX_RESULTS} results were left out: GitHub accepts at most "
                  f"{MAX_RESULTS} per run; the gravest were kept.")
        return [d for d in diagnostics if id(d) in kept]

    def entry_notifications(self) -> None:
        for e in self.result.entries:
            entry = self.sources.display(e.entry)
            if e.status == "internal-error":
                self.entry_note(e, INCOMPLETE.id, "error",
                                f"{entry}: the analysis failed with an internal error: {e.error or 'no details'}")
            elif hit_budget(e):
                budgets = "; ".join(d.message for d in e.diagnostics if d.rule == INCOMPLETE.id)
                self.entry_note(e, INCOMPLETE.id, "warning", f"{entry}: the analysis stopped at a budget; code after it "
                                f"was not checked" + (f" ({budgets})" if budgets else "."))
            for d in e.diagnostics:
                if d.rule == NOTHING_CHECKED.id:
                    self.entry_note(e, NOTHING_CHECKED.id, "warning", f"{entry}: {d.message}", d.span)

    def entry_note(self, e: EntryResult, rule: str, level: str, text: str, span: Span | None = None) -> None:
        where = self.physical(span, region=True) if span is not None else self.physical(Span(e.entry, 1), region=False)
        self.notifications.append(build(
            Notification, message=_text(text), level=level, locations=[build(Location, physical_location=where)],
            associated_rule=build(ReportingDescriptorReference, id=rule, index=self.rule_index[rule]),
        ))

    def coverage_properties(self) -> dict[str, object]:
        """The run's coverage figures (a property bag: SARIF has no field for them)."""
        totals = summarize(self.result)
        entries = sorted(self.result.entries, key=lambda e: self.sources.display(e.entry))
        return {COVERAGE_KEY: {
            "reached": totals.ops_reached, "checked": totals.ops_checked,
            "ratio": None if totals.coverage is None else round(totals.coverage, 4),
            "entries": [{"entry": self.sources.display(e.entry), **construction(e), **coverage_data(e.stats),
                         "topUnknownOrigins": [{"what": o.what, "path": self.sources.display(o.path), "line": o.line,
                                                "ops": o.ops} for o in top_origins([e], 3)]}
                        for e in entries]}}

    def warn(self, text: str) -> None:
        self.notifications.append(build(Notification, message=_text(text), level="warning"))

    # ----- results ---------------------------------------------------------------------------------
    def result_of(self, d: Diagnostic) -> Result:
        related = list(d.related)
        if len(related) > MAX_LOCATIONS:
            self.warn(f"{d.span}: {len(related) - MAX_LOCATIONS} related locations were left out "
                      f"(GitHub accepts at most {MAX_LOCATIONS} per result).")
            related = related[:MAX_LOCATIONS]
        return build(
            Result,
            rule_id=d.rule,
            rule_index=self.index_of(d.rule),
            level=d.severity.value,
            message=_text(self.message(d, related)),
            locations=[build(Location, physical_location=self.physical(d.span))],
            related_locations=[self.location(r.span, r.message, i) for i, r in enumerate(related, 1)] or None,
            code_flows=[self.code_flow(d)] if d.trace else None,
            partial_fingerprints=self.fingerprints(d.span),
            fixes=[self.fix(d)] if d.fix is not None else None,
            properties=self.properties(d),
        )

    def fix(self, d: Diagnostic) -> Fix:
        """A proven repair (pytea_ci/fixes/): one artifact change per file, its edits as replacements."""
        assert d.fix is not None
        by_file: dict[str, list[Replacement]] = {}
        for e in d.fix.edits:
            region = self.physical(e.span).region
            by_file.setdefault(e.span.path, []).append(build(
                Replacement, deleted_region=region, inserted_content=build(ArtifactContent, text=e.text)))
        changes = [build(ArtifactChange, artifact_location=self.physical(Span(path, 1), region=False).artifact_location,
                         replacements=reps) for path, reps in by_file.items()]
        text = d.fix.title + ("" if d.fix.safe else " (unsafe)")
        return build(Fix, description=_text(text), artifact_changes=changes)

    def index_of(self, rule_id: str) -> int:
        if rule_id not in self.rule_index:
            self.rule_index[rule_id] = len(self.descriptors)
            self.descriptors.append(_unknown_rule(rule_id))
        return self.rule_index[rule_id]

    @staticmethod
    def message(d: Diagnostic, related: list[Related]) -> str:
        lines = [_LINK_LIKE.sub(r"\\[", text) for text in (d.message, *d.notes)]
        if related:
            links = ", ".join(f"[{_link_text(r.message)}]({i})" for i, r in enumerate(related, 1))
            lines.append(f"Related: {links}")
        return "\n".join(lines)

    def properties(self, d: Diagnostic) -> dict[str, object] | None:
        props: dict[str, object] = {}
        if d.counterexample:
            props["counterexample"] = dict(d.counterexample)
        if d.entry:
            props["entry"] = self.sources.display(d.entry)
        return props or None

    def code_flow(self, d: Diagnostic) -> CodeFlow:
        frames = list(d.trace)
        last = frames[-1].span
        if (last.path, last.line, last.col) != (d.span.path, d.span.line, d.span.col):
            frames.append(Frame(d.span, d.message.splitlines()[0] if d.message else d.rule))
        if len(frames) > MAX_FLOW_LOCATIONS:
            self.warn(f"{d.span}: {len(frames) - MAX_FLOW_LOCATIONS} steps of its trace were left out "
                      f"(GitHub accepts at most {MAX_FLOW_LOCATIONS} per result).")
            frames = _keep(frames, MAX_FLOW_LOCATIONS)
        steps = [build(ThreadFlowLocation, location=self.location(f.span, f.message)) for f in frames]
        return build(CodeFlow, thread_flows=[build(ThreadFlow, locations=steps)])

    # ----- locations -------------------------------------------------------------------------------
    def location(self, span: Span, message: str, ident: int | None = None) -> Location:
        return build(Location, id=ident, physical_location=self.physical(span), message=_text(message))

    def physical(self, span: Span, *, region: bool = True) -> PhysicalLocation:
        rel = self.sources.relative(span.path)
        if rel is None:
            artifact = build(ArtifactLocation, uri=Path(self.sources.locate(span.path)).as_uri())
        else:
            artifact = build(ArtifactLocation, uri=quote(rel, safe="/"), uri_base_id=SRCROOT)
        if not region:
            return build(PhysicalLocation, artifact_location=artifact)
        r = self.sources.region(span, Unit.UTF16)
        return build(PhysicalLocation, artifact_location=artifact, region=build(
            Region, start_line=r.line, start_column=r.col, end_line=r.end_line, end_column=r.end_col))

    def fingerprints(self, span: Span) -> dict[str, str] | None:
        """`primaryLocationLineHash` (GitHub's, see fingerprint.py), and like CodeQL's logs
        `primaryLocationStartColumnFingerprint`: the start column counted from the line's first
        non-blank character, so that two findings of one rule on one line stay two alerts while
        re-indenting the line (which the line hash ignores) changes neither."""
        full = self.sources.locate(span.path)
        if full not in self._hashes:
            data = self.sources.data(full) if self.sources.relative(full) is not None else None
            self._hashes[full] = None if data is None else line_hashes(decode_like_node(data))
        hashes = self._hashes[full]
        if hashes is None or not 1 <= span.line <= len(hashes):
            return None
        lines = self.sources.lines(full) or []
        text = lines[span.line - 1] if span.line <= len(lines) else ""
        indent = len(text) - len(text.lstrip(" \t"))
        column = self.sources.region(span, Unit.UTF16).col - 1 - indent
        return {"primaryLocationLineHash": hashes[span.line - 1],
                "primaryLocationStartColumnFingerprint": str(max(0, column))}


def partial_fingerprints(diagnostics: Sequence[Diagnostic], root: str) -> list[dict[str, str] | None]:
    """The `partialFingerprints` each diagnostic gets in a SARIF log of `root` (None when its file
    cannot be read): what `--new-only` and baselines compare."""
    builder = _LogBuilder(RunResult(), root)
    return [builder.fingerprints(d.span) for d in diagnostics]
