"""How every reader of project sources parses a Python file: into the tree the interpreter follows.

`parse` is `ast.parse` of the running interpreter, with two additions:

* an async comprehension is its plain form (an event loop's scheduling has no shape effect); `async
  def`, `await`, `async for` and `async with` stay as they are: the interpreter follows them as their
  synchronous meaning (interp/coroutines.py: a coroutine's body runs where it is awaited, never where
  it is only called);
* code written for a newer Python than the one running (3.12's type parameter lists and `type`
  aliases, 3.14's `except A, B:`) is parsed by a parser that knows the newer grammar
  (`newer_grammar.py`, loaded only then) and turned into what this interpreter's `ast` has. A file no
  Python version accepts still raises SyntaxError (PT012).
"""

from __future__ import annotations

import ast


def parse(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """The tree of `source` (see the module docstring); raises SyntaxError like `ast.parse`."""
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as e:
        from pytea_ci.diagnostics.newer_grammar import parse_newer  # lazy: startup stays fast

        tree = parse_newer(source, filename, e)
    return Synchronous().visit(tree) if _has_async(source, tree) else tree


def _has_async(source: str | bytes, tree: ast.AST) -> bool:
    if (b"async" not in source) if isinstance(source, bytes) else ("async" not in source):
        return False  # no async comprehension without the word (the walk is a tenth of a package's parse)
    return any(isinstance(n, ast.comprehension) and n.is_async for n in ast.walk(tree))


class Synchronous(ast.NodeTransformer):
    """Async comprehensions as their plain forms (module docstring); positions are kept."""

    def visit_comprehension(self, node: ast.comprehension) -> ast.comprehension:
        self.generic_visit(node)
        node.is_async = 0
        return node
