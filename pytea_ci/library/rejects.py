"""Constructions a module's `__init__` rejects outright: a guard at the top of its body that raises when
parameters defaulting to None are all left out (speechbrain's RNNs: `if input_shape is None and input_size is
None: raise ValueError(...)`). Library mode builds a class with its defaults and, when some of those parameters
are sizes, once more with them given (`targets.optional_sizes`); the defaults construction such a guard rejects
can never check anything, so it is not a target. Read from the source alone (no interpreter): a guard whose
test is not made of `name is None` / `name is not None` over those parameters, `and`, `or` and `not` is not
read, nor one after a statement that may rebind them."""

from __future__ import annotations

import ast


def rejects(init: ast.FunctionDef | None, unset: frozenset[str]) -> bool:
    """Whether `init` raises at once when the parameters `unset` are None (their default) and the others are
    not: a top-level `if <test>: raise ...` of its body whose test is then true, before any statement that
    binds one of them."""
    if init is None:
        return False
    for stmt in init.body:
        if isinstance(stmt, ast.If) and len(stmt.body) == 1 and isinstance(stmt.body[0], ast.Raise):
            if _truth(stmt.test, unset, none_defaults(init)) is True:
                return True
        if _binds(stmt, none_defaults(init)):
            return False
    return False


def none_defaults(init: ast.FunctionDef | None) -> frozenset[str]:
    """The parameters of `init` that default to None."""
    if init is None:
        return frozenset()
    a = init.args
    params = a.posonlyargs + a.args
    pairs = list(zip(params[len(params) - len(a.defaults):], a.defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
    return frozenset(p.arg for p, d in pairs if isinstance(d, ast.Constant) and d.value is None)


def _truth(test: ast.expr, unset: frozenset[str], params: frozenset[str]) -> bool | None:
    """The value of `test` with `unset` None and the other parameters of `params` not None; None: not known."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
            and test.left.id in params and isinstance(test.comparators[0], ast.Constant) \
            and test.comparators[0].value is None and isinstance(test.ops[0], (ast.Is, ast.IsNot)):
        none = test.left.id in unset
        return none if isinstance(test.ops[0], ast.Is) else not none
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(test.operand, unset, params)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp):
        values = [_truth(v, unset, params) for v in test.values]
        if isinstance(test.op, ast.And):
            return False if False in values else (True if all(v is True for v in values) else None)
        return True if True in values else (False if all(v is False for v in values) else None)
    return None


def _binds(stmt: ast.stmt, names: frozenset[str]) -> bool:
    """Whether `stmt` may rebind one of `names` (an assignment, a loop target, `del`, an import, `global`...)."""
    for n in ast.walk(stmt):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)) and n.id in names:
            return True
        if isinstance(n, (ast.Global, ast.Nonlocal)) and names.intersection(n.names):
            return True
        if isinstance(n, (ast.Import, ast.ImportFrom)) and any((al.asname or al.name) in names for al in n.names):
            return True
        if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name) and n.target.id in names:
            return True
    return False
