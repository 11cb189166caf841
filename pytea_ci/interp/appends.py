"""Lists a `for` loop grows by exactly one item per iteration (`rows.append(f(i))` as a statement of
the loop body itself, the list named nowhere else in the body, no break/continue): when the loop is
not followed one by one, such a list holds representatives of its items but its length is known; and
lists a `while len(rows) < n:` loop grows by at most one item per iteration, whose length it leaves at n."""

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


_LOOPS_AND_SCOPES = (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
                     ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def length_bound(test: ast.expr, body: list[ast.stmt], rebound: set[str]) -> tuple[ast.expr, ast.expr, int] | None:
    """`while len(rows) < n:` (or `<=`, or `n > len(rows)`) over a body that adds at most one item to
    `rows` per iteration — its one use there a `rows.append(x)` statement, outside nested loops and
    functions — with `n` built of names the body does not rebind (`rebound`) and constants: the
    `len(rows)` and `n` expressions and the slack (0 for `<`, 1 for `<=`). The last iteration began
    with the condition true and added at most one item, so a loop left by its condition ends with
    `len(rows) <= n + slack`: with the condition's negation, exactly `n` from a start below it."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    op, left, right = test.ops[0], test.left, test.comparators[0]
    if isinstance(op, (ast.Gt, ast.GtE)):
        left, right, op = right, left, ast.Lt() if isinstance(op, ast.Gt) else ast.LtE()
    if not isinstance(op, (ast.Lt, ast.LtE)) or (name := _len_of(left)) is None:
        return None
    names = {n.id for n in ast.walk(right) if isinstance(n, ast.Name)}
    if any(not isinstance(n, (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop, ast.Load))
           for n in ast.walk(right)) or names & (rebound | {name}):
        return None
    uses = [n for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id == name]
    if len(uses) != 1 or not _appended_at_most_once(body, name):
        return None
    return left, right, 0 if isinstance(op, ast.Lt) else 1


def _len_of(e: ast.expr) -> str | None:
    """`len(name)`: the name."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "len" and len(e.args) == 1 \
            and not e.keywords and isinstance(e.args[0], ast.Name):
        return e.args[0].id
    return None


def _appended_at_most_once(body: list[ast.stmt], name: str) -> bool:
    """Whether a `name.append(x)` statement of the body sits outside nested loops, functions and
    comprehensions (so it runs at most once per iteration)."""
    todo: list[ast.AST] = list(body)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.stmt) and _appended_name(n) == name:
            return True
        if not isinstance(n, _LOOPS_AND_SCOPES):
            todo.extend(ast.iter_child_nodes(n))
    return False
