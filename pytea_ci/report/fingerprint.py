"""GitHub's `primaryLocationLineHash`: the per-line rolling hash that keeps alerts tracked across commits.

This mirrors `hash()` in github/codeql-action `src/fingerprints.ts`, which the upload action runs when a
SARIF result has no fingerprint (the REST API does not, so we always compute it ourselves):
a rolling hash, base 37 modulo 2**64, over a window of the next 100 characters of the file, where spaces
and tabs are skipped, CR and CRLF become LF, and characters are UTF-16 code units (JavaScript strings).
One hash per line, taken over the window that starts at the line's first kept character; an EOF marker
(65535) and zero padding follow the last character. The value is the lowercase hex hash followed by
`:k`, where k is 1 plus the number of earlier lines with the same hash.
"""

from __future__ import annotations

import array
import sys

_BLOCK = 100
_MOD = 37
_MASK = (1 << 64) - 1
_FIRST_MOD = pow(_MOD, _BLOCK, 1 << 64)
_TAB, _SPACE, _LF, _CR = 9, 32, 10, 13
_EOF = 65535


def _code_units(text: str) -> array.array[int]:
    units = array.array("H")
    units.frombytes(text.encode("utf-16-le", errors="surrogatepass"))
    if sys.byteorder == "big":
        units.byteswap()
    return units


class _RollingHash:
    """The state machine of `hash()` in fingerprints.ts, fed one UTF-16 code unit at a time."""

    def __init__(self) -> None:
        self.window = [0] * _BLOCK
        self.line_at = [0] * _BLOCK  # the line that starts at this window slot, 0 when none
        self.value = 0
        self.index = 0
        self.line = 0
        self.line_start = True
        self.prev_cr = False
        self.counts: dict[str, int] = {}
        self.out: list[str] = []

    def emit(self) -> None:
        value = format(self.value, "x")
        self.counts[value] = self.counts.get(value, 0) + 1
        self.out.append(f"{value}:{self.counts[value]}")
        self.line_at[self.index] = 0

    def update(self, current: int) -> None:
        begin = self.window[self.index]
        self.window[self.index] = current
        self.value = (_MOD * self.value + current - _FIRST_MOD * begin) & _MASK
        self.index = (self.index + 1) % _BLOCK

    def feed(self, current: int) -> None:
        if current in (_SPACE, _TAB) or (self.prev_cr and current == _LF):
            self.prev_cr = False
            return
        self.prev_cr = current == _CR
        if current == _CR:
            current = _LF
        if self.line_at[self.index]:
            self.emit()
        if self.line_start:
            self.line_start = False
            self.line += 1
            self.line_at[self.index] = self.line
        if current == _LF:
            self.line_start = True
        self.update(current)

    def finish(self) -> list[str]:
        self.feed(_EOF)
        for _ in range(_BLOCK):
            if self.line_at[self.index]:
                self.emit()
            self.update(0)
        return self.out


def line_hashes(text: str) -> list[str]:
    """Return the fingerprint of every line of `text`, in order (line 1 first).

    A text ending in a newline has one more (empty) line than it has newline characters, as in the
    original: the EOF marker starts that line.
    """
    roller = _RollingHash()
    for unit in _code_units(text):
        roller.feed(unit)
    return roller.finish()


def decode_like_node(data: bytes) -> str:
    """Decode file bytes the way the upload action reads them (`fs.createReadStream(path, "utf8")`)."""
    return data.decode("utf-8", errors="replace")
