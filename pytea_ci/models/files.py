"""Files the program opens (issue 21 item 5): what they hold is not known, how it is shaped is.

`open()` gives a file object (also as a context manager): `read()`/`readline()` give a string,
`readlines()` and iterating the file give its lines (a list of unknown length holding one
representative line), `json.load(f)` and `yaml.safe_load(f)` a document, `csv.reader(f)` rows that
are lists of strings, `csv.DictReader(f)` rows that are dicts of strings — every value not known is
named after the file it was read from (`read at run time by open('labels.txt')`), so coverage says
which file to configure. Sizes computed from them (`len(lines)`, `int(line)`) follow the rules for
what a program reads at run time (models/random_.py). Writing and closing do nothing to shapes.

A small text file of the project (a config, a label map, a vocabulary) opened for reading by a name
known here is read — parsed as data, never executed (`project_file`): its text, lines, JSON, YAML
(the subset yaml_text.py follows) and CSV rows are exact. The name is relative to the working
directory, which is not known: the file is used when the running file's folder and the project root
agree on it. A file this path opened for writing, appending or updating is never read: what the
program wrote is not what the repository holds.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.random_ import _READ
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Instance, IterVal, Unknown
from pytea_ci.shapes.dim import ASSUMED_SIZE, INPUT
from pytea_ci.shapes.tensor import Origin


def _name(path: Any) -> str:
    return repr(path) if isinstance(path, str) else "a path not known"


WRITTEN = "files.written"  # facts: the names this path opened for writing
# What a program does with what it reads costs steps per item: a text longer than EXACT_CHARS (a corpus
# walked character by character) stays unknown, as do more than EXACT_ITEMS lines, CSV rows or JSON/YAML
# values (their count is still exact for lines).
EXACT_CHARS = 4_096
EXACT_ITEMS = 5_000


def _document_parts(v: Any) -> Iterable[Any]:
    return v.values() if isinstance(v, dict) else v if isinstance(v, list) else ()


def small(doc: Any, budget: int = EXACT_ITEMS, parts: Callable[[Any], Iterable[Any]] = _document_parts) -> bool:
    """Whether a parsed document holds at most `budget` values (containers and scalars); `parts`: the values a
    value holds (a JSON/YAML document's: a dict's values, a list's items)."""
    todo, seen = [doc], 0
    while todo:
        v = todo.pop()
        seen += 1
        if seen > budget:
            return False
        todo += parts(v)
    return True


def project_file(ctx: Ctx, name: Any) -> str | None:
    """The text of the project file a working-directory-relative `name` names: the running file's
    folder and the root agree on it; None when not known, not a small text file of the project, or
    written on this path."""
    if not isinstance(name, str) or name in ctx.facts.get(WRITTEN, ()):
        return None
    texts = {t for t in (ctx.project_text(name), ctx.project_text(name, ctx.root)) if t is not None}
    return texts.pop() if len(texts) == 1 else None


def text_of(ctx: Ctx, f: Any) -> str | None:
    """The text a file object opened for reading text gives, when it is a project file read here."""
    if not (isinstance(f, Instance) and f.cls is _File):
        return None
    mode = f.attrs.get("mode")
    if not isinstance(mode, str) or "b" in mode or any(c in mode for c in "wax+"):
        return None
    return project_file(ctx, f.attrs.get("name"))


def rewritten(ctx: Ctx, f: Any) -> str | None:
    """How to name what a file object gives when this path wrote its file (opened it for writing):
    the program's own output, not input data (models/read_keys.py), so no size symbol stands for it."""
    if isinstance(f, Instance) and f.cls is _File and f.attrs.get("name") in ctx.facts.get(WRITTEN, ()):
        return f"open({_name(f.attrs.get('name'))}), written earlier in the run"
    return None


def _read(ctx: Ctx, f: Any, what: str, pytype: str | None = "str") -> Unknown:
    """A value read from the file object `f` (or from a stream not understood), named after it."""
    own = rewritten(ctx, f)
    if own is not None:
        return Unknown(what, pytype, Origin(ctx.span, f"{own}: {what}"))
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
    text = None if args else text_of(ctx, self)
    return text if text is not None and len(text) <= EXACT_CHARS else _read(ctx, self, "the content")


def _readline(ctx: Ctx, self: Any, *args: Any) -> Any:
    return _read(ctx, self, "a line")


def _readlines(ctx: Ctx, self: Any, *args: Any) -> Any:
    text = None if args else text_of(ctx, self)
    if text is None:  # how many lines a file read at run time holds is an input of the run, like a listing's count
        line = _read(ctx, self, "a line")
        what = line.origin.what.rsplit(":", 1)[0] if line.origin is not None else "a file"
        return ctx.sized_items([line], ctx.fresh("len", kind=INPUT, lo=1, note=f"number of lines {what} {ASSUMED_SIZE}"))
    lines = text.splitlines(keepends=True)
    if len(lines) > EXACT_ITEMS:  # how many is known; which, not: one representative line
        return ctx.sized_items([_read(ctx, self, "a line")], len(lines))
    return lines


_File = native_class("builtins.TextIOWrapper")(type("TextIOWrapper", (), {
    "__enter__": _enter, "__exit__": _noop, "__iter__": _readlines, "read": _read_text, "readline": _readline,
    "readlines": _readlines, "write": _noop, "writelines": _noop, "close": _noop, "flush": _noop,
    "seek": _noop}))


@model("builtins.open", "io.open")
def open_(ctx: Ctx, file: Any = None, mode: Any = "r", *args: Any, **kwargs: Any) -> Any:
    mode = kwargs.get("mode", mode)
    if isinstance(file, Instance) and file.cls.qualname == "pathlib.Path":  # models/pathlib_.py: its text
        file = file.attrs.get("_path")
    if isinstance(file, str) and (not isinstance(mode, str) or any(c in mode for c in "wax+")):
        ctx.facts[WRITTEN] = frozenset({*ctx.facts.get(WRITTEN, ()), file})
    return Instance(_File, {"name": file, "mode": mode if isinstance(mode, str) else "r", "closed": False})


@model("json.load")
def json_load(ctx: Ctx, fp: Any = None, *args: Any, **kwargs: Any) -> Any:
    text = None if args or kwargs else text_of(ctx, fp)
    if text is not None:
        try:
            doc = json.loads(text)
            if small(doc):
                return doc
        except ValueError:
            pass  # the program fails there: not a shape question
    return _read(ctx, fp, "a JSON document", None)


def _csv_rows(ctx: Ctx, f: Any, kwargs: dict[str, Any]) -> list[list[str]] | None:
    """The rows of a project CSV file, with a known delimiter at most (other dialects: not read)."""
    text = text_of(ctx, f)
    if text is None or set(kwargs) - {"delimiter"} or not all(isinstance(v, str) for v in kwargs.values()):
        return None
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), **kwargs))
    except csv.Error:
        return None
    return rows if len(rows) <= EXACT_ITEMS else None


@model("csv.reader")
def csv_reader(ctx: Ctx, f: Any = None, *args: Any, **kwargs: Any) -> Any:
    """Rows of strings: how many rows, and how many fields in each, is not known (a project file: known)."""
    rows = None if args else _csv_rows(ctx, f, kwargs)
    if rows is not None:
        return rows
    return IterVal([_some(ctx, _read(ctx, f, "a CSV field"))], truncated=True)


def _field(ctx: Ctx, self: Any, *args: Any) -> Any:
    return self.attrs["field"]


def _fields(ctx: Ctx, self: Any, *args: Any) -> Any:
    return _some(ctx, self.attrs["field"])


_Row = native_class("csv.DictReaderRow")(type("DictReaderRow", (), {
    "__getitem__": _field, "get": _field, "pop": _field, "values": _fields, "keys": _fields, "__iter__": _fields}))


@model("csv.DictReader")
def csv_dict_reader(ctx: Ctx, f: Any = None, *args: Any, **kwargs: Any) -> Any:
    """Rows mapping the header's names to strings: which names, and how many rows, is not known (a
    project file with a header row: known)."""
    rows = None if args else _csv_rows(ctx, f, kwargs)
    if rows and len({len(r) for r in rows}) == 1 and len(set(rows[0])) == len(rows[0]):
        return [dict(zip(rows[0], r)) for r in rows[1:]]
    return IterVal([Instance(_Row, {"field": _read(ctx, f, "a CSV field")})], truncated=True)
