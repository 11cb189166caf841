"""Jupyter notebooks as programs: the code cells, in order, as one Python module, and the way back from
a line of that module to its cell (`train.ipynb:cell 4:12:5`, as ruff shows it) and to the notebook
file's own JSON text (where SARIF and JSON place a finding, so GitHub can show it on the `.ipynb`).

IPython syntax is not Python: a line magic or shell escape (`%time`, `!pip install`, `x = !ls`) and a
help request (`obj?`) become `pass` at the same indentation, so the line numbering and the blocks stay
intact; a cell magic (`%%bash`) skips its whole cell, except those whose body is Python (`%%time`,
`%%timeit`, `%%capture`), which keep it. Cells are numbered like ruff: code cells only, from 1.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field

SUFFIX = ".ipynb"
PYTHON_CELL_MAGICS = ("time", "timeit", "capture", "prun", "debug")
_MAGIC = re.compile(r"^(\s*)(?:[%!]|[\w.\[\], ]+=\s*[%!])")
_HELP = re.compile(r"^(\s*)[\w.]+\?\??\s*$")
_SOURCE_KEY = re.compile(r'(?<!\\)"source"\s*:\s*')
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class NotebookError(ValueError):
    """Not a notebook this tool can read (bad JSON, another format version, another language)."""


def is_notebook(path: str) -> bool:
    return path.lower().endswith(SUFFIX)


@dataclass
class Line:
    """One source line of a code cell and where its text starts in the notebook file."""

    text: str  # the cell's line, without its break
    json_start: int  # offset in the notebook's text of the line's first character (-1: unknown)
    offsets: list[int] = field(default_factory=list)  # per character (and one past the end): offset in the text


@dataclass
class Cell:
    number: int  # 1-based among code cells
    first_line: int  # 1-based line of the module where the cell starts
    lines: list[Line]


@dataclass
class Notebook:
    python: str  # the module: every code cell in order, IPython syntax neutralized
    cells: list[Cell]
    text: str  # the notebook file's text (JSON)

    def cell_at(self, line: int) -> tuple[Cell, int] | None:
        """The cell holding module line `line`, and the 1-based line within it."""
        for cell in reversed(self.cells):
            if cell.first_line <= line < cell.first_line + max(1, len(cell.lines)):
                return cell, line - cell.first_line + 1
        return None

    def in_cell(self, line: int, byte_col: int) -> tuple[int, int, int] | None:
        """(cell number, line in the cell, 0-based character column) of a module position."""
        found = self.cell_at(line)
        if found is None:
            return None
        cell, row = found
        text = cell.lines[row - 1].text if row <= len(cell.lines) else ""
        return cell.number, row, _chars(text, byte_col)

    def in_file(self, line: int, byte_col: int) -> tuple[int, int] | None:
        """(1-based line, 0-based UTF-8 byte column) in the notebook file of a module position."""
        found = self.cell_at(line)
        if found is None:
            return None
        cell, row = found
        if row > len(cell.lines) or cell.lines[row - 1].json_start < 0:
            return None
        src = cell.lines[row - 1]
        at = src.offsets[min(_chars(src.text, byte_col), len(src.offsets) - 1)]
        start = self.text.rfind("\n", 0, at) + 1
        return self.text.count("\n", 0, at) + 1, len(self.text[start:at].encode("utf-8", errors="surrogatepass"))


    def from_file(self, line: int, byte_col: int) -> tuple[int, int, int] | None:
        """The inverse of `in_file`: (cell number, line in the cell, 0-based character column)."""
        starts = [0, *(i + 1 for i, ch in enumerate(self.text) if ch == "\n")]
        if not 1 <= line <= len(starts):
            return None
        start = starts[line - 1]
        head = self.text[start:].encode("utf-8", errors="surrogatepass")[:max(0, byte_col)]
        at = start + len(head.decode("utf-8", errors="ignore"))
        for cell in self.cells:
            for row, src in enumerate(cell.lines, 1):
                if src.offsets and src.offsets[0] <= at <= src.offsets[-1]:
                    return cell.number, row, bisect.bisect_right(src.offsets, at) - 1
        return None


def _chars(text: str, byte_col: int) -> int:
    return len(text.encode("utf-8", errors="surrogatepass")[:max(0, byte_col)].decode("utf-8", errors="ignore"))


# ----- reading -------------------------------------------------------------------------------------
def parse(data: bytes) -> Notebook:
    try:
        text = data.decode("utf-8-sig")
        doc = json.loads(text)
    except (UnicodeDecodeError, ValueError) as e:
        raise NotebookError(f"not a Jupyter notebook: {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("cells"), list):
        version = doc.get("nbformat") if isinstance(doc, dict) else None
        raise NotebookError(f"not a Jupyter notebook of format 4 (nbformat: {version!r})")
    language = _language(doc)
    if language not in ("python", "python3", ""):
        raise NotebookError(f"a {language} notebook, not Python")
    located = _locate_sources(text, len(doc["cells"]))
    python: list[str] = []
    cells: list[Cell] = []
    for i, raw in enumerate(doc["cells"]):
        if not isinstance(raw, dict) or raw.get("cell_type") != "code":
            continue
        lines = _cell_lines(raw.get("source", ""), located[i] if located else None)
        cells.append(Cell(len(cells) + 1, len(python) + 1, lines))
        python += _neutralize([ln.text for ln in lines])
    return Notebook("".join(f"{ln}\n" for ln in python), cells, text)


def _language(doc: dict[str, object]) -> str:
    meta = doc.get("metadata")
    if not isinstance(meta, dict):
        return ""
    for key, inner in (("kernelspec", "language"), ("language_info", "name")):
        value = meta.get(key)
        if isinstance(value, dict) and isinstance(value.get(inner), str):
            return str(value[inner]).lower()
    return ""


def _cell_lines(source: object, located: list[tuple[str, int, list[int]]] | None) -> list[Line]:
    """The cell's lines; with their positions in the file when the scan found the same text."""
    text = "".join(source) if isinstance(source, list) else str(source)
    if located is not None and "".join(value for value, _, _ in located) == text:
        out: list[Line] = []
        for value, start, offsets in located:
            for piece_start, piece in _pieces(value):
                piece_offsets = [start + o for o in offsets[piece_start:piece_start + len(piece) + 1]]
                if out and not out[-1].text.endswith("\n"):  # a line split over two strings
                    out[-1].text += piece
                    out[-1].offsets = out[-1].offsets[:-1] + piece_offsets
                else:
                    out.append(Line(piece, piece_offsets[0], piece_offsets))
        for ln in out:
            ln.text = ln.text.rstrip("\r\n")
        return out
    return [Line(t, -1) for t in text.splitlines()]


def _pieces(value: str) -> list[tuple[int, str]]:
    """(start, text) of each line of `value`, breaks kept."""
    return [(m.start(), m.group()) for m in re.finditer(r"[^\n]*\n|[^\n]+$", value)]


def _neutralize(lines: list[str]) -> list[str]:
    first = lines[0].strip() if lines else ""
    if first.startswith("%%"):
        name = first[2:].split(None, 1)[0] if len(first) > 2 else ""
        if name not in PYTHON_CELL_MAGICS:
            return ["" for _ in lines]
        lines = ["pass", *lines[1:]]
    out = []
    for ln in lines:
        m = _MAGIC.match(ln) or _HELP.match(ln)
        out.append(f"{m.group(1)}pass" if m and not _is_python(ln) else ln)
    return out


def _is_python(line: str) -> bool:
    """`x = a % b` or `y = not_x != 1` look like magics to the pattern but are Python."""
    stripped = line.strip()
    if stripped.startswith(("%", "!")) or stripped.endswith("?"):
        return False
    try:
        compile(stripped, "<cell>", "exec")
    except SyntaxError:
        return False
    return True


# ----- positions in the notebook's JSON text ---------------------------------------------------------
def _locate_sources(text: str, count: int) -> list[list[tuple[str, int, list[int]]]] | None:
    """For each cell, its source strings: (value, offset of the opening quote's next character,
    per-character offsets relative to it). None when the text does not have one "source" per cell."""
    keys = list(_SOURCE_KEY.finditer(text))
    if len(keys) != count:
        return None
    out = []
    for key in keys:
        pos = key.end()
        strings = []
        if text.startswith("[", pos):
            pos += 1
            while True:
                while pos < len(text) and text[pos] in " \t\r\n,":
                    pos += 1
                m = _STRING.match(text, pos)
                if m is None:
                    break
                strings.append(_decoded(m.group(), m.start()))
                pos = m.end()
        else:
            m = _STRING.match(text, pos)
            if m is not None:
                strings.append(_decoded(m.group(), m.start()))
        out.append(strings)
    return out


def _decoded(raw: str, at: int) -> tuple[str, int, list[int]]:
    """A JSON string token's value and, per character (and one past the end), its offset from `at`."""
    chars: list[str] = []
    offsets: list[int] = []
    i, end = 1, len(raw) - 1
    while i < end:
        offsets.append(i)
        if raw[i] != "\\":
            chars.append(raw[i])
            i += 1
        elif raw[i + 1] == "u":
            code, i = int(raw[i + 2:i + 6], 16), i + 6
            if 0xD800 <= code < 0xDC00 and raw.startswith("\\u", i) and 0xDC00 <= int(raw[i + 2:i + 6], 16) < 0xE000:
                code, i = 0x10000 + ((code - 0xD800) << 10) + (int(raw[i + 2:i + 6], 16) - 0xDC00), i + 6
            chars.append(chr(code))
        else:
            chars.append(_ESCAPES.get(raw[i + 1], raw[i + 1]))
            i += 2
    offsets.append(end)
    return "".join(chars), at, offsets
