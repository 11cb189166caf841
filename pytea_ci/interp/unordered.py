"""Sets whose iteration order CPython leaves to the process, and what is made from them (a mixin of the
interpreter; issue 31 item 1/2).

CPython iterates a set in the order of its hash table: `hash(str)`, `hash(bytes)` (and of tuples holding
them) change with PYTHONHASHSEED, `hash(obj)` of an object without `__hash__` with its address. The
analyzer's own sets are Python sets, so iterating them gives the *analyzer's* order, which is not the
order of any run of the program. Numbers hash to themselves (`hash(7) == 7`, floats and complexes by
value, tuples and frozensets of them by their items' hashes), so a set of numbers built by the same
additions iterates in the same order in every run: such a set stays exact. `None` hashes by address
before 3.12, so it does not.

A set that is not of that kind (`order_fixed` false) is iterated in an order not known:
- its items are known, not where each sits. A container made by listing it in order (`list(s)`, a
  comprehension over it, `dict.fromkeys(s)`, `d.keys()` of such a dict) is recorded in `unordered`:
  its items (keys) are exactly known, as a multiset, its order is not. A list of them is also inexact
  with its length known, so everything that reads a position (`xs[0]`, `next(iter(xs))`, `" ".join`,
  `xs == [...]`) is not known, through the machinery of lists holding representatives.
- what does not depend on the order stays exact: `len`, `in`, `sorted` (when no two different items
  tie), `min`/`max` (same), `sum` of integers, `set()`, `any`/`all`, `collections.Counter`.
- `enumerate` of it (and `zip(range(n), it)`) pairs each item with a position of its own: n symbols
  of an input's kind (the order is chosen once per run, by the hash seed), pairwise distinct and in
  [start, start + n), so a dict `{w: i ...}` has known keys whose values are a permutation of the
  positions: `max(d.values())` is n-1 for the solver, and a list of ids read through every key
  attains 0 and n-1 (models/ranges.py reads its bounds as the min and max of the symbols).
- a `for` statement over it runs the items as representatives of iterations in an order not known
  (what the loop carries is widened, as for any loop not followed one by one); a comprehension, which
  only maps items, runs every item and makes an unordered container.
The analyzer's own run of the items is in a canonical order (sorted by kind and text), so what it
computes never depends on its own hash seed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pytea_ci.models.ranges import SEED_ORDER
from pytea_ci.models.values import Instance, IterVal, is_concrete
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import INPUT, Term, symbols

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

MAX_PERMUTED = 40  # items of one set given distinct positions (pairwise distinctness: n * (n - 1) / 2 facts)
_NUMBERS = (int, float, complex)  # (bool is an int; a size symbol hashes by its name in the analyzer only)


def hash_fixed(x: Any) -> bool:
    """Whether CPython's `hash(x)` is the same in every run: numbers, and tuples/frozensets of them."""
    if isinstance(x, _NUMBERS) and not isinstance(x, Term):
        return True
    if type(x) in (tuple, frozenset):
        return all(hash_fixed(e) for e in x)
    return False


def canonical(items: Any) -> list[Any]:
    """`items` in an order that depends on nothing but their values (kind, then text), stable."""
    return sorted(items, key=_canon_key)


def _canon_key(x: Any) -> tuple[str, str]:
    if isinstance(x, Instance):
        return ("~" + x.cls.name, "")  # objects keep their relative order (the sort is stable)
    if type(x) in (tuple, frozenset):
        return (type(x).__name__, repr(tuple(_canon_key(e) for e in (canonical(x) if type(x) is frozenset else x))))
    if isinstance(x, (str, bytes, int, float, complex, type(None))):
        return (type(x).__name__, repr(x))
    return (type(x).__name__, str(getattr(x, "name", "")))  # an enum member by its name; others stay as found


class UnorderedMixin:
    def order_fixed(self: "Interpreter", s: Any) -> bool:
        """Whether CPython iterates the set `s` in the same order in every run (the analyzer's order)."""
        return len(s) <= 1 or id(s) not in self.unordered and all(hash_fixed(x) for x in s)

    def seed_ordered(self: "Interpreter", cond: Any) -> bool:
        """Whether a condition reads a position in an order the hash seed picks: which side a run takes
        depends on it, so the side this path takes is a guess (interp/machine.py): a finding it avoids on
        the other side is a warning, not an error."""
        return any(s.note.startswith(SEED_ORDER) for s in symbols(cond))

    def shuffled(self: "Interpreter", v: Any) -> "list[Any] | None":
        """The items of `v` when they are all known and their order is not (canonical order); else None."""
        if isinstance(v, (set, frozenset)):
            if id(v) in self.inexact or self.order_fixed(v) or not is_concrete(list(v)):
                return None
            return canonical(v)
        if isinstance(v, IterVal):
            return list(v.items) if v.unordered else None
        if isinstance(v, (list, tuple, dict)) and id(v) in self.unordered:
            return list(v)
        return None

    def members(self: "Interpreter", v: Any) -> "list[Any] | None":
        """The items of `v` in whatever order, when all are known (for what does not depend on the order)."""
        found = self.shuffled(v)
        return found if found is not None else self.iterate(v)

    def unordered_list(self: "Interpreter", items: list[Any], kind: type = list) -> Any:
        """A list (tuple) of `items` in an order not known: its length known, its positions not."""
        out = kind(items)
        self.sized_items(out, len(out))
        self.unordered.add(id(out))
        return out

    def mark_unordered(self: "Interpreter", lst: list[Any]) -> None:
        """The list `lst` holds all of its items, in an order not known (`xs.extend(path.glob("*.json"))`)."""
        self.sized_items(lst, len(lst))
        self.unordered.add(id(lst))

    def unordered_set(self: "Interpreter", items: list[Any]) -> set[Any]:
        """A set of `items` added in an order not known: iterated in an order not known whatever they are
        (ints that collide in the table sit in the order they came)."""
        made = set(items)
        if len(made) > 1:
            self.unordered.add(id(made))
            self.keepalive.append(made)
        return made

    def unordered_dict(self: "Interpreter", d: dict[Any, Any]) -> dict[Any, Any]:
        """A dict whose keys are known and whose order is not (made from an unordered iteration)."""
        if len(d) > 1:
            self.unordered.add(id(d))
            self.keepalive.append(d)
        return d

    def positions_of(self: "Interpreter", items: list[Any], start: Any) -> "list[Any] | None":
        """One position for each of `items` (an iteration in an order not known): symbols of an input's
        kind in [start, start + n), pairwise distinct on the path; None past MAX_PERMUTED items or for a
        start not known."""
        n = len(items)
        if n > MAX_PERMUTED or not isinstance(start, int) or isinstance(start, bool):
            return None
        order = f"{SEED_ORDER} (#{self.sym_count + 1})"  # one note per order: its n positions (models/ranges.py)
        pos = [self.fresh("pos", kind=INPUT, lo=start, hi=start + n - 1, note=order) for _ in items]
        for i in range(n):
            for j in range(i + 1, n):
                self.pc.append(P.ne(pos[i], pos[j]))
        return pos

    def enumerated(self: "Interpreter", items: list[Any], start: Any) -> "IterVal | None":
        """`enumerate` of an iteration in an order not known: each item with its own position."""
        pos = self.positions_of(items, start)
        return None if pos is None else IterVal([(i, x) for i, x in zip(pos, items)], unordered=True)
