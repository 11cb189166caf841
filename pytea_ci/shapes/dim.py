"""`Dim` arithmetic: a dimension is a Python int or a symbolic `Term` kept in a small normal form.

Terms are immutable and compared structurally, so equal expressions hash alike (cache keys stay
stable). Sums are kept as linear combinations over atoms (symbols and non-linear sub-terms), so
`n - n` folds to 0 and `(a + b) - b` to `a` without a solver. Nothing here imports z3.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Union

from pytea_ci.diagnostics import Span

# Symbol kinds (DESIGN §3): an input takes one value per run, an iteration all of its values in
# every run, and an unknown stands for something the analyzer did not understand (never reported).
INPUT = "input"
ITERATION = "iteration"
UNKNOWN = "unknown"
# A fact about the machine the program runs on (GPU availability, device count, rank): one value per
# run like an input, but a finding that holds only for some machines is not reported (DESIGN §3).
MACHINE = "machine"
# In the note of an input size the program reads without saying what it is (an environment variable, a
# command-line argument, a config key not read): a size, so plausibly not degenerate (interp/plausible_sizes.py)
ASSUMED_SIZE = "(a positive size by assumption)"


@lru_cache(maxsize=65536)
def stable_hash(text: str) -> int:
    """A hash of `text` that is the same in every process. `hash(str)` changes with PYTHONHASHSEED, and
    with it the order of sets of symbols: the symbol a message names, the order of a solver query's
    terms. Symbols, operations and predicates hash through this (tests/test_hash_seeds.py)."""
    return zlib.crc32(text.encode("utf-8", "surrogatepass"))


class PInt(int):
    """A concrete int that remembers where it was born (a literal, a dataset size, a batch size).

    Arithmetic returns plain ints; the interpreter re-tags results at the expression computing them.
    """

    origin: Span | None
    note: str

    def __new__(cls, value: int, origin: Span | None = None, note: str = "") -> "PInt":
        obj = int.__new__(cls, value)
        obj.origin = origin
        obj.note = note
        return obj

    __repr__ = int.__repr__
    __str__ = int.__repr__


def origin_of(d: object) -> "tuple[Span | None, str]":
    """Where a dim came from, as (span, note); (None, "") when nobody recorded it."""
    if isinstance(d, (PInt, Sym)):
        return d.origin, d.note
    return None, ""


class Term:
    """Base of symbolic integer expressions; supports + - * // % with ints and other terms."""

    __slots__ = ()

    def __add__(self, o: "Dim") -> "Dim":
        return add(self, o)

    def __radd__(self, o: "Dim") -> "Dim":
        return add(o, self)

    def __sub__(self, o: "Dim") -> "Dim":
        return add(self, mul(o, -1))

    def __rsub__(self, o: "Dim") -> "Dim":
        return add(o, mul(self, -1))

    def __mul__(self, o: "Dim") -> "Dim":
        return mul(self, o)

    def __rmul__(self, o: "Dim") -> "Dim":
        return mul(o, self)

    def __floordiv__(self, o: "Dim") -> "Dim":
        return floordiv(self, o)

    def __rfloordiv__(self, o: "Dim") -> "Dim":
        return floordiv(o, self)

    def __mod__(self, o: "Dim") -> "Dim":
        return mod(self, o)

    def __rmod__(self, o: "Dim") -> "Dim":
        return mod(o, self)

    def __neg__(self) -> "Dim":
        return mul(self, -1)


@dataclass(frozen=True, repr=False)
class Sym(Term):
    """A named unknown integer with bounds; `origin` is provenance, not identity."""

    name: str
    kind: str = INPUT
    lo: int | None = 0
    hi: int | None = None
    origin: Span | None = field(default=None, compare=False, hash=False)
    note: str = field(default="", compare=False, hash=False)
    values: tuple[int, ...] = ()  # when not empty, the only values it takes (`random.choice([28, 32])`)

    def __repr__(self) -> str:
        return self.name

    def __hash__(self) -> int:
        return stable_hash(self.name)


def _cached(term: Term, key: str, compute: Callable[[], Any]) -> Any:
    """A term's hash or text, computed once: sub-terms are shared (a network's blocks nest the sizes of
    the one before), and computing them again at every use walked every path through that sharing."""
    memo = term.__dict__
    if key not in memo:
        memo[key] = compute()
    return memo[key]


# A term's printed text is bounded: written out in full, a size whose sub-terms are shared is exponential
# in the depth of the sharing (asteroid's SuDORMRF nests `interpolate` sizes through its U-blocks: texts
# of 10^5 characters and more, 500 s to build for its per-layer table), and no message or table needs
# one. A longer text prints as its start and a digest of the whole; each level is written from its
# sub-terms' bounded texts, so it costs their lengths, not the sharing's paths. The text is also the
# order of a sum's atoms and a product's factors (`_build`): the digest keeps distinct terms apart, and
# a text within the bound is exactly the full text, so short sizes print and sort as they always did.
TEXT_LIMIT = 400  # characters
_HEAD = 120  # characters of a longer text kept before its digest


def _bounded(text: str) -> str:
    if len(text) <= TEXT_LIMIT:
        return text
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
    return f"{text[:_HEAD]}...<size #{digest}>"


@dataclass(frozen=True, repr=False)
class Op(Term):
    """A non-linear operation: 'mul' (atoms), 'floordiv', 'mod', 'min', 'max'."""

    op: str
    args: tuple["Dim", ...]

    def __hash__(self) -> int:
        return _cached(self, "_hash", lambda: hash((stable_hash(self.op), self.args)))

    def __repr__(self) -> str:
        return _cached(self, "_repr", lambda: _bounded(self._text()))

    def _text(self) -> str:
        sym = {"mul": "*", "floordiv": "//", "mod": "%"}.get(self.op)
        if sym:
            parts = [f"({a!r})" if isinstance(a, Lin) else repr(a) for a in self.args]
            return "(" + f" {sym} ".join(parts) + ")"
        return f"{self.op}(" + ", ".join(map(repr, self.args)) + ")"


@dataclass(frozen=True, repr=False)
class Lin(Term):
    """const + sum(coeff * atom), atoms sorted by their text; at least one atom."""

    const: int
    terms: tuple[tuple[Term, int], ...]

    def __hash__(self) -> int:
        return _cached(self, "_hash", lambda: hash((self.const, self.terms)))

    def __repr__(self) -> str:
        return _cached(self, "_repr", lambda: _bounded(self._text()))

    def _text(self) -> str:
        parts: list[str] = []
        for atom, c in self.terms:
            text = repr(atom) if abs(c) == 1 else f"{abs(c)}*{atom!r}"
            parts.append(("- " if c < 0 else "+ ") + text)
        if self.const:
            parts.append(("- " if self.const < 0 else "+ ") + str(abs(self.const)))
        s = " ".join(parts)
        return s[2:] if s.startswith("+ ") else "-" + s[2:]


Dim = Union[int, Term]


def is_dim(v: object) -> bool:
    return (isinstance(v, int) and not isinstance(v, bool)) or isinstance(v, Term)


def _linear(d: Dim) -> tuple[int, dict[Term, int]]:
    if isinstance(d, int):
        return d, {}
    if isinstance(d, Lin):
        return d.const, dict(d.terms)
    return 0, {d: 1}


# Symbolic arithmetic done so far (atoms combined into sums and products), for the interpreter's step
# budget: a step that builds a sum of 300 atoms costs far more than one that adds two ints, and budgets
# must follow the work, deterministically (interp/interpreter.py `tick` charges it).
WORK = [0]


def _build(const: int, terms: dict[Term, int]) -> Dim:
    WORK[0] += len(terms)
    items = tuple(sorted(((a, c) for a, c in terms.items() if c), key=lambda t: repr(t[0])))
    if not items:
        return const
    if const == 0 and len(items) == 1 and items[0][1] == 1:
        return items[0][0]
    return Lin(const, items)


def add(a: Dim, b: Dim) -> Dim:
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    ca, ta = _linear(a)
    cb, tb = _linear(b)
    for atom, c in tb.items():
        ta[atom] = ta.get(atom, 0) + c
    return _build(ca + cb, ta)


def mul(a: Dim, b: Dim) -> Dim:
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if isinstance(b, int):
        a, b = b, a
    if isinstance(a, int):
        const, terms = _linear(b)
        return _build(const * a, {t: c * a for t, c in terms.items()})
    (ka, a), (kb, b) = _coefficient(a), _coefficient(b)
    if ka * kb != 1:
        return mul(ka * kb, mul(a, b))  # (24*s) * s == 24 * (s*s): constants stay outside products
    factors: list[Dim] = []
    for x in (a, b):
        factors.extend(x.args if isinstance(x, Op) and x.op == "mul" else (x,))
    WORK[0] += len(factors)
    return Op("mul", tuple(sorted(factors, key=repr)))


def _coefficient(d: Dim) -> tuple[int, Dim]:
    """c*atom as (c, atom); any other term as (1, itself)."""
    if isinstance(d, Lin) and d.const == 0 and len(d.terms) == 1:
        return d.terms[0][1], d.terms[0][0]
    return 1, d


def floordiv(a: Dim, b: Dim) -> Dim:
    if isinstance(a, int) and isinstance(b, int):
        return a // b if b else 0
    if b == 1 or a == 0:
        return a  # 0 // b == 0 (a zero b raised ZeroDivisionError in the program), as for ints
    if isinstance(b, int) and b > 0:
        const, terms = _linear(a)
        if all(c % b == 0 for c in terms.values()) and terms:
            # (b*x + c) // b == x + c // b for integer x
            return _build(const // b, {t: c // b for t, c in terms.items()})
    if a == b:
        return 1
    if isinstance(b, Term) and _linear(a)[0] == 0 and list(_linear(a)[1]) == [b]:
        return _linear(a)[1][b]  # (c*b) // b == c: a zero b raised ZeroDivisionError in the program
    return Op("floordiv", (a, b))


def mod(a: Dim, b: Dim) -> Dim:
    if isinstance(a, int) and isinstance(b, int):
        return a % b if b else 0
    if b == 1 or a == b or a == 0:
        return 0
    if isinstance(b, int) and b > 0:
        const, terms = _linear(a)
        if all(c % b == 0 for c in terms.values()):
            return const % b  # (b*x + c) % b == c % b
    if _divides(b, a):
        return 0  # (48*n*c*l) % (n*c): the numel of a view that folds leading dims (a zero b: a is 0 too)
    return Op("mod", (a, b))


def _factors(d: Dim) -> tuple[int, list[Dim]] | None:
    """A monomial c * x * y * ... as (c, [x, y, ...]); None for anything else (a sum, a quotient)."""
    k, atom = _coefficient(d)
    if isinstance(atom, Op) and atom.op == "mul" and not any(isinstance(x, int) for x in atom.args):
        return k, list(atom.args)
    if isinstance(atom, Lin) or isinstance(atom, int):
        return None
    return k, [atom]


def _divides(b: Dim, a: Dim) -> bool:
    """Whether the monomial `b` divides the monomial `a` for every value of their symbols."""
    fa, fb = _factors(a), _factors(b)
    if fa is None or fb is None or fb[0] == 0 or fa[0] % fb[0]:
        return False
    rest = list(fa[1])
    for x in fb[1]:
        if x not in rest:
            return False
        rest.remove(x)
    return True


def dmin(a: Dim, b: Dim) -> Dim:
    if isinstance(a, int) and isinstance(b, int):
        return min(a, b)
    return a if a == b else Op("min", tuple(sorted((a, b), key=repr)))


def dmax(a: Dim, b: Dim) -> Dim:
    if isinstance(a, int) and isinstance(b, int):
        return max(a, b)
    return a if a == b else Op("max", tuple(sorted((a, b), key=repr)))


def ceildiv(a: Dim, b: Dim) -> Dim:
    return -floordiv(-a, b) if isinstance(a, int) and isinstance(b, int) else floordiv(add(a, add(b, -1)), b)


def prod(dims: "tuple[Dim, ...] | list[Dim]") -> Dim:
    out: Dim = 1
    for d in dims:
        out = mul(out, d)
    return out


def symbols(d: object) -> set[Sym]:
    """All symbols occurring in a dim or predicate."""
    out: set[Sym] = set()
    stack = [d]
    seen: set[int] = set()  # shared sub-terms walked once
    while stack:
        x = stack.pop()
        if isinstance(x, (Lin, Op)):
            if id(x) in seen:
                continue
            seen.add(id(x))
        if isinstance(x, Sym):
            out.add(x)
        elif isinstance(x, Lin):
            stack.extend(a for a, _ in x.terms)
        elif isinstance(x, Op):
            stack.extend(x.args)
        elif isinstance(getattr(x, "args", None), tuple):
            stack.extend(x.args)  # type: ignore[attr-defined]
    return out


def lower_bound(d: Dim) -> int | None:
    """A lower bound of `d` from its symbols' own lower bounds (a constant plus non-negative multiples of
    symbols with one), or None: what a check can settle without the solver (`0 <= len - 1` for a length >= 1)."""
    const, terms = _linear(d)
    low = const
    for t, c in terms.items():
        if c < 0 or not isinstance(t, Sym) or t.lo is None:
            return None
        low += c * t.lo
    return low


def is_input_size(d: object) -> bool:
    """Whether `d` is a symbolic size made of input symbols only (data read at run time, the command
    line, ...): one value per run."""
    syms = symbols(d) if is_dim(d) else set()
    return bool(syms) and all(s.kind == INPUT for s in syms)


def symbol_names(d: object) -> frozenset[str]:
    """The names of the symbols in a dim or predicate, kept on the term or predicate once computed: the
    solver asks for those of every path-condition conjunct at every check (`solver/decide.py`
    `_relevant`), and walking each conjunct's shared sub-terms again every time was three quarters of
    asteroid's SuDORMRF (457,000 walks for 4,000 checks)."""
    if isinstance(d, Sym):
        return frozenset((d.name,))
    memo = getattr(d, "__dict__", None)
    if memo is None:
        return frozenset(s.name for s in symbols(d))
    if "_names" not in memo:
        memo["_names"] = frozenset(s.name for s in symbols(d))
    return memo["_names"]  # type: ignore[no-any-return]

