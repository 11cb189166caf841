"""`pytea-ci shapes` output: each module's input contract, example input, output shape and per-layer
table, as text, JSON (schema in docs/shapes.md) or Markdown; `render_details` is the compact form of the
Action's job summary (one collapsed block per module, bounded in size)."""

from __future__ import annotations

import html
import json

from pytea_ci.diagnostics.modshapes import Layer, ModuleShapes

SCHEMA_VERSION = 1


def _example(v: list[int] | None) -> str:
    return "[" + ", ".join(map(str, v)) + "]" if v is not None else "-"


def _inputs(m: ModuleShapes) -> list[str]:
    return [f"{i.name}: [{', '.join(i.shape)}]" if i.shape is not None else f"{i.name}: (not a tensor)"
            for i in m.inputs]


def _layer_cells(row: Layer) -> list[str]:
    name = "  " * max(0, row.depth) + row.name
    shapes_in = ", ".join(row.inputs) or "-"
    return [name, row.kind, shapes_in, row.output, row.params or "-"]


def _header(m: ModuleShapes) -> list[str]:
    lines = [f"{m.module}  (built with {m.construction}; {m.status})"]
    for text, i in zip(_inputs(m), m.inputs):
        lines.append(f"  input   {text}    example {_example(i.example)}")
    if m.contract:
        lines.append("  where   " + "\n          ".join(m.contract))
    lines.append(f"  output  {m.output}    example {_example(m.output_example)}")
    if m.params:
        lines.append(f"  params  {m.params}")
    lines += [f"  note    {n}" for n in m.notes]
    lines += [f"  finding {d.rule} line {d.span.line}: {d.message}" for d in m.diagnostics]
    return lines


def render_text(modules: list[ModuleShapes]) -> str:
    out: list[str] = []
    for m in modules:
        out += _header(m)
        rows = [["layer", "kind", "input", "output", "params"]] + [_layer_cells(r) for r in m.layers]
        if len(rows) > 1:
            widths = [max(len(r[i]) for r in rows) for i in range(5)]
            out += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
        out.append("")
    return "\n".join(out) if out else "no module found\n"


def render_json(modules: list[ModuleShapes]) -> str:
    return json.dumps({"version": SCHEMA_VERSION, "modules": [m.as_dict() for m in modules]}, indent=2) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(modules: list[ModuleShapes]) -> str:
    out: list[str] = []
    for m in modules:
        out.append(f"### `{m.module}` ({m.status})")
        out.append("")
        out.append(f"Built with {_md(m.construction)}.")
        for text, i in zip(_inputs(m), m.inputs):
            out.append(f"- input `{_md(text)}`, e.g. `{_example(i.example)}`")
        if m.contract:
            out.append("- where " + ", ".join(f"`{_md(c)}`" for c in m.contract))
        out.append(f"- output `{_md(m.output)}`, e.g. `{_example(m.output_example)}`")
        out += [f"- **{d.rule}** line {d.span.line}: {_md(d.message)}" for d in m.diagnostics]
        if m.layers:
            out += ["", "| layer | kind | input | output | params |", "|---|---|---|---|---|"]
            out += ["| " + " | ".join(_md(c).replace("  ", "&nbsp;&nbsp;") for c in _layer_cells(r)) + " |"
                    for r in m.layers]
        out.append("")
    return "\n".join(out) if out else "No module found.\n"


# ----- the job summary: compact, collapsed, bounded --------------------------------------------------------
MAX_DETAILS_MODULES = 20  # modules shown; the summary must stay well under GitHub's 1 MiB per step
MAX_DETAILS_LAYERS = 40  # table rows per module
MAX_DETAILS_CELL = 80  # characters per shape or condition
MAX_DETAILS_CONDITIONS = 8


def _cut(text: str, limit: int = MAX_DETAILS_CELL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _code(text: str) -> str:
    """A markdown code span that is safe in a table cell (GitHub unescapes `\\|` inside it)."""
    text = _cut(text).replace("|", "\\|").replace("`", "'")
    return f"`{text}`" if text else "-"


def _html(text: str) -> str:
    return f"<code>{html.escape(_cut(text), quote=False)}</code>"


def _details(m: ModuleShapes) -> list[str]:
    inputs = ", ".join(_inputs(m)) or "no tensor input"
    params = f", {html.escape(_cut(m.params))} params" if m.params else ""
    head = f"{_html(m.module)} ({html.escape(m.status)}): {_html(inputs)} → {_html(m.output)}{params}"
    body = [f"Built with {_md(m.construction)}."]
    examples = [_example(i.example) for i in m.inputs if i.shape is not None]
    if examples:
        body.append(f"Example input {', '.join(_code(e) for e in examples)} → {_code(_example(m.output_example))}.")
    if m.contract:
        shown = ", ".join(_code(c) for c in m.contract[:MAX_DETAILS_CONDITIONS])
        more = f" and {len(m.contract) - MAX_DETAILS_CONDITIONS} more" if len(m.contract) > MAX_DETAILS_CONDITIONS else ""
        body.append(f"Where {shown}{more}.")
    body += [f"Note: {_md(_cut(n, 200))}" for n in m.notes[:3]]
    out = [f"<details><summary>{head}</summary>", "", "<br>".join(body), ""]
    if m.layers:
        out += ["| layer | kind | input | output | params |", "|---|---|---|---|---|"]
        for row in m.layers[:MAX_DETAILS_LAYERS]:
            name = "&nbsp;&nbsp;" * max(0, row.depth) + _md(_cut(row.name, 40))
            out.append(f"| {name} | {_md(_cut(row.kind, 40))} | {', '.join(_code(i) for i in row.inputs) or '-'} "
                       f"| {_code(row.output)} | {_code(row.params)} |")
        if len(m.layers) > MAX_DETAILS_LAYERS:
            out.append(f"\n… and {len(m.layers) - MAX_DETAILS_LAYERS} more layers (`pytea-ci shapes {m.module}`).")
        out.append("")
    return [*out, "</details>", ""]


def render_details(modules: list[ModuleShapes]) -> str:
    """One collapsed `<details>` block per module (its input and output shapes in the one-line summary,
    the contract, example and per-layer table inside), at most `MAX_DETAILS_MODULES` of them."""
    out: list[str] = []
    for m in modules[:MAX_DETAILS_MODULES]:
        out += _details(m)
    if len(modules) > MAX_DETAILS_MODULES:
        out.append(f"… and {len(modules) - MAX_DETAILS_MODULES} more modules (`pytea-ci shapes FILE` prints them).")
    return "\n".join(out) + "\n" if out else ""
