"""Names a data-dependent branch binds for its own use only (`state = {...}; torch.save(state, path)`
inside `if acc > best_acc:`): nothing outside the branch reads them, so their values cannot make the
two sides of the branch differ for the rest of the program, and joining both sides on one path
(`StmtMixin.join_branches`) loses nothing by not binding them. Which values join at all is
`numbers_join`'s.

A name only branches read (`i` in `if hours > 0 and i <= 2: f += ...; i += 1`, a formatting helper's
counter) decides which branches run but reaches no value the program computes with: its value may
become unknown at a join (`tests_only`).

A name is local to the branch when it is a plain local name assigned exactly once, by a statement at the
top of one side, and every read of it in the enclosing function is a later statement of that same side
(so no earlier iteration's value is read, no code after the branch reads it, no nested function sees it).
"""

from __future__ import annotations

import ast
import weakref
from typing import Any

from pytea_ci.models.values import MISSING, Unknown

_MEMO: "weakref.WeakKeyDictionary[ast.If, frozenset[str]]" = weakref.WeakKeyDictionary()
_TESTS: "weakref.WeakKeyDictionary[ast.AST, frozenset[str]]" = weakref.WeakKeyDictionary()


def _scalar(v: Any) -> bool:
    """A value no shape depends on: a float, string, bool, None, or something already unknown."""
    if isinstance(v, Unknown):
        return v.pytype != "int"
    return v is None or isinstance(v, (float, str, bool))


def _float_or_int(a: Any, b: Any) -> bool:
    """A float on one side, a literal int on the other (`best_acc = 0`, then `best_acc = acc`): a number
    that is a float on some path, so no size: joined as a number of unknown value."""
    def is_float(v: Any) -> bool:
        return isinstance(v, float) or (isinstance(v, Unknown) and v.pytype == "float")

    def is_int(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    return (is_float(a) and is_int(b)) or (is_float(b) and is_int(a))


def numbers_join(a: Any, b: Any, tested_only: bool) -> bool:
    """Whether a name's two values after the sides of a data-dependent branch join as a value not known:
    scalars no shape depends on (or not bound on one side), an int and a float, or any ints when only
    branch tests read the name (`tested_only`: `tests_only`)."""
    if all(v is MISSING or _scalar(v) for v in (a, b)) or _float_or_int(a, b):
        return True
    return tested_only and all(isinstance(v, (int, Unknown)) for v in (a, b))


def tests_only(func: ast.AST | None) -> frozenset[str]:
    """The local names of `func` read only by the tests of its `if`s and `while`s and by `name += ...`
    of themselves (no global or nonlocal, no other read: not returned, passed, stored or indexed)."""
    if func is None:
        return frozenset()
    found = _TESTS.get(func)
    if found is None:
        found = _TESTS[func] = frozenset(_tests_only(func))
    return found


def _tests_only(func: ast.AST) -> set[str]:
    in_tests = {id(n) for t in ast.walk(func) if isinstance(t, (ast.If, ast.While)) for n in ast.walk(t.test)}
    declared = {name for n in ast.walk(func) if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}
    stored: dict[str, bool] = {}  # name -> every store a plain assignment or augmented assignment of itself
    for n in ast.walk(func):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            stored.setdefault(n.id, True)
        elif isinstance(n, (ast.For, ast.comprehension, ast.With, ast.withitem, ast.arguments)):
            for m in ast.walk(n.target if isinstance(n, (ast.For, ast.comprehension)) else n):
                if isinstance(m, ast.Name) and not isinstance(n, ast.arguments):
                    stored[m.id] = False
                elif isinstance(m, ast.arg):
                    stored[m.arg] = False
    reads = [n for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    return {name for name, plain in stored.items() if plain and name not in declared
            and all(id(n) in in_tests for n in reads if n.id == name)}


def branch_locals(node: ast.If, func: ast.AST | None) -> frozenset[str]:
    """The names `node` binds for its own use only, in the function `func` (None: none)."""
    if func is None:
        return frozenset()
    found = _MEMO.get(node)
    if found is None:
        found = _MEMO[node] = frozenset(_compute(node, func))
    return found


def _compute(node: ast.If, func: ast.AST) -> set[str]:
    out: set[str] = set()
    stores = [n for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))]
    loads = [n for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    declared = {name for n in ast.walk(func) if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}
    for side in (node.body, node.orelse):
        for i, st in enumerate(side):
            if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)):
                continue
            name = st.targets[0].id
            later = {id(n) for s in side[i + 1:] for n in ast.walk(s)}
            if name not in declared and [n for n in stores if n.id == name] == [st.targets[0]] \
                    and all(id(n) in later for n in loads if n.id == name):
                out.add(name)
    return out



def constant_choice(node: ast.If) -> list[dict[str, Any]] | None:
    """An `if`/`elif`/`else` chain (ending in `else`) whose every side only assigns literal constants that
    are no sizes (floats, strings, bools, None: `init_eps = 0.1` / `1e-5` / `1e-6` by a layer's depth) to
    plain names, its tests comparisons of names and numbers: what each side binds, else None. Which side runs changes no
    shape, so a branch on a size need not fork there (`StmtMixin.ex_If`)."""
    sides: list[dict[str, Any] | None] = []
    while True:
        if not all(isinstance(n, _ARITHMETIC) for n in ast.walk(node.test)):
            return None  # (a call, an attribute or an index might raise: the tests not taken are not run)
        sides.append(_constants(node.body))
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            node = node.orelse[0]
            continue
        sides.append(_constants(node.orelse) if node.orelse else None)
        return [s for s in sides if s is not None] if all(s is not None for s in sides) else None


_ARITHMETIC = (ast.Name, ast.Constant, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.expr_context,
               ast.cmpop, ast.boolop, ast.unaryop, ast.operator)


def _constants(body: list[ast.stmt]) -> dict[str, Any] | None:
    """What a block of `name = <literal float/str/bool/None>` statements (or `pass`) binds; None for any other block."""
    out: dict[str, Any] = {}
    for st in body:
        if isinstance(st, ast.Pass):
            continue
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)):
            return None
        v = st.value
        if isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub) and isinstance(v.operand, ast.Constant) \
                and isinstance(v.operand.value, float):
            out[st.targets[0].id] = -v.operand.value
        elif isinstance(v, ast.Constant) and (v.value is None or isinstance(v.value, (float, str, bool))):
            out[st.targets[0].id] = v.value
        else:
            return None
    return out
