"""The `json` format: a versioned, machine-readable dump of a run, and its loader.

The schema is documented in docs/json-format.md; bump `VERSION` on any incompatible change. Paths are
relative to the repository root (absolute when outside it); lines and columns are 1-based, columns count
characters (Unicode code points), and `end_column` is exclusive.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from pytea_ci.diagnostics import Diagnostic, Edit, Fix, Frame, Related, Severity, Span, rule_by_id
from pytea_ci.diagnostics.result import EntryResult, EntryStats, RunResult
from pytea_ci.report.source import Sources, Unit
from pytea_ci.report.summary import TOOL_NAME, construction, coverage_data, summarize, tool_version

VERSION = 2  # 2: per-entry coverage, unknown_origins and ended_paths; `unknowns`/`incomplete` recounted
_LISTS = ("unknown_origins", "ended_paths")  # EntryStats fields given at the entry's top level, with locations
_COVERAGE = ("ops_reached", "ops_checked", "checks_decided", "checks_skipped")  # given in `coverage`
_INTERNAL = ("modules_built", "modules_run", "shared_steps", "shared_imports")  # what library mode and the run budget need


def _location(sources: Sources, span: Span) -> dict[str, Any]:
    region = sources.region(span, Unit.CHAR)
    return {
        "path": sources.display(span.path),
        "line": region.line,
        "column": region.col,
        "end_line": None if span.end_line is None else region.end_line,
        "end_column": region.end_col,
    }


def _diagnostic(sources: Sources, d: Diagnostic) -> dict[str, Any]:
    rule = rule_by_id(d.rule)
    fix = {} if d.fix is None else {"fix": {  # only when a fix was proven (`check --suggest-fixes`)
        "title": d.fix.title, "safe": d.fix.safe,
        "edits": [{**_location(sources, e.span), "text": e.text} for e in d.fix.edits]}}
    return {
        "rule": d.rule,
        "slug": rule.slug if rule else "",
        "severity": d.severity.value,
        **_location(sources, d.span),
        "message": d.message,
        "notes": list(d.notes),
        "related": [{**_location(sources, r.span), "message": r.message} for r in d.related],
        "trace": [{**_location(sources, f.span), "message": f.message} for f in d.trace],
        "counterexample": dict(d.counterexample),
        "entry": sources.display(d.entry),
        **fix,
    }


def _point(sources: Sources, location: list[Any]) -> dict[str, Any]:
    """`{path, line, column}` of a stats location `[path, line, byte col]`."""
    loc = _location(sources, Span(location[0], location[1], location[2]))
    return {"path": loc["path"], "line": loc["line"], "column": loc["column"]}


def _entry(sources: Sources, e: EntryResult) -> dict[str, Any]:
    stats = {k: v for k, v in dataclasses.asdict(e.stats).items() if k not in _LISTS + _COVERAGE + _INTERNAL}
    for key in ("seconds", "z3_seconds"):
        stats[key] = round(stats[key], 3)
    return {"entry": sources.display(e.entry), **construction(e), "status": e.status, "cached": e.cached,
            "error": e.error, "coverage": coverage_data(e.stats),
            "unknown_origins": [{**_point(sources, o["location"]), "what": o["what"], "ops": o["ops"]}
                                for o in e.stats.unknown_origins],
            "ended_paths": [{"kind": p["kind"], **_point(sources, p["location"]), "reason": p["reason"],
                             "module": p["module"], "paths": p["paths"]} for p in e.stats.ended_paths],
            "stats": stats}


def _load_stats(sources: Sources, e: dict[str, Any]) -> EntryStats:
    cov = e["coverage"]

    def located(item: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
        span = _span(sources, {**item, "end_line": None, "end_column": None})
        return {"location": [span.path, span.line, span.col], **{k: item[k] for k in keys}}

    return EntryStats(**e["stats"], ops_reached=cov["reached"], ops_checked=cov["checked"],
                      checks_decided=cov["checks_decided"], checks_skipped=cov["checks_skipped"],
                      unknown_origins=[located(o, ("what", "ops")) for o in e["unknown_origins"]],
                      ended_paths=[located(p, ("kind", "reason", "module", "paths")) for p in e["ended_paths"]])


def to_data(result: RunResult, root: str) -> dict[str, Any]:
    """The JSON document as Python data."""
    sources = Sources(root)
    summary = summarize(result)
    return {
        "version": VERSION,
        "tool": {"name": TOOL_NAME, "version": tool_version(result)},
        "summary": {
            "findings": summary.findings,
            "by_level": summary.by_level,
            "by_rule": summary.by_rule,
            "entries": summary.entries,
            "analyzed": summary.analyzed,
            "cached": summary.cached,
            "incomplete": summary.incomplete,
            "internal_errors": summary.internal_errors,
            "seconds": summary.seconds,
            "coverage": {"reached": summary.ops_reached, "checked": summary.ops_checked,
                         "ratio": None if summary.coverage is None else round(summary.coverage, 4)},
        },
        "entries": [_entry(sources, e) for e in result.entries],
        "diagnostics": [_diagnostic(sources, d) for d in result.diagnostics],
    }


def render(result: RunResult, root: str) -> str:
    return json.dumps(to_data(result, root), indent=2, ensure_ascii=False) + "\n"


# ----- loading ---------------------------------------------------------------------------------------
def _span(sources: Sources, loc: dict[str, Any]) -> Span:
    path, line, end_line, end_col = loc["path"], loc["line"], loc["end_line"], loc["end_column"]
    return Span(
        path, line, sources.byte_column(path, line, loc["column"], Unit.CHAR), end_line,
        None if end_col is None else sources.byte_column(path, end_line or line, end_col, Unit.CHAR),
    )


def _load_diagnostic(sources: Sources, d: dict[str, Any]) -> Diagnostic:
    return Diagnostic(
        rule=d["rule"],
        severity=Severity(d["severity"]),
        span=_span(sources, d),
        message=d["message"],
        notes=tuple(d["notes"]),
        related=tuple(Related(_span(sources, r), r["message"]) for r in d["related"]),
        trace=tuple(Frame(_span(sources, f), f["message"]) for f in d["trace"]),
        counterexample=dict(d["counterexample"]),
        entry=d["entry"],
        fix=None if "fix" not in d else Fix(d["fix"]["title"], tuple(Edit(_span(sources, e), e["text"])
                                                                    for e in d["fix"]["edits"]), d["fix"]["safe"]),
    )


def load(text: str, root: str) -> RunResult:
    """Rebuild a `RunResult` from this format (paths stay as written, relative to `root`).

    Each diagnostic is attached to the entry it names (to the first entry when it names none), so
    `RunResult.diagnostics` gives back the rendered list. Raises ValueError on another schema version.
    """
    doc = json.loads(text)
    if doc.get("version") != VERSION:
        raise ValueError(f"unsupported pytea-ci JSON version {doc.get('version')!r} (expected {VERSION})")
    sources = Sources(root)
    entries = [
        EntryResult(entry=e["entry"], stats=_load_stats(sources, e), status=e["status"], error=e["error"],
                    cached=e["cached"])
        for e in doc["entries"]
    ]
    by_name = {e.entry: e for e in entries}
    for d in doc["diagnostics"]:
        diag = _load_diagnostic(sources, d)
        owner = by_name.get(diag.entry) or (entries[0] if entries else None)
        if owner is None:
            owner = EntryResult(entry=diag.entry)
            entries.append(owner)
            by_name[owner.entry] = owner
        owner.diagnostics.append(diag)
    return RunResult(entries=entries, seconds=doc["summary"]["seconds"], tool_version=doc["tool"]["version"])
