"""Verdicts over symbols in words (DESIGN §3): the condition under which a check fails, with the
solver's example ("fails when size != 32; e.g. size = 50"), and, for a check failing for every
value, which run-time values it fails for ("for every value of size, drawn by random.randint(16, 64)
at main.py:6")."""

from __future__ import annotations

from pytea_ci.shapes.dim import INPUT, Sym, symbols
from pytea_ci.shapes.pred import Cond, Pred, and_, not_, or_

_MAX_CONDITION = 120  # a longer condition is left to the example alone


def fails_when(cond: Cond, example: dict[str, int]) -> str:
    """"fails when <not cond>; e.g. <example>" (either part may be missing)."""
    text = repr(_negate(cond)) if isinstance(cond, Pred) else ""
    ex = ", ".join(f"{k} = {v}" for k, v in sorted(example.items()))
    if text and len(text) <= _MAX_CONDITION:
        return f"fails when {text}" + (f"; e.g. {ex}" if ex else "")
    return f"fails when {ex}" if ex else ""


def _negate(p: Pred) -> Cond:
    """not p with the negation pushed inside and/or (De Morgan), so it reads as a condition."""
    if p.op in ("and", "or"):
        parts = [_negate(a) if isinstance(a, Pred) else not_(a) for a in p.args]  # type: ignore[arg-type]
        return or_(*parts) if p.op == "and" else and_(*parts)
    if p.op == "not" and isinstance(p.args[0], Pred):
        return p.args[0]
    if p.op in ("lt", "le"):  # not (a <= b) reads better as b < a
        return Pred("le" if p.op == "lt" else "lt", (p.args[1], p.args[0]))
    return not_(p)


def for_every(cond: Cond, pc: "list[Cond] | tuple[Cond, ...]" = ()) -> str:
    """"for every value of size (a value drawn by random.randint(16, 64) at main.py:6)" when the
    check is about input symbols, with the path's conditions on them ("where n % 32 != 0", e.g. on
    the path of a DataLoader's short last batch); "" when it is about concrete sizes only."""
    inputs = sorted((s for s in symbols(cond) if isinstance(s, Sym) and s.kind == INPUT), key=lambda s: s.name)
    if not inputs:
        return ""
    parts = []
    for s in inputs:
        where = f" at {s.origin.path}:{s.origin.line}" if s.origin is not None else ""
        parts.append(f"{s.name} ({s.note}{where})" if s.note else s.name)
    names = {s.name for s in inputs}
    conditions = [repr(p) for p in pc if isinstance(p, Pred) and names & {s.name for s in symbols(p)}]
    text = " and ".join(conditions)
    return "for every value of " + ", ".join(parts) + (f" where {text}" if text and len(text) <= _MAX_CONDITION else "")
