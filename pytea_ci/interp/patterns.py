"""`match` statements as CPython runs them (PEP 634): the subject is evaluated once, the cases are tried
in order, the first whose pattern matches (and whose guard holds) runs.

A pattern gives a condition: True, False, a predicate on sizes (`case 2:` on `x.dim()` of a symbolic
rank), or an Unknown when the subject is not understood. An undecided condition forks like an `if`
(a guess on a value not understood is kept as one, interp/machine.py). Captures are bound as the
pattern is tried, as CPython leaves them bound after a failed case.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.ops import truth
from pytea_ci.interp.runtime import UserException
from pytea_ci.models.values import MISSING, Builtin, ClassVal, Instance, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.pred import Pred
from pytea_ci.shapes.dim import is_dim
from pytea_ci.shapes.tensor import Tensor

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter
    from pytea_ci.interp.runtime import Scope

# classes whose one positional sub-pattern matches the subject itself (`case int(n):`)
_SELF_MATCHING = {"bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list", "set", "str", "tuple"}


class PatternMixin:
    def ex_Match(self: "Interpreter", node: ast.Match, scope: "Scope") -> None:
        subject = self.eval(node.subject, scope)
        for case in node.cases:
            if not self.decide(self.match_pattern(case.pattern, subject, scope), case):
                continue
            inside = self.branch_inside
            if case.guard is not None and not self.decide(self.eval(case.guard, scope), case.guard):
                continue
            self.branch_inside = inside | self.branch_inside
            with self.machine_side():
                self.exec_block(case.body, scope)
            return

    def match_pattern(self: "Interpreter", pat: ast.pattern, subject: Any, scope: "Scope") -> Any:
        """Whether `subject` matches `pat` (a condition, see the module docstring), binding its captures."""
        if isinstance(pat, ast.MatchAs):
            ok = True if pat.pattern is None else self.match_pattern(pat.pattern, subject, scope)
            if pat.name is not None and ok is not False:
                self.assign(ast.Name(id=pat.name, ctx=ast.Store()), subject, scope)
            return ok
        if isinstance(pat, ast.MatchOr):
            undecided = []
            for alt in pat.patterns:
                ok = self.match_pattern(alt, subject, scope)
                if ok is True:
                    return True
                if ok is not False:
                    undecided.append(ok)
            return self._any_of(undecided)
        if isinstance(pat, ast.MatchValue):
            return self._cond(self.compare(ast.Eq(), subject, self.eval(pat.value, scope)))
        if isinstance(pat, ast.MatchSingleton):
            return self._cond(self.compare(ast.Is(), subject, pat.value))
        if isinstance(subject, Unknown):  # a structure of a value not understood: its captures are too
            for name in _captures(pat):
                self.assign(ast.Name(id=name, ctx=ast.Store()), self.derived("match capture", subject), scope)
            return self.derived("match pattern", subject)
        if isinstance(pat, ast.MatchSequence):
            return self.match_sequence(pat, subject, scope)
        if isinstance(pat, ast.MatchMapping):
            return self.match_mapping(pat, subject, scope)
        if isinstance(pat, ast.MatchClass):
            return self.match_class(pat, subject, scope)
        return self.unsupported(pat)

    def match_sequence(self: "Interpreter", pat: ast.MatchSequence, subject: Any, scope: "Scope") -> Any:
        if not isinstance(subject, (list, tuple)):  # str, bytes, dict, numbers, tensors are no sequences here
            return self.derived("match pattern", subject) if not _concrete_kind(subject) else False
        known = self.iterate(subject)
        if known is None:  # built by a loop not followed to its end: its length is not known
            return self.derived("match on a list of unknown length", subject)
        stars = [i for i, p in enumerate(pat.patterns) if isinstance(p, ast.MatchStar)]
        n, want = len(known), len(pat.patterns)
        if (n != want) if not stars else (n < want - 1):
            return False
        star = stars[0] if stars else want
        after = want - star - 1 if stars else 0
        items = list(known)
        pairs = list(zip(pat.patterns[:star], items[:star])) + \
            list(zip(pat.patterns[star + 1:], items[n - after:] if after else []))
        starred = pat.patterns[star] if stars else None
        if isinstance(starred, ast.MatchStar) and starred.name is not None:
            self.assign(ast.Name(id=starred.name, ctx=ast.Store()), items[star:n - after], scope)
        return self._all_of(pairs, scope)

    def match_mapping(self: "Interpreter", pat: ast.MatchMapping, subject: Any, scope: "Scope") -> Any:
        if not isinstance(subject, dict):
            return self.derived("match pattern", subject) if not _concrete_kind(subject) else False
        keys = [self.eval(k, scope) for k in pat.keys]
        if any(k not in subject for k in keys):
            return False if id(subject) not in self.inexact else self.derived("match on a dict not fully known", subject)
        if pat.rest is not None:
            rest = {k: v for k, v in subject.items() if k not in keys}
            self.assign(ast.Name(id=pat.rest, ctx=ast.Store()), rest, scope)
        return self._all_of(zip(pat.patterns, [subject[k] for k in keys]), scope)

    def match_class(self: "Interpreter", pat: ast.MatchClass, subject: Any, scope: "Scope") -> Any:
        cls = self.eval(pat.cls, scope)
        ok = self._cond(self.call(self.lookup("isinstance", scope, pat), subject, cls))
        if ok is False or not (pat.patterns or pat.kwd_patterns):
            return ok
        pairs: list[tuple[ast.pattern, Any]] = []
        builtin = isinstance(cls, Builtin) and cls.name.removeprefix("builtins.") in _SELF_MATCHING
        if builtin and len(pat.patterns) == 1 and not pat.kwd_patterns:
            return self._all_of([(pat.patterns[0], subject)], scope, ok)
        if not isinstance(cls, ClassVal):
            return self.derived("match on a class not understood", cls)
        if pat.patterns:
            names = cls.lookup("__match_args__")
            if isinstance(names, tuple) and len(names) >= len(pat.patterns):
                pairs += [(p, self.getattr(subject, a)) for p, a in zip(pat.patterns, names)]
            elif names is MISSING or not isinstance(names, tuple):
                return self.derived("match on positional fields not understood", cls)
            else:  # more positional sub-patterns than `__match_args__` names: CPython's TypeError
                raise UserException("TypeError")
        pairs += [(p, self.getattr(subject, a)) for a, p in zip(pat.kwd_attrs, pat.kwd_patterns)]
        return self._all_of(pairs, scope, ok)

    def _all_of(self: "Interpreter", pairs: Any, scope: "Scope", first: Any = True) -> Any:
        """Every sub-pattern matches its value, tried in order (a failing one stops the rest, as CPython's)."""
        parts = [first]
        for p, v in pairs:
            ok = self.match_pattern(p, v, scope)
            if ok is False:
                return False
            parts.append(ok)
        rest = [x for x in parts if x is not True]
        if not rest:
            return True
        if all(isinstance(x, Pred) for x in rest):
            return P.and_(*rest)
        return self.derived("match pattern", *rest)

    def _any_of(self: "Interpreter", parts: list[Any]) -> Any:
        if not parts:
            return False
        if all(isinstance(x, Pred) for x in parts):
            return P.or_(*parts)
        return self.derived("match pattern", *parts)

    def _cond(self: "Interpreter", v: Any) -> Any:
        t = truth(v) if not isinstance(v, Tensor) else None
        return t if isinstance(t, (bool, Pred)) else (v if isinstance(v, Unknown) else self.derived("match value", v))


def _captures(pat: ast.pattern) -> list[str]:
    """The names a pattern binds."""
    out = []
    for n in ast.walk(pat):
        if isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name is not None:
            out.append(n.name)
        elif isinstance(n, ast.MatchMapping) and n.rest is not None:
            out.append(n.rest)
    return out


def _concrete_kind(v: Any) -> bool:
    """A value whose kind is known: it matches a structural pattern only if it is that structure. An
    instance of the program's own classes, none with a base not understood, is neither a sequence nor
    a mapping (CPython asks `collections.abc`, which only such a base could join)."""
    if isinstance(v, Instance):
        return all(not c.native and "__opaque_base__" not in c.ns for c in v.cls.mro())
    if isinstance(v, Unknown):  # a number or a string of a value not known is still no sequence
        return v.pytype in ("int", "float", "bool", "str", "bytes")
    if is_dim(v):  # a size, maybe a symbol (`len(d)` of a dict not fully known): an int
        return True
    return isinstance(v, (str, bytes, int, float, bool, dict, list, tuple, set, frozenset, Tensor)) or v is None
