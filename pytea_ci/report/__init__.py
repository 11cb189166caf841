"""Output formats: each turns a `RunResult` into text, through `render(result, root) -> str`.

`root` is the repository root that paths are made relative to. Formats live one per module and are
imported only when used, so printing text never loads sarif-om:

    from pytea_ci.report import FORMATS, get_renderer
    sorted(FORMATS)                      # ['github', 'json', 'sarif', 'text']  (text when present)
    get_renderer("sarif")(result, root)  # == FORMATS["sarif"](result, root)

The report layer depends on `pytea_ci.diagnostics` only.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator, Mapping
from typing import Protocol

from pytea_ci.diagnostics.result import RunResult

_MODULES = {"text": "text", "json": "json_format", "sarif": "sarif", "github": "github"}


class Renderer(Protocol):
    def __call__(self, result: RunResult, root: str) -> str: ...


def _module_name(name: str) -> str:
    return f"{__name__}.{_MODULES[name]}"


def get_renderer(name: str) -> Renderer:
    """The render function of format `name`; KeyError for an unknown or missing format."""
    if name not in _MODULES or importlib.util.find_spec(_module_name(name)) is None:
        raise KeyError(f"unknown output format {name!r} (known: {', '.join(FORMATS)})")
    render: Renderer = importlib.import_module(_module_name(name)).render
    return render


class _Formats(Mapping[str, Renderer]):
    """Format name -> render function, importing each format's module on first use."""

    def __getitem__(self, name: str) -> Renderer:
        return get_renderer(name)

    def __iter__(self) -> Iterator[str]:
        return (n for n in sorted(_MODULES) if importlib.util.find_spec(_module_name(n)) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


FORMATS: Mapping[str, Renderer] = _Formats()

__all__ = ["FORMATS", "Renderer", "get_renderer"]
