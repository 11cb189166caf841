"""What a long-lived process (the language server) may ask of a running analysis: per-name shapes for
hover and inlay hints, and to stop a run that a newer edit made stale.

The interpreter reports each binding of a name (assignments, loop targets, function parameters) to
the recorder installed here; with none installed (every `check` run) that costs one test. The
recorder gets the binding's span, the name and a one-line description of the value — only tensors
are described — so it needs nothing from the interpreter's value types. Where the interpreter checks
its time budget it also asks `cancelled()`: a run whose results nobody wants ends as if its time were
up (the caller drops its results).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytea_ci.diagnostics import Span
from pytea_ci.shapes.dim import origin_of, symbols
from pytea_ci.shapes.tensor import Tensor, fmt_shape

Recorder = Callable[[Span, str, str, tuple[str, ...]], None]  # (span, name, shape text, symbol origins)

recorder: Recorder | None = None
_cancel: Callable[[], bool] | None = None


def install(r: Recorder | None, cancel: Callable[[], bool] | None = None) -> None:
    global recorder, _cancel
    recorder, _cancel = r, cancel


def cancelled() -> bool:
    return _cancel is not None and _cancel()


def binding(span: Span, name: str, value: Any) -> None:
    """Tell the recorder that `name` was bound to `value` at `span` (tensors only)."""
    if recorder is None or not isinstance(value, Tensor):
        return
    text = fmt_shape(value.shape)
    if value.dtype:
        text += f" {value.dtype}"
    recorder(span, name, text, _origins(value))


def _origins(t: Tensor) -> tuple[str, ...]:
    out: dict[str, str] = {}
    for d in t.shape or ():
        for s in sorted(symbols(d), key=repr):
            if repr(s) in out:
                continue
            span, note = origin_of(s)
            if span is not None:
                out[repr(s)] = f"{s!r}: {note or 'defined'} at {span.path}:{span.line}"
    return tuple(out.values())
