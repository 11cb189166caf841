"""`eval(text)` of a text known here: the expression it holds, interpreted where the call is (read, never
executed: the same interpretation as the program's own code). Scripts name a layer, a model class or a
list of sizes in a string option (`eval(args.layers)` with `--layers '[64,32,16,8]'`, `eval("nn." + unit)`).

CPython's `eval` with no namespaces given reads the caller's globals and locals; a name that is neither (in
a function: an enclosing function's variable the function does not use itself) raises NameError there, so
such a text stays a value not understood rather than one read from a scope CPython does not look in. Leading
spaces and tabs are stripped, as CPython does; a text that is not an expression is CPython's SyntaxError,
which no shape question follows from: a value not understood. What the expression does is placed at the
`eval` call (its nodes take the call's position).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.runtime import Scope
from pytea_ci.models import registry

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

MAX_TEXT = 2_000  # longer texts are not a name or a size list: not read


def is_plain_eval(interp: "Interpreter", fn: Any, node: ast.Call, args: list[Any], kwargs: dict[str, Any]) -> bool:
    """`eval(text)` called by that name with one text known here and no namespaces."""
    return (fn is registry.get("builtins.eval") and isinstance(node.func, ast.Name) and node.func.id == "eval"
            and len(args) == 1 and not kwargs and isinstance(args[0], str))


def eval_text(interp: "Interpreter", text: str, node: ast.Call, scope: Scope) -> Any:
    if len(text) > MAX_TEXT:
        return interp.unknown("eval of a long text")
    try:
        tree = ast.parse(text.lstrip(" \t"), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return interp.unknown("eval of a text that is not an expression")
    if scope.func is not None and not _names_seen(tree, scope):
        return interp.unknown("eval of a name CPython's eval may not see")
    for n in ast.walk(tree):
        for field in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if field in n._attributes:
                setattr(n, field, getattr(node, field))
    return interp.eval(tree.body, scope)


def _names_seen(tree: ast.Expression, scope: Scope) -> bool:
    """Whether every name the text reads (and does not bind itself) is a local, a global or a builtin."""
    bound = {a.arg for n in ast.walk(tree) if isinstance(n, ast.Lambda) for a in ast.walk(n.args)
             if isinstance(a, ast.arg)}
    bound |= {t.id for n in ast.walk(tree) if isinstance(n, ast.comprehension) for t in ast.walk(n.target)
              if isinstance(t, ast.Name)}
    bound |= {n.target.id for n in ast.walk(tree) if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and n.id not in bound and n.id not in scope.locals \
                and n.id not in scope.globals and registry.get(f"builtins.{n.id}") is None:
            return False
    return True
