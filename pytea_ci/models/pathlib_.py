"""`pathlib.Path` (issue 36, item 2): a path is its text, computed as CPython's `PurePosixPath` does
(`Path(__file__).parent / "model_configs/"`, `.name`, `.stem`, `.suffix`, `with_suffix`, `joinpath`); a
path built from a value not understood is not known, nor is anything computed from it.

What is on disk is asked of the interpreter (`Ctx.data_kind`, `data_listing`, `project_text`), which answers
only inside the followed installed package whose code is running: `is_file()`, `is_dir()`, `exists()`,
`iterdir()`, `glob("*.json")` (one folder level, `fnmatch` patterns; the order is the file system's, so the
list's order is not known), `read_text()` and `open()`. So open_clip's `factory.py`, which fills its model
table at import from the JSON files next to it, builds `create_model("RN50")`. Anywhere else (the
project's folders, the machine) the answers are not known. `os.path.isdir`/`isfile`/`exists`,
`os.listdir` and `glob.glob` of such paths are answered the same way (models/stdlib.py, random_.py).
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import PurePosixPath
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import get, native_class
from pytea_ci.models.values import Builtin, Instance, PropertyVal, Unknown

_TEXT = "_path"  # an instance's attribute: its text (None: not known)


def fspath(v: Any) -> str | None:
    """The text of a path value: a string, or a `Path` whose text is known; None otherwise."""
    if isinstance(v, str):
        return v
    if isinstance(v, Instance) and v.cls is PATH:
        text = v.attrs.get(_TEXT)
        return text if isinstance(text, str) else None
    return None


def make(ctx: Ctx, text: str | None) -> Instance:
    """A `Path` of the text `text` (None: not known), with its name parts as attributes."""
    attrs: dict[str, Any] = {_TEXT: text}
    if text is None:
        for name in ("name", "stem", "suffix", "suffixes", "parts"):
            attrs[name] = ctx.unknown(f"Path.{name} of a path not known")
    else:
        p = PurePosixPath(text)
        attrs.update(name=p.name, stem=p.stem, suffix=p.suffix, suffixes=p.suffixes, parts=p.parts)
    return Instance(PATH, attrs)


def _joined(parts: tuple[Any, ...]) -> str | None:
    texts = [fspath(p) for p in parts]
    return str(PurePosixPath(*texts)) if all(t is not None for t in texts) else None  # type: ignore[arg-type]


def _on_disk(ctx: Ctx, self: Instance) -> str | None:
    """What is at the path, when the interpreter may tell ("file", "folder", "absent"); None otherwise."""
    text = fspath(self)
    return ctx.data_kind(text) if text is not None and os.path.isabs(text) else None


def _test(kinds: tuple[str, ...]) -> Any:
    def run(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        found = _on_disk(ctx, self)
        return found in kinds if found is not None else Unknown("file test", pytype="bool")

    return run


def _entries(ctx: Ctx, self: Instance, pattern: str | None) -> Any:
    text = fspath(self)
    names = ctx.data_listing(text) if text is not None and os.path.isabs(text) else None
    if names is None:
        return ctx.unknown("a folder listing not known")
    chosen = [n for n in names if pattern is None or fnmatch.fnmatchcase(n, pattern)]
    return ctx.unordered_list([make(ctx, str(PurePosixPath(text) / n)) for n in chosen])  # type: ignore[arg-type]


def _parent(ctx: Ctx, self: Instance) -> Any:
    text = fspath(self)
    return make(ctx, None if text is None else str(PurePosixPath(text).parent))


@native_class("pathlib.Path", "pathlib.PosixPath", "pathlib.PurePath", "pathlib.PurePosixPath")
class Path:
    parent = PropertyVal(Builtin("pathlib.Path.parent", _parent))

    def init(ctx: Ctx, self: Instance, *parts: Any) -> None:
        self.attrs.update(make(ctx, _joined(parts) if parts else ".").attrs)

    def __truediv__(ctx: Ctx, self: Instance, other: Any) -> Any:
        return make(ctx, _joined((self, other)))

    def __rtruediv__(ctx: Ctx, self: Instance, other: Any) -> Any:
        return make(ctx, _joined((other, self)))

    def joinpath(ctx: Ctx, self: Instance, *others: Any) -> Any:
        return make(ctx, _joined((self, *others)))

    def __fspath__(ctx: Ctx, self: Instance) -> Any:
        text = fspath(self)
        return text if text is not None else ctx.unknown("str of a path not known")

    as_posix = __fspath__

    def with_suffix(ctx: Ctx, self: Instance, suffix: Any) -> Any:
        text = fspath(self)
        try:
            return make(ctx, str(PurePosixPath(text).with_suffix(suffix))
                        if text is not None and isinstance(suffix, str) else None)
        except ValueError:
            return ctx.unknown("Path.with_suffix")

    def with_name(ctx: Ctx, self: Instance, name: Any) -> Any:
        text = fspath(self)
        try:
            return make(ctx, str(PurePosixPath(text).with_name(name)) if text is not None and isinstance(name, str) else None)
        except ValueError:
            return ctx.unknown("Path.with_name")

    def is_absolute(ctx: Ctx, self: Instance) -> Any:
        text = fspath(self)
        return os.path.isabs(text) if text is not None else Unknown("Path.is_absolute", pytype="bool")

    def resolve(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        text = fspath(self)  # an absolute path of the package's own data: itself (a relative one: not known)
        return self if text is not None and os.path.isabs(text) and _on_disk(ctx, self) is not None else make(ctx, None)

    absolute = resolve

    is_file = _test(("file",))
    is_dir = _test(("folder",))
    exists = _test(("file", "folder"))

    def iterdir(ctx: Ctx, self: Instance) -> Any:
        return _entries(ctx, self, None)

    def glob(ctx: Ctx, self: Instance, pattern: Any) -> Any:
        if not isinstance(pattern, str) or "/" in pattern or "**" in pattern:
            return ctx.unknown("Path.glob of a pattern not followed")
        return _entries(ctx, self, pattern)

    def read_text(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        text = fspath(self)
        found = ctx.project_text(text) if text is not None and os.path.isabs(text) else None
        return found if found is not None else ctx.unknown("Path.read_text")

    def open(ctx: Ctx, self: Instance, mode: Any = "r", *args: Any, **kwargs: Any) -> Any:
        return ctx.call(get("builtins.open"), self, mode, *args, **kwargs)


PATH = get("pathlib.Path")
