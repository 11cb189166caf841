"""Source files as the reporters see them: paths relative to the repository root, and column units.

Spans carry Python's `ast` positions: 1-based lines and 0-based columns counted in UTF-8 bytes. Each
output counts columns its own way, 1-based: SARIF and GitHub annotations in UTF-16 code units, the JSON
format in characters (code points). Converting needs the line's text, so `Sources` reads each file once,
lazily; when a file cannot be read (or the line does not exist), a column is the byte offset + 1.

A span's path may be absolute or relative. A relative path is taken relative to the root when that file
exists there (the analyzer writes paths relative to the project root), else relative to the current
directory. Paths inside the root are shown relative to it, with forward slashes; others stay absolute.
"""

from __future__ import annotations

import io
import os
import re
import tokenize
from dataclasses import dataclass
from enum import Enum

from pytea_ci.diagnostics import Span

_NEWLINE = re.compile(r"\r\n|\r|\n")  # what Python's tokenizer counts as a line break (not \f, \v, ...)


class Unit(Enum):
    """How a column is counted in an output."""

    UTF16 = "utf16"  # UTF-16 code units: SARIF's `utf16CodeUnits`, GitHub, JavaScript editors
    CHAR = "char"  # Unicode code points: Python `str` indexes


@dataclass(frozen=True)
class Region:
    """A converted span: 1-based lines and columns, end exclusive; `end_col` None means "to end of line"."""

    line: int
    col: int
    end_line: int
    end_col: int | None


def _units(text: str, unit: Unit) -> int:
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2 if unit is Unit.UTF16 else len(text)


class Sources:
    """Resolves, reads and caches the files the diagnostics of one run point into."""

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)
        self._data: dict[str, bytes | None] = {}
        self._lines: dict[str, list[str] | None] = {}
        self._located: dict[str, str] = {}
        self._relative: dict[str, str | None] = {}

    # ----- paths ---------------------------------------------------------------------------------
    def locate(self, path: str) -> str:
        """The absolute, normalized file a span path names."""
        if path not in self._located:
            in_root = os.path.normpath(os.path.join(self.root, path))  # `path` itself when absolute
            use_cwd = not os.path.isabs(path) and not os.path.exists(in_root) and os.path.exists(path)
            self._located[path] = os.path.abspath(path) if use_cwd else in_root
        return self._located[path]

    def relative(self, path: str) -> str | None:
        """The path relative to the root with forward slashes, or None when the file lies outside it."""
        if path not in self._relative:
            rel = os.path.relpath(self.locate(path), self.root)
            outside = rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel)
            self._relative[path] = None if outside else rel.replace(os.sep, "/")
        return self._relative[path]

    def display(self, path: str) -> str:
        """The path to show a user: relative to the root when inside it, else absolute."""
        if not path:
            return path
        rel = self.relative(path)
        return rel if rel is not None else self.locate(path).replace(os.sep, "/")

    # ----- contents ------------------------------------------------------------------------------
    def data(self, path: str) -> bytes | None:
        """The raw bytes of the file, or None when it cannot be read."""
        full = self.locate(path)
        if full not in self._data:
            try:
                with open(full, "rb") as f:
                    self._data[full] = f.read()
            except OSError:
                self._data[full] = None
        return self._data[full]

    def lines(self, path: str) -> list[str] | None:
        """The file's lines as Python reads them (its declared encoding, BOM removed), without breaks."""
        full = self.locate(path)
        if full not in self._lines:
            raw = self.data(full)
            self._lines[full] = None if raw is None else _NEWLINE.split(_decode_python(raw))
        return self._lines[full]

    def _line(self, path: str, line: int) -> str | None:
        lines = self.lines(path)
        return lines[line - 1] if lines is not None and 1 <= line <= len(lines) else None

    # ----- columns -------------------------------------------------------------------------------
    def column(self, path: str, line: int, byte_col: int, unit: Unit) -> int:
        """Convert a 0-based UTF-8 byte column of `line` into a 1-based column counted in `unit`."""
        text = self._line(path, line)
        if text is None:
            return byte_col + 1
        encoded = text.encode("utf-8", errors="surrogatepass")
        if byte_col > len(encoded):  # past the end of the line (e.g. a span that covers the break)
            return _units(text, unit) + byte_col - len(encoded) + 1
        return _units(encoded[:byte_col].decode("utf-8", errors="ignore"), unit) + 1

    def byte_column(self, path: str, line: int, col: int, unit: Unit) -> int:
        """The inverse of `column`: a 1-based column in `unit` back to a 0-based UTF-8 byte offset."""
        text = self._line(path, line)
        if text is None:
            return col - 1
        count, offset = 0, 0
        for ch in text:
            if count >= col - 1:
                return offset
            count += _units(ch, unit)
            offset += len(ch.encode("utf-8", errors="surrogatepass"))
        return offset + max(0, col - 1 - count)

    def region(self, span: Span, unit: Unit) -> Region:
        """The 1-based, end-exclusive region of a span, with columns counted in `unit`.

        A malformed span (line 0, an end before the start) is clamped rather than passed on: SARIF
        rejects such regions.
        """
        line = max(1, span.line)
        col = self.column(span.path, line, max(0, span.col), unit)
        end_line = span.end_line if span.end_line is not None else line
        end_col = None if span.end_col is None else self.column(span.path, end_line, span.end_col, unit)
        if end_line < line:
            end_line, end_col = line, None
        elif end_line == line and end_col is not None and end_col < col:
            end_col = col
        return Region(line, col, end_line, end_col)


def _decode_python(raw: bytes) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError:  # an unknown or inconsistent coding cookie: Python would refuse the file
        encoding = "utf-8"
    try:
        text = raw.decode(encoding, errors="replace")
    except LookupError:
        text = raw.decode("utf-8", errors="replace")
    return text.removeprefix("\ufeff")
