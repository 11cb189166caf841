"""What a long-lived process (the language server) hands a running analysis, as one object passed in
(`Editor`: through `CheckRequest`, the driver's `Options` and `Shared`, never a process global): the
unsaved buffers that stand in for files, a recorder of per-name shapes for hover and inlay hints,
and a test that stops a run a newer edit made stale.

The interpreter reports each binding of a name (assignments, loop targets, function parameters) to
the recorder; with none (every `check` run) that costs one test. The recorder gets the binding's
span, the name and a one-line description of the value — only tensors are described — so it needs
nothing from the interpreter's value types. Where the interpreter checks its time budget it also
asks `cancelled()`: a run whose results nobody wants ends as if its time were up (the caller drops
its results).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pytea_ci.diagnostics import Span
from pytea_ci.diagnostics.sources import absolute
from pytea_ci.shapes.dim import origin_of, symbols
from pytea_ci.shapes.tensor import Tensor, fmt_shape

Recorder = Callable[[Span, str, str, tuple[str, ...]], None]  # (span, name, shape text, symbol origins)



@dataclass(frozen=True)
class Editor:
    """An editor's state for one run: `texts` (absolute and resolved path -> unsaved text), the recorder
    and the cancel test. `NO_EDITOR` (every `check` run) has none of them."""

    texts: dict[str, bytes] = field(default_factory=dict)
    recorder: Recorder | None = None
    cancel: Callable[[], bool] | None = None

    @classmethod
    def of(cls, buffers: dict[str, bytes], recorder: Recorder | None = None,
           cancel: Callable[[], bool] | None = None) -> "Editor":
        return cls(absolute(buffers), recorder, cancel)

    def text(self, path: str) -> bytes | None:
        """The stand-in text of `path`, or None when the file on disk is the source."""
        if not self.texts:
            return None
        return self.texts.get(os.path.abspath(path))

    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel()

    def binding(self, span: Span, name: str, value: Any) -> None:
        """Tell the recorder that `name` was bound to `value` at `span` (tensors only)."""
        if self.recorder is None or not isinstance(value, Tensor):
            return
        text = fmt_shape(value.shape)
        if value.dtype:
            text += f" {value.dtype}"
        self.recorder(span, name, text, _origins(value))


NO_EDITOR = Editor()


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
