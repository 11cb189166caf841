"""Predicates over dims: comparisons and boolean connectives, folded to `bool` whenever concrete."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from pytea_ci.shapes.dim import UNKNOWN, Dim, Lin, Op, Sym, Term, add, mul, stable_hash, symbols


@dataclass(frozen=True, repr=False)
class Pred:
    """op in eq ne lt le (over dims) and, or, not (over preds)."""

    op: str
    args: tuple[Union[Dim, "Pred"], ...]

    def __hash__(self) -> int:
        return hash((stable_hash(self.op), self.args))

    def __repr__(self) -> str:
        sym = {"eq": "==", "ne": "!=", "lt": "<", "le": "<="}.get(self.op)
        if sym:
            return f"{self.args[0]!r} {sym} {self.args[1]!r}"
        if self.op == "not":
            return f"not ({self.args[0]!r})"
        return f" {self.op} ".join(f"({a!r})" for a in self.args)


Cond = Union[bool, Pred]


def _cmp(op: str, a: Dim, b: Dim) -> Cond:
    diff = add(a, mul(b, -1))
    if isinstance(diff, int):
        return {"eq": diff == 0, "ne": diff != 0, "lt": diff < 0, "le": diff <= 0}[op]
    return Pred(op, (a, b))


def eq(a: Dim, b: Dim) -> Cond:
    return True if a == b else _cmp("eq", a, b)


def ne(a: Dim, b: Dim) -> Cond:
    return False if a == b else _cmp("ne", a, b)


def lt(a: Dim, b: Dim) -> Cond:
    return _cmp("lt", a, b)


def le(a: Dim, b: Dim) -> Cond:
    return True if a == b else _cmp("le", a, b)


def gt(a: Dim, b: Dim) -> Cond:
    return _cmp("lt", b, a)


def ge(a: Dim, b: Dim) -> Cond:
    return le(b, a)


def not_(p: Cond) -> Cond:
    if isinstance(p, bool):
        return not p
    inverse = {"eq": "ne", "ne": "eq"}
    if p.op in inverse:
        return Pred(inverse[p.op], p.args)
    if p.op == "not":
        return p.args[0]  # type: ignore[return-value]
    return Pred("not", (p,))


def and_(*ps: Cond) -> Cond:
    rest: list[Pred] = []
    for p in ps:
        if p is False:
            return False
        if isinstance(p, Pred) and p not in rest:
            rest.append(p)
    if not rest:
        return True
    return rest[0] if len(rest) == 1 else Pred("and", tuple(rest))


def or_(*ps: Cond) -> Cond:
    rest: list[Pred] = []
    for p in ps:
        if p is True:
            return True
        if isinstance(p, Pred) and p not in rest:
            rest.append(p)
    if not rest:
        return False
    return rest[0] if len(rest) == 1 else Pred("or", tuple(rest))


def divides(k: Dim, n: Dim) -> Cond:
    """k divides n (k > 0 is the caller's business)."""
    from pytea_ci.shapes.dim import mod

    return eq(mod(n, k), 0)


def dims_of(p: Cond) -> list[Term]:
    """Symbolic sub-terms of a predicate (for provenance and the unknown test)."""
    if isinstance(p, bool):
        return []
    out: list[Term] = []
    for a in p.args:
        if isinstance(a, Pred):
            out.extend(dims_of(a))
        elif isinstance(a, Term):
            out.append(a)
    return out


def understood(c: object) -> bool:
    """Whether every leaf of a predicate or dim is a size the solver reads (an int, a symbol). A model may
    build a size check over a value it does not understand (`nn.LayerNorm(shape)` with `shape` an Unknown
    becomes an atom of a sum): such a check is not understood, like one over a size of unknown kind, never
    a solver error. Kept on the predicate or term once computed (as `dim.symbol_names`)."""
    memo = getattr(c, "__dict__", None)
    if memo is not None and "_understood" in memo:
        return memo["_understood"]  # type: ignore[no-any-return]
    out = foreign_leaf(c) is None
    if memo is not None:
        memo["_understood"] = out
    return out


def foreign_leaf(c: object) -> object | None:
    """The first leaf of a predicate or dim that is no size the solver reads (None: there is none)."""
    stack = [c]
    seen: set[int] = set()  # shared sub-terms walked once
    while stack:
        x = stack.pop()
        if isinstance(x, (int, Sym)) or id(x) in seen:  # bool is an int
            continue
        seen.add(id(x))
        if isinstance(x, Lin):
            stack.extend(a for a, _ in reversed(x.terms))
        elif isinstance(x, (Op, Pred)):
            stack.extend(reversed(x.args))
        else:
            return x
    return None


def opaque(c: object) -> bool:
    """A condition nothing can be learnt from: a value not understood in it, or a size of unknown kind."""
    return not understood(c) or any(s.kind == UNKNOWN for s in symbols(c))
