"""`re` on known text: `split`, `sub`, `subn`, `findall`, `escape` of a known pattern and string are
what CPython computes, by CPython's own `re` (configs decoded from strings: efficientnet's
`'r1_k3_s11_e1_i32_o16_se0.25'` block notation). A pattern that could backtrack for long (a quantified
group holding a quantifier, a back-reference) or long text is not run: its result is not known, as is
anything of a pattern, string or flags not known and the match objects of `match`/`search`."""

from __future__ import annotations

import re
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, register
from pytea_ci.shapes.dim import Term

for _flag in "I IGNORECASE M MULTILINE S DOTALL X VERBOSE A ASCII U UNICODE".split():
    register(f"re.{_flag}", int(getattr(re, _flag)))  # flags combine as the ints they are

_LONG = 10_000  # characters of text run at most
_NESTED = re.compile(r"\)[*+?{]|\\[1-9]|\(\?P=")  # a quantified group, a back-reference: may backtrack


def _text(v: Any) -> bool:
    return isinstance(v, str) and not isinstance(v, Term)


def _flags(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, (bool, Term))


def _runnable(pattern: Any, *texts: Any) -> bool:
    """A known pattern CPython runs quickly on known texts."""
    return _text(pattern) and len(pattern) <= 200 and not _NESTED.search(pattern) \
        and all(_text(t) and len(t) <= _LONG for t in texts)


def _run(ctx: Ctx, name: str, pytype: str, call: Any, pattern: Any, *texts: Any) -> Any:
    if not _runnable(pattern, *texts):
        out = ctx.unknown(f"re.{name} of a pattern or text not known")
        out.pytype = pytype
        return out
    try:
        return call()
    except re.error:  # CPython raises re.error, an exception not modeled: the path goes on, not knowing
        return ctx.unknown(f"re.{name} of a bad pattern")


@model("re.split")
def split(ctx: Ctx, pattern: Any, string: Any, maxsplit: Any = 0, flags: Any = 0) -> Any:
    if not (_flags(maxsplit) and _flags(flags)):
        return ctx.unknown("re.split of counts not known")
    return _run(ctx, "split", "list", lambda: re.split(pattern, string, maxsplit=maxsplit, flags=flags),
                pattern, string)


@model("re.findall")
def findall(ctx: Ctx, pattern: Any, string: Any, flags: Any = 0) -> Any:
    if not _flags(flags):
        return ctx.unknown("re.findall of flags not known")
    return _run(ctx, "findall", "list", lambda: re.findall(pattern, string, flags=flags), pattern, string)


def _sub(ctx: Ctx, subn: bool, pattern: Any, repl: Any, string: Any, count: Any, flags: Any) -> Any:
    """A replacement string only (a function as `repl` is not run)."""
    name = "subn" if subn else "sub"
    if not (_flags(count) and _flags(flags)):
        return ctx.unknown(f"re.{name} of counts not known")
    run = re.subn if subn else re.sub
    return _run(ctx, name, "tuple" if subn else "str", lambda: run(pattern, repl, string, count=count, flags=flags),
                pattern, string, repl)


@model("re.sub")
def sub(ctx: Ctx, pattern: Any, repl: Any, string: Any, count: Any = 0, flags: Any = 0) -> Any:
    return _sub(ctx, False, pattern, repl, string, count, flags)


@model("re.subn")
def subn(ctx: Ctx, pattern: Any, repl: Any, string: Any, count: Any = 0, flags: Any = 0) -> Any:
    return _sub(ctx, True, pattern, repl, string, count, flags)


@model("re.escape")
def escape(ctx: Ctx, pattern: Any) -> Any:
    if not _text(pattern):
        out = ctx.unknown("re.escape of text not known")
        out.pytype = "str"
        return out
    return re.escape(pattern)
