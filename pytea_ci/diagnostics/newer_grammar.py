"""Files written for a newer Python than the one running (issue 31 item 8), read with libcst's native
parser, which knows the grammars of Python 3.0 through 3.15, and rewritten into source this
interpreter's `ast` parses, line for line:

* type parameter lists (`def f[T](x: T)`, `class Box[T]:`) are dropped: they have no runtime effect
  on values;
* a `type Shape = ...` alias becomes `Shape = lambda: (...)`: bound, and its value as lazy as
  CPython's (it may name what is defined later);
* 3.14's `except A, B:` is `except (A, B):`;
* 3.12's f-strings that reuse their quotes inside a replacement field become `"".join(...)` of the
  same parts (`format(value, spec)`).

libcst is chosen over parso (grammars up to 3.9 only) and over running a newer interpreter (not
installed where the Action runs): it is a wheel, and imported only for a file `ast` rejects.
"""

from __future__ import annotations

import ast
from typing import Any

NEWEST = "3.14"


def parse_newer(source: str | bytes, filename: str, error: SyntaxError) -> ast.Module:
    """`source` rewritten for this interpreter and parsed; `error` (this interpreter's) when no
    Python version accepts it, or when libcst is not installed."""
    try:
        import libcst as cst
    except ImportError:
        raise error from None
    text = source.decode("utf-8-sig") if isinstance(source, bytes) else source
    try:
        module = cst.parse_module(text, config=cst.PartialParserConfig(python_version=NEWEST))
    except Exception:  # libcst's ParserSyntaxError, or a grammar it does not know either
        raise error from None
    rewritten = module.visit(_Older()).code
    try:
        return ast.parse(rewritten, filename=filename)
    except SyntaxError:
        raise error from None


def _older() -> Any:
    import libcst as cst

    class Older(cst.CSTTransformer):
        def leave_FunctionDef(self, original: Any, updated: Any) -> Any:
            return updated.with_changes(type_parameters=None)

        def leave_ClassDef(self, original: Any, updated: Any) -> Any:
            return updated.with_changes(type_parameters=None)

        def leave_TypeAlias(self, original: Any, updated: Any) -> Any:
            lazy = cst.Lambda(params=cst.Parameters(), body=updated.value.with_changes(
                lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
            return cst.Assign(targets=[cst.AssignTarget(target=updated.name)], value=lazy)

        def leave_ExceptHandler(self, original: Any, updated: Any) -> Any:
            return updated.with_changes(type=_parenthesized(updated.type))

        def leave_ExceptStarHandler(self, original: Any, updated: Any) -> Any:
            return updated.with_changes(type=_parenthesized(updated.type))

        def leave_FormattedString(self, original: Any, updated: Any) -> Any:
            parts = [_part(p, updated) for p in updated.parts]
            joined = cst.parse_expression('"".join(())')
            return joined.with_changes(args=[cst.Arg(cst.Tuple(
                [cst.Element(p) for p in parts] or [], lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))]) \
                if parts else cst.SimpleString('""')

    return Older()


def _parenthesized(t: Any) -> Any:
    import libcst as cst

    if isinstance(t, cst.Tuple) and not t.lpar:
        return t.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return t


def _part(p: Any, fs: Any) -> Any:
    """One part of an f-string as an expression: its text, or `format(value, spec)`."""
    import libcst as cst

    if isinstance(p, cst.FormattedStringText):
        return cst.SimpleString(repr(p.value.replace("{{", "{").replace("}}", "}")))
    value = p.expression.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    if p.conversion is not None:
        value = cst.Call(cst.Name({"r": "repr", "a": "ascii"}.get(p.conversion, "str")), [cst.Arg(value)])
    spec = [_part(s, fs) for s in p.format_spec] if p.format_spec else []
    args = [cst.Arg(value)] + ([cst.Arg(_concat(spec))] if spec else [])
    return cst.Call(cst.Name("format"), args)


def _concat(parts: list[Any]) -> Any:
    import libcst as cst

    out = parts[0]
    for p in parts[1:]:
        out = cst.BinaryOperation(out, cst.Add(), p)
    return out


class _Lazy:
    """The transformer, built on first use (libcst is imported only then)."""

    instance: Any = None


def _Older() -> Any:  # noqa: N802 - reads as the class it builds
    if _Lazy.instance is None:
        _Lazy.instance = _older()
    return _Lazy.instance
