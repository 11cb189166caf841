"""Ranges of symbolic inputs, as the configuration and `--symbolic NAME=RANGE` write them.

A range is an int (`224`), a string `"lo..hi"`, `"lo.."` (no upper bound), `"..hi"`, optionally with
`" step k"` (`"256..512 step 32"`), a legacy `[lo, hi]` pair, or a list of such strings and ints
(`["224", "256..512 step 32"]`: their union). It parses to (lo, hi, values): bounds (None: open) and,
when the union is a finite set of at most MAX_VALUES numbers other than one interval, those numbers.
"""

from __future__ import annotations

import re
from typing import Any

MAX_VALUES = 4096
_PART = re.compile(r"^\s*(-?\d+)?\s*(\.\.)?\s*(-?\d+)?\s*(?:step\s+(\d+))?\s*$")

SymRange = tuple["int | None", "int | None", tuple[int, ...]]


def parse_range(spec: Any) -> SymRange:
    """(lo, hi, values) of a range spec; ValueError with a one-line reason when it is not one."""
    if isinstance(spec, bool):
        raise ValueError("expected a range, got a boolean")
    if isinstance(spec, int):
        return spec, spec, ()
    if isinstance(spec, list) and len(spec) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in spec):
        return _checked(spec[0], spec[1], ())  # legacy [lo, hi]
    if isinstance(spec, list) and spec:
        return _union([parse_range(x) for x in spec])
    if isinstance(spec, str):
        return _part(spec)
    raise ValueError(f"expected a range such as \"1..1024\", \"0..\" or [\"224\", \"256..512 step 32\"], got {spec!r}")


def _part(text: str) -> SymRange:
    m = _PART.match(text)
    if not m or not (m.group(1) or m.group(3)) or (m.group(4) and not m.group(2)):
        raise ValueError(f"cannot read the range {text!r} (expected e.g. \"1..1024\", \"0..\", \"256..512 step 32\")")
    lo = int(m.group(1)) if m.group(1) else None
    hi = int(m.group(3)) if m.group(3) else None
    if not m.group(2):
        hi = lo = lo if lo is not None else hi
    step = int(m.group(4)) if m.group(4) else 1
    if step == 0:
        raise ValueError(f"step 0 in the range {text!r}")
    if step > 1:
        if lo is None or hi is None:
            raise ValueError(f"a range with a step needs both bounds: {text!r}")
        return _checked(lo, hi, tuple(range(lo, hi + 1, step)))
    return _checked(lo, hi, ())


def _checked(lo: int | None, hi: int | None, values: tuple[int, ...]) -> SymRange:
    if lo is not None and hi is not None and lo > hi:
        raise ValueError(f"empty range {lo}..{hi}")
    if len(values) > MAX_VALUES:
        values = ()
    return lo, hi, values


def _union(parts: list[SymRange]) -> SymRange:
    los, his = [p[0] for p in parts], [p[1] for p in parts]
    lo = None if any(x is None for x in los) else min(x for x in los if x is not None)
    hi = None if any(x is None for x in his) else max(x for x in his if x is not None)
    if len(parts) == 1:
        return parts[0]
    if lo is None or hi is None:
        return lo, hi, ()
    values: set[int] = set()
    for p_lo, p_hi, p_values in parts:
        values.update(p_values or range(p_lo or 0, (p_hi or 0) + 1))
        if len(values) > MAX_VALUES:
            return lo, hi, ()
    return lo, hi, tuple(sorted(values))


def parse_cli(items: list[str]) -> dict[str, Any]:
    """`--symbolic NAME=RANGE` items as configuration entries (RANGE may be a comma-separated union);
    ValueError when one is not NAME=RANGE."""
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise ValueError(f"--symbolic {item!r}: expected NAME=RANGE")
        name, text = item.split("=", 1)
        parts = [p for p in text.split(",") if p.strip()]
        spec: Any = parts if len(parts) > 1 else text
        try:
            parse_range(spec)
        except ValueError as e:
            raise ValueError(f"--symbolic {item!r}: {e}") from None
        out[name.strip().lstrip("-").replace("-", "_") if ":" not in name else name.strip()] = spec
    return out
