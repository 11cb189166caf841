"""Files the program opens (issue 21 item 5): what they hold is not known, how it is shaped is.

`open()` gives a file object (also as a context manager): `read()`/`readline()` give a string,
`readlines()` and iterating the file give its lines (a list of unknown length holding one
representative line), `json.load(f)` and `yaml.safe_load(f)` a document, `csv.reader(f)` rows that
are lists of strings, `csv.DictReader(f)` rows that are dicts of strings — every value not known is
named after the file it was read from (`read at run time by open('labels.txt')`), so coverage says
which file to configure. Sizes computed from them (`len(lines)`, `int(line)`) follow the rules for
what a program reads at run time (models/random_.py). Writing and closing do nothing to shapes.
Files are never read by the analyzer here: their content stays unknown.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.random_ import _READ
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Instance, IterVal, Unknown
from pytea_ci.shapes.tensor import Origin


def _name(path: Any) -> str:
    return repr(path) if isinstance(path, str) else "a path not known"


def _read(ctx: Ctx, f: Any, what: str, pytype: str | None = "str") -> Unknown:
    """A value read from the file object `f` (or from a stream not understood), named after it."""
    src = f"open({_name(f.attrs.get('name'))})" if isinstance(f, Instance) and f.cls is _File else "a stream"
    return Unknown(what, pytype, Origin(ctx.span, f"{_READ}{src}: {what}"))


def _some(ctx: Ctx, item: Any) -> list[Any]:
    """Some items, how many is not known: `item` represents them all."""
    out = [item]
    ctx.mark_inexact(out)
    return out


def _noop(ctx: Ctx, self: Any, *args: Any, **kwargs: Any) -> Any:
    return None


def _enter(ctx: Ctx, self: Any) -> Any:
    return self


def _read_text(ctx: Ctx, self: Any, *args: Any) -> Any:
    return _read(ctx, self, "the content")


def _readline(ctx: Ctx, self: Any, *args: Any) -> Any:
    return _read(ctx, self, "a line")


def _readlines(ctx: Ctx, self: Any, *args: Any) -> Any:
    return _some(ctx, _read(ctx, self, "a line"))


_File = native_class("builtins.TextIOWrapper")(type("TextIOWrapper", (), {
    "__enter__": _enter, "__exit__": _noop, "__iter__": _readlines, "read": _read_text, "readline": _readline,
    "readlines": _readlines, "write": _noop, "writelines": _noop, "close": _noop, "flush": _noop,
    "seek": _noop}))


@model("builtins.open", "io.open")
def open_(ctx: Ctx, file: Any = None, mode: Any = "r", *args: Any, **kwargs: Any) -> Any:
    return Instance(_File, {"name": file, "mode": mode if isinstance(mode, str) else "r", "closed": False})


@model("json.load")
def json_load(ctx: Ctx, fp: Any = None, *args: Any, **kwargs: Any) -> Any:
    return _read(ctx, fp, "a JSON document", None)


@model("csv.reader")
def csv_reader(ctx: Ctx, f: Any = None, *args: Any, **kwargs: Any) -> Any:
    """Rows of strings: how many rows, and how many fields in each, is not known."""
    return IterVal([_some(ctx, _read(ctx, f, "a CSV field"))], truncated=True)


def _field(ctx: Ctx, self: Any, *args: Any) -> Any:
    return self.attrs["field"]


def _fields(ctx: Ctx, self: Any, *args: Any) -> Any:
    return _some(ctx, self.attrs["field"])


_Row = native_class("csv.DictReaderRow")(type("DictReaderRow", (), {
    "__getitem__": _field, "get": _field, "pop": _field, "values": _fields, "keys": _fields, "__iter__": _fields}))


@model("csv.DictReader")
def csv_dict_reader(ctx: Ctx, f: Any = None, *args: Any, **kwargs: Any) -> Any:
    """Rows mapping the header's names to strings: which names, and how many rows, is not known."""
    return IterVal([Instance(_Row, {"field": _read(ctx, f, "a CSV field")})], truncated=True)
