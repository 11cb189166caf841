"""`pytea-ci shapes` output: each module's input contract, example input, output shape and per-layer
table, as text, JSON (schema in docs/shapes.md) or Markdown (the Action's job summary)."""

from __future__ import annotations

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
