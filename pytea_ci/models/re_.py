"""`re` on known text: `split`, `sub`, `subn`, `findall`, `escape`, `search`, `match`, `fullmatch` of a
known pattern and string are what CPython computes, by CPython's own `re` (configs decoded from strings:
efficientnet's `'r1_k3_s11_e1_i32_o16_se0.25'` block notation; transformers' `is_kernel` tells a hub
kernel name from `"sdpa"` by a `re.search`). A match is None or a `re.Match` holding its groups and spans
(`group`, `groups`, `groupdict`, `start`, `end`, `span`, `m[k]`); `re.compile` gives a `re.Pattern` with
the same methods. A pattern that could backtrack for long (a quantified group holding a quantifier, a
back-reference) or long text is not run: its result is not known, as is anything of a pattern, string or
flags not known."""

from __future__ import annotations

import re
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, native_class, register
from pytea_ci.models.values import Instance
from pytea_ci.shapes.dim import Term

for _flag in "I IGNORECASE M MULTILINE S DOTALL X VERBOSE A ASCII U UNICODE".split():
    register(f"re.{_flag}", int(getattr(re, _flag)))  # flags combine as the ints they are

_LONG = 10_000  # characters of text run at most
# a repeated group (`(...)*`, `+`, `{n,}`), a back-reference: may backtrack for long (an optional group,
# `(...)?`, is tried at most twice)
_NESTED = re.compile(r"\)[*+{]|\\[1-9]|\(\?P=")


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


def _matched(ctx: Ctx, how: str, pattern: Any, string: Any, flags: Any) -> Any:
    """`re.search`/`match`/`fullmatch`: None, or a `re.Match` of CPython's answer."""
    if not _flags(flags):
        return ctx.unknown(f"re.{how} of flags not known")
    found = _run(ctx, how, "", lambda: getattr(re, how)(pattern, string, flags=flags), pattern, string)
    if found is None or not isinstance(found, re.Match):
        return found
    n = (found.re.groups or 0) + 1
    return Instance(Match, {"_groups": tuple(found.group(i) for i in range(n)),  # type: ignore[arg-type]
                            "_spans": tuple(found.span(i) for i in range(n)),
                            "_names": dict(found.re.groupindex), "string": found.string, "pos": found.pos})


@model("re.search")
def search(ctx: Ctx, pattern: Any, string: Any, flags: Any = 0) -> Any:
    return _matched(ctx, "search", pattern, string, flags)


@model("re.match")
def match(ctx: Ctx, pattern: Any, string: Any, flags: Any = 0) -> Any:
    return _matched(ctx, "match", pattern, string, flags)


@model("re.fullmatch")
def fullmatch(ctx: Ctx, pattern: Any, string: Any, flags: Any = 0) -> Any:
    return _matched(ctx, "fullmatch", pattern, string, flags)


def _index(ctx: Ctx, m: Instance, g: Any) -> int | None:
    """The group number of `g` (a number or a group's name), None when not known; IndexError as CPython."""
    names = m.attrs["_names"]
    if isinstance(g, str) and not isinstance(g, Term):
        if g not in names:
            ctx.user_error("IndexError", "no such group")
        return int(names[g])
    if not _flags(g):
        return None
    if not 0 <= g < len(m.attrs["_groups"]):
        ctx.user_error("IndexError", "no such group")
    return int(g)


@native_class("re.Match")
class Match:
    def group(ctx: Ctx, self: Instance, *groups: Any) -> Any:  # noqa: N805
        got = [_index(ctx, self, g) for g in groups or (0,)]
        if None in got:
            return ctx.unknown("re.Match.group of a group not known")
        values = tuple(self.attrs["_groups"][i] for i in got)  # type: ignore[index]
        return values[0] if len(values) == 1 else values

    __getitem__ = group

    def groups(ctx: Ctx, self: Instance, default: Any = None) -> Any:  # noqa: N805
        return tuple(default if g is None else g for g in self.attrs["_groups"][1:])

    def groupdict(ctx: Ctx, self: Instance, default: Any = None) -> Any:  # noqa: N805
        found = self.attrs["_groups"]
        return {k: default if found[i] is None else found[i] for k, i in self.attrs["_names"].items()}

    def span(ctx: Ctx, self: Instance, group: Any = 0) -> Any:  # noqa: N805
        i = _index(ctx, self, group)
        return ctx.unknown("re.Match.span of a group not known") if i is None else self.attrs["_spans"][i]

    def start(ctx: Ctx, self: Instance, group: Any = 0) -> Any:  # noqa: N805
        i = _index(ctx, self, group)
        return ctx.unknown("re.Match.start of a group not known") if i is None else self.attrs["_spans"][i][0]

    def end(ctx: Ctx, self: Instance, group: Any = 0) -> Any:  # noqa: N805
        i = _index(ctx, self, group)
        return ctx.unknown("re.Match.end of a group not known") if i is None else self.attrs["_spans"][i][1]


@model("re.compile")
def compile_(ctx: Ctx, pattern: Any, flags: Any = 0) -> Any:
    """A `re.Pattern` of a known pattern (its methods run the module's functions with its flags)."""
    if not (_text(pattern) and _flags(flags)):
        return ctx.unknown("re.compile of a pattern not known")
    return Instance(Pattern, {"pattern": pattern, "flags": flags})  # type: ignore[arg-type]


def _with(fn: Any, name: str) -> Any:
    def method(ctx: Ctx, self: Instance, string: Any, *args: Any) -> Any:
        pattern, flags = self.attrs["pattern"], self.attrs["flags"]
        if name in ("search", "match", "fullmatch"):
            if args:  # pos/endpos: not modeled
                return ctx.unknown(f"re.Pattern.{name} of a position")
            return fn(ctx, pattern, string, flags)
        if name in ("sub", "subn"):
            return fn(ctx, pattern, string, *args[:1], *(args[1:2] or (0,)), flags)
        if name == "split":
            return fn(ctx, pattern, string, *(args[:1] or (0,)), flags)
        return fn(ctx, pattern, string, flags) if not args else ctx.unknown(f"re.Pattern.{name} of a position")
    return method


@native_class("re.Pattern")
class Pattern:
    search = _with(search, "search")
    match = _with(match, "match")
    fullmatch = _with(fullmatch, "fullmatch")
    findall = _with(findall, "findall")
    split = _with(split, "split")
    sub = _with(sub, "sub")
    subn = _with(subn, "subn")
