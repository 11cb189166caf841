"""Comprehensions over plain data, run at once (issue 36, item 3: what an import costs).

Libraries build tables at import time by comprehensions over hundreds of entries: transformers 5 makes
some sixty `_LazyAutoMapping`s, each reversing its 500-entry config table (`{v: k for k, v in
config_mapping.items()}`), and rewrites the docstrings of its auto classes with f-strings over those tables.
Step by step that is most of the package's import budget; the values are plain strings.

A comprehension with one generator runs here when its source's items are plain data known exactly (every
item, in order: strings, numbers, None, and tuples, lists and dicts of them the analyzer holds whole) and
its filters and element are made only of names, constants, f-strings, tuples, subscripts, comparisons,
`+` of strings or tuples, `and`/`or`/`not` and conditional expressions — each of which this module evaluates with Python's own
operators on those plain values, so the result is CPython's. A call may stand as the whole element, key or
value (`{k: name_of(v) for ...}`): the interpreter runs it as usual. Anything else (an attribute, a
value not plain, a name not bound, an unpacking that does not fit) leaves the comprehension to the
interpreter before anything ran; an exception of a plain operation (a missing key) does the same, or,
once a call has run, raises as CPython does. The work is charged as steps, one per four items.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.runtime import Scope, UserException
from pytea_ci.interp.unbound import check_bound
from pytea_ci.models.values import KeysView
from pytea_ci.shapes.dim import PInt

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

_SCALARS = (str, int, float, bool, type(None), PInt)
_MAX_ITEMS = 100_000
_PURE = (ast.Name, ast.Constant, ast.JoinedStr, ast.FormattedValue, ast.Tuple, ast.Subscript, ast.Compare,
         ast.BoolOp, ast.UnaryOp, ast.IfExp, ast.Load, ast.And, ast.Or, ast.Not, ast.Eq, ast.NotEq, ast.Lt,
         ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot, ast.BinOp, ast.Add)
_ORDER = {ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b,
          ast.GtE: lambda a, b: a >= b}


class _Bail(Exception):
    """Leave the comprehension to the interpreter (nothing has run yet)."""


def _pure(node: ast.AST) -> bool:
    if not all(isinstance(n, _PURE) for n in ast.walk(node)):
        return False
    for n in ast.walk(node):  # `is` only against None: the identity of strings and numbers is CPython's choice
        if isinstance(n, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot)) for op in n.ops):
            if not all(isinstance(c, ast.Constant) and c.value is None for c in n.comparators):
                return False
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            return False
    return True


def _part_ok(node: ast.expr) -> bool:
    """An element, key or value: pure, or a call the interpreter runs (its arguments whatever they are)."""
    return _pure(node) or isinstance(node, ast.Call) and isinstance(node.func, ast.Name)


def _target_names(t: ast.expr) -> list[str] | None:
    if isinstance(t, ast.Name):
        return [t.id]
    if isinstance(t, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in t.elts):
        return [e.id for e in t.elts]  # type: ignore[attr-defined]
    return None


class Bulk:
    """One run of a comprehension over plain data (see the module docstring)."""

    def __init__(self, interp: "Interpreter", scope: Scope, inner: Scope) -> None:
        self.interp, self.scope, self.inner = interp, scope, inner
        self.free: dict[str, Any] = {}
        self.committed = False  # a call ran: no going back to the interpreter
        self.known: dict[int, bool] = {}  # containers checked (True while one is: a cycle)

    # ----- what is plain ------------------------------------------------------------------------
    def plain(self, v: Any) -> bool:
        """Known exactly, and Python's operators on it are CPython's on the program's value."""
        if type(v) in _SCALARS:
            return True
        if type(v) not in (tuple, list, dict, KeysView):
            return False
        i = self.interp
        if id(v) in i.inexact or id(v) in i.unordered or id(v) in i.escaped or id(v) in i.cursors:
            return False
        if id(v) not in self.known:
            self.known[id(v)] = True
            self.known[id(v)] = all(self.plain(k) and self.plain(x) for k, x in v.items()) if type(v) is dict \
                else all(self.plain(x) for x in v)
        return self.known[id(v)]

    def resolve(self, node: ast.AST, bound: set[str]) -> None:
        """Look the free names of the pure parts up once, before anything runs."""
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id not in bound and n.id not in self.free:
                if n.id in self.interp.provided_names:
                    raise _Bail()
                try:
                    check_bound(self.interp, n.id, self.inner)
                    v = self.interp.lookup(n.id, self.inner, n)
                except UserException:
                    raise _Bail() from None
                if not self.plain(v):
                    raise _Bail()
                self.free[n.id] = v

    # ----- evaluation ---------------------------------------------------------------------------
    def fail(self, e: Exception, node: ast.AST) -> None:
        if not self.committed:
            raise _Bail()
        with self.interp.at(node):
            raise UserException(type(e).__name__) from None

    def part(self, node: ast.expr, env: dict[str, Any]) -> Any:
        if isinstance(node, ast.Call) and not _pure(node):
            self.committed = True
            self.inner.locals.clear()
            self.inner.locals.update(env)
            return self.interp.eval(node, self.inner)
        return self.ev(node, env)

    def ev(self, node: ast.expr, env: dict[str, Any]) -> Any:  # noqa: C901 (one case per node kind)
        try:
            if isinstance(node, ast.Constant):
                if type(node.value) not in _SCALARS:
                    raise _Bail()
                return node.value
            if isinstance(node, ast.Name):
                return env[node.id] if node.id in env else self.free[node.id]
            if isinstance(node, ast.JoinedStr):
                return "".join(self.ev(v, env) for v in node.values)
            if isinstance(node, ast.FormattedValue):
                v = self.ev(node.value, env)
                spec = "" if node.format_spec is None else self.ev(node.format_spec, env)
                v = int(v) if type(v) is PInt else v
                if not (type(v) in _SCALARS or type(v) is tuple and self.plain(v)):
                    raise _Bail()
                shown = {115: str(v), 114: repr(v), 97: ascii(v)}.get(node.conversion, v)
                return format(shown, spec)
            if isinstance(node, ast.Tuple):
                return tuple(self.ev(e, env) for e in node.elts)
            if isinstance(node, ast.Subscript):
                obj, idx = self.ev(node.value, env), self.ev(node.slice, env)
                out = obj[idx]
                if not self.plain(out):
                    raise _Bail()
                return out
            if isinstance(node, ast.Compare):
                left = self.ev(node.left, env)
                for op, right_node in zip(node.ops, node.comparators):
                    right = self.ev(right_node, env)
                    if not self.compare(op, left, right):
                        return False
                    left = right
                return True
            if isinstance(node, ast.BoolOp):
                v = None
                for e in node.values:
                    v = self.ev(e, env)
                    if bool(v) is isinstance(node.op, ast.Or):
                        return v
                return v
            if isinstance(node, ast.BinOp):  # `+` of two strings or two tuples: numbers keep their origins elsewhere
                a, b = self.ev(node.left, env), self.ev(node.right, env)
                if type(a) is type(b) and type(a) in (str, tuple):
                    return a + b
                raise _Bail()
            if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                return not self.ev(node.operand, env)
            if isinstance(node, ast.IfExp):
                return self.ev(node.body if self.ev(node.test, env) else node.orelse, env)
        except (KeyError, IndexError, TypeError, ValueError) as e:
            self.fail(e, node)
        raise _Bail()

    def compare(self, op: ast.cmpop, a: Any, b: Any) -> bool:
        if isinstance(op, (ast.In, ast.NotIn)):
            return (a in b) is isinstance(op, ast.In)
        if isinstance(op, (ast.Is, ast.IsNot)):
            return (a is None if b is None else b is None and a is None) is isinstance(op, ast.Is)
        if isinstance(op, (ast.Eq, ast.NotEq)):
            return (a == b) is isinstance(op, ast.Eq)
        return bool(_ORDER[type(op)](a, b))


def run_bulk(interp: "Interpreter", gens: list[ast.comprehension], scope: Scope, inner: Scope, source: Any,
             parts: tuple[ast.expr, ...], kind: str) -> Any:
    """The comprehension's items (`kind` "list": its elements; "dict": its (key, value) pairs, `parts` the
    two) when it can run at once over the items of `source` (its first generator's iterable, evaluated),
    else None."""
    if len(gens) != 1 or gens[0].is_async or type(source) not in (list, tuple, dict, str, KeysView):
        return None
    g = gens[0]
    names = _target_names(g.target)
    if names is None or not all(_pure(c) for c in g.ifs) or not all(_part_ok(p) for p in parts):
        return None
    bulk = Bulk(interp, scope, inner)
    if not bulk.plain(source) or len(source) > _MAX_ITEMS:
        return None
    items = list(source.keys()) if type(source) is dict else list(source)
    if len(names) > 1 and not all(type(x) in (tuple, list) and len(x) == len(names) for x in items):
        return None
    try:
        bound = set(names)
        for node in (*g.ifs, *(p for p in parts if _pure(p))):
            bulk.resolve(node, bound)
        for p in parts:
            if not _pure(p):
                for a in (*p.args, *(k.value for k in p.keywords)):  # type: ignore[attr-defined]
                    bulk.resolve(a, bound) if _pure(a) else None
        interp.charge_work(1 + len(items) // 4)
        out: list[Any] = []
        for x in items:
            env = dict(zip(names, x)) if len(names) > 1 else {names[0]: x}
            if all(bulk.ev(c, env) for c in g.ifs):
                vals = [bulk.part(p, env) for p in parts]
                out.append(vals[0] if kind == "list" else (vals[0], vals[1]))
    except _Bail:
        # a call ran (what it did stands), then a value it changed was not plain: not known
        return interp.unknown("comprehension over values a call changed") if bulk.committed else None
    return out
