"""How every reader of project sources parses a Python file: into the tree the interpreter follows.

`parse` is `ast.parse` of the running interpreter, with two additions:

* coroutines run as their synchronous meaning (issue 31 item 7): `async def` is a `def`, `await e`
  is `e`, `async for`/`async with` and async comprehensions are their plain forms, so the code in
  them is followed like any other (an event loop's scheduling has no shape effect);
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
    return Synchronous().visit(tree) if _has_async(tree) else tree


def _has_async(tree: ast.AST) -> bool:
    return any(isinstance(n, (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith))
               or (isinstance(n, ast.comprehension) and n.is_async) for n in ast.walk(tree))


class Synchronous(ast.NodeTransformer):
    """Coroutines as their synchronous meaning (module docstring); positions are kept."""

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.FunctionDef:
        self.generic_visit(node)
        fields = {f: getattr(node, f) for f in node._fields if hasattr(node, f)}
        return ast.copy_location(ast.FunctionDef(**fields), node)

    def visit_Await(self, node: ast.Await) -> ast.expr:
        self.generic_visit(node)
        return node.value

    def visit_AsyncFor(self, node: ast.AsyncFor) -> ast.For:
        self.generic_visit(node)
        return ast.copy_location(ast.For(node.target, node.iter, node.body, node.orelse, node.type_comment), node)

    def visit_AsyncWith(self, node: ast.AsyncWith) -> ast.With:
        self.generic_visit(node)
        return ast.copy_location(ast.With(node.items, node.body, node.type_comment), node)

    def visit_comprehension(self, node: ast.comprehension) -> ast.comprehension:
        self.generic_visit(node)
        node.is_async = 0
        return node
