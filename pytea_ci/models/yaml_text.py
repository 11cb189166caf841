"""Reading the YAML a program writes inline (`yaml.safe_load(EXPERIMENT)` of a string literal):
block mappings and lists nested by indentation, flow lists/mappings of scalars, and the scalars
PyYAML's safe loader resolves (YAML 1.1 ints, floats with a dot, booleans, null, quoted strings).
Anything outside that subset (anchors, tags, block scalars, multi-documents, exotic scalars such as
`1e-3` or dates) gives None, so the document stays unknown instead of being read differently from
PyYAML (tests/oracle/test_yaml_text.py compares the two)."""

from __future__ import annotations

import re
from typing import Any

_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)$")
# PyYAML's YAML 1.1 floats: a sign needs a digit before the dot (`-.0` is a string, `.5` a float)
_FLOAT = re.compile(r"[-+]?[0-9]+\.[0-9]*([eE][-+][0-9]+)?$|\.[0-9]+([eE][-+][0-9]+)?$")
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False,
          "yes": True, "Yes": True, "YES": True, "no": False, "No": False, "NO": False,
          "on": True, "On": True, "ON": True, "off": False, "Off": False, "OFF": False}
_NULLS = {"", "~", "null", "Null", "NULL"}
_SPECIAL = set("&*!|>%@`{[")


class _Unsupported(Exception):
    pass


def parse(text: str) -> Any:
    """The document, or None when the text uses YAML this reader does not follow."""
    lines: list[tuple[int, str]] = []
    for raw in text.splitlines():
        line = _strip_comment(raw).rstrip()
        if line.strip() == "---" and not lines:
            continue  # the start of the one document
        if line.strip() in ("---", "..."):
            return None  # several documents
        if line.strip():
            if "\t" in line[: len(line) - len(line.lstrip())]:
                return None
            lines.append((len(line) - len(line.lstrip()), line.strip()))
    try:
        if not lines:
            return None
        value, end = _block(lines, 0, lines[0][0])
        if end != len(lines):
            return None
        return value
    except (_Unsupported, IndexError, ValueError):
        return None


def _strip_comment(line: str) -> str:
    quote = ""
    for i, ch in enumerate(line):
        if ch in "'\"" and not quote:
            quote = ch
        elif ch == quote:
            quote = ""
        elif ch == "#" and not quote and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def _block(lines: list[tuple[int, str]], i: int, indent: int) -> tuple[Any, int]:
    if lines[i][1].startswith("- ") or lines[i][1] == "-":
        return _list(lines, i, indent)
    return _mapping(lines, i, indent)


def _list(lines: list[tuple[int, str]], i: int, indent: int) -> tuple[list[Any], int]:
    out: list[Any] = []
    while i < len(lines) and lines[i][0] == indent and (lines[i][1].startswith("- ") or lines[i][1] == "-"):
        rest = lines[i][1][1:].strip()
        if not rest:
            if i + 1 < len(lines) and lines[i + 1][0] > indent:
                value, i = _block(lines, i + 1, lines[i + 1][0])
                out.append(value)
                continue
            out.append(None)
        elif _key_of(rest) is not None:  # `- key: value`: a mapping, its keys aligned with `key`
            after = lines[i][1][1:]
            col = indent + 1 + len(after) - len(after.lstrip())
            value, i = _mapping([*lines[:i], (col, rest), *lines[i + 1:]], i, col)
            out.append(value)
            continue
        else:
            out.append(_scalar_or_flow(rest))
        i += 1
    return out, i


def _key_of(text: str) -> str | None:
    m = re.match(r"([A-Za-z_][\w.\-/@]*(?: [\w.\-/@]+)*|'[^']*'|\"[^\"]*\")\s*:(\s|$)", text)
    if m is None:
        return None
    if m.group(1)[0] not in "'\"" and not isinstance(_scalar(m.group(1)), str):
        raise _Unsupported()  # `on:`, `null:` are keys of other types
    return m.group(1).strip("'\"")


def _mapping(lines: list[tuple[int, str]], i: int, indent: int) -> tuple[dict[str, Any], int]:
    out: dict[str, Any] = {}
    while i < len(lines) and lines[i][0] == indent:
        text = lines[i][1]
        key = _key_of(text)
        if key is None or key in out:
            raise _Unsupported()
        rest = text[len(key) + 2:].split(":", 1)[1].strip() if text.startswith(("'", '"')) else text.split(":", 1)[1].strip()
        i += 1
        if rest:
            out[key] = _scalar_or_flow(rest)
        elif i < len(lines) and (lines[i][0] > indent or (lines[i][0] == indent and lines[i][1].startswith("- "))):
            out[key], i = _block(lines, i, lines[i][0])
        else:
            out[key] = None
    if i < len(lines) and lines[i][0] > indent:
        raise _Unsupported()
    return out, i


def _scalar_or_flow(text: str) -> Any:
    if text.startswith("[") and text.endswith("]"):
        return [_scalar(p.strip()) for p in _split_flow(text[1:-1])]
    if text.startswith("{") and text.endswith("}"):
        out = {}
        for part in _split_flow(text[1:-1]):
            key = _key_of(part)
            if key is None or part[0] in "'\"":  # (a quoted key may hold the `:`)
                raise _Unsupported()
            out[key] = _scalar(part.split(":", 1)[1].strip())
        return out
    return _scalar(text)


def _split_flow(body: str) -> list[str]:
    """The items of a flow collection's body, split at commas outside quotes. A quote opens a quoted scalar
    only where one starts (after `[`/`{`, a comma or a mapping's `: `); anywhere else, and nested
    collections, are outside the subset."""
    if any(c in body for c in "[]{}"):
        raise _Unsupported()  # nested flow collections
    parts: list[str] = []
    quote, start = "", 0
    for i, ch in enumerate(body):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            before = body[:i].rstrip()
            if not (before == body[:start].rstrip() or before.endswith(":")):
                raise _Unsupported()  # a quote inside a plain scalar
            quote = ch
        elif ch == ",":
            parts.append(body[start:i].strip())
            start = i + 1
    if quote:
        raise _Unsupported()
    parts.append(body[start:].strip())
    if parts and parts[-1] == "":
        parts.pop()
    if any(p == "" for p in parts):
        raise _Unsupported()
    return parts


def _scalar(text: str) -> Any:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        inner = text[1:-1]
        if "\\" in inner or text[0] in inner:
            raise _Unsupported()
        return inner
    if text in _NULLS:
        return None
    if text in _BOOLS:
        return _BOOLS[text]
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    if text[0] in _SPECIAL or text[0] in "'\"-?:,]}#" or re.search(r"[:#]", text) \
            or re.match(r"[-+]?[0-9.]", text) or text in (".inf", ".nan", ".NaN", ".Inf"):
        raise _Unsupported()  # numbers in other notations, dates, sexagesimals, indicators
    return text
