"""Methods of a text whose value is not known (an `Unknown` of Python type `str`: a file's contents, a
command-line option, a line of a corpus). CPython's `str` never changes, so a method called twice on the
same text with the same arguments gives equal results: the analyzer gives the *same* value, and what is
learnt of one (`len(p[0].split(" ")) < MAX_LENGTH` in a filter) holds for the other (the same split taken
again where the sentence is encoded). The result's Python type is what `str`'s method returns: a text
(`lower`, `strip`, `replace`, ...), a list of texts (`split`, `splitlines`: its items are texts), a 3-tuple
of texts (`partition`), an int (`find`, `count`), a bool (`startswith`, `isdigit`, ...).

One value per (text, method, arguments) on a path: the arguments must be plain (a str, an int, None, a
bool) or themselves values not known (by identity); a call with anything else gets a fresh value.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import prop
from pytea_ci.models.values import Builtin, Unknown

_TEXTS = ("lower", "upper", "strip", "lstrip", "rstrip", "replace", "title", "capitalize", "casefold", "swapcase",
          "center", "ljust", "rjust", "zfill", "removeprefix", "removesuffix", "expandtabs", "format", "join",
          "translate")
_LISTS = ("split", "rsplit", "splitlines")
_INTS = ("find", "rfind", "count", "index", "rindex")
_BOOLS = ("startswith", "endswith", "isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "isnumeric",
          "isdecimal", "isidentifier", "istitle", "isascii", "isprintable")
_TUPLES = ("partition", "rpartition")
_MEMO = "text calls"  # Ctx.facts key: (id(text), method, arguments) -> (text, result)


def _key(args: tuple[Any, ...]) -> "tuple[Any, ...] | None":
    """The arguments as a memo key: plain values as they are, values not known by identity; None when
    any is neither (a list, an object: its contents may differ between the calls)."""
    out: list[Any] = []
    for a in args:
        if isinstance(a, Unknown):
            out.append(("unknown", id(a)))
        elif type(a) in (str, int, bool, type(None)):
            out.append((type(a).__name__, a))
        else:
            return None
    return tuple(out)


def _result(text: Unknown, name: str) -> Any:
    what = f"str.{name} of a text not known"
    if name in _TUPLES:
        return tuple(Unknown(what, "str", text.origin) for _ in range(3))
    if name in _LISTS:
        out = Unknown(what, None, text.origin)
        out.item_type = "str"
        return out
    kind = "str" if name in _TEXTS else "int" if name in _INTS else "bool"
    return Unknown(what, kind, text.origin)


def _method(text: Unknown, name: str) -> Builtin:
    def call(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
        if kwargs:  # a call with keywords is never memoized (one plain key per call written positionally)
            return _result(text, name)
        key = _key(args)
        if key is None:
            return _result(text, name)
        memo = ctx.facts.setdefault(_MEMO, {})
        found = memo.get((id(text), name, key))
        if found is None:
            found = memo[(id(text), name, key)] = (text, _result(text, name))  # the text kept: its id stays its own
        return found[1]

    return Builtin(f"str.{name}", call)


def _register(name: str) -> None:
    @prop(f"builtins.Text.{name}")
    def method(ctx: Ctx, text: Unknown) -> Builtin:
        return _method(text, name)


for _name in _TEXTS + _LISTS + _INTS + _BOOLS + _TUPLES:
    _register(_name)
