"""Lists a `for` loop grows by exactly one item per iteration (`rows.append(f(i))` as a statement of
the loop body itself, the list named nowhere else in the body, no break/continue): when the loop is
not followed one by one, such a list holds representatives of its items but its length is known."""

from __future__ import annotations

import ast


def _appended_name(stmt: ast.stmt) -> str | None:
    """`name.append(one_value)` as a statement: the name, else None."""
    if isinstance(stmt, ast.Expr) and isinstance(call := stmt.value, ast.Call) and isinstance(call.func, ast.Attribute):
        f = call.func
        if f.attr == "append" and isinstance(f.value, ast.Name) and len(call.args) == 1 and not call.keywords \
                and not isinstance(call.args[0], ast.Starred):
            return f.value.id
    return None


def appended_once(body: list[ast.stmt]) -> set[str]:
    """Names of lists the body appends to exactly once per iteration and does not otherwise touch."""
    if any(isinstance(n, (ast.Break, ast.Continue)) for stmt in body for n in ast.walk(stmt)):
        return set()
    candidates = [name for stmt in body if (name := _appended_name(stmt)) is not None]
    uses: dict[str, int] = {}
    for stmt in body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name):
                uses[n.id] = uses.get(n.id, 0) + 1
    return {name for name in candidates if candidates.count(name) == 1 and uses.get(name) == 1}


_GROWING = frozenset({"append", "extend", "insert", "appendleft", "extendleft"})


def may_grow(body: list[ast.stmt]) -> set[str]:
    """Names of lists the body may add items to (`name.append(...)`, `.extend`, `.insert`,
    `name += ...`), on any of its paths: after a loop whose iterations are represented by a few, such a
    list may hold items even when the representative path added none (it broke out first)."""
    out: set[str] = set()
    for stmt in body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Call) and isinstance(f := n.func, ast.Attribute) and f.attr in _GROWING \
                    and isinstance(f.value, ast.Name):
                out.add(f.value.id)
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                out.add(n.target.id)
    return out
