"""Iteration over abstract values and what the interpreter knows of list lengths (a mixin of the
interpreter): the items a loop runs over, ranges, exact and inexact lengths, representatives, and what
comparisons with a container holding only some of its items can say, and membership (`in`)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.join import one_of
from pytea_ci.interp.ops import compare_dims, is_concrete, truth
from pytea_ci.models import registry
from pytea_ci.models.random_ import _READ
from pytea_ci.models.values import MISSING, ClassVal, Instance, IterVal, RangeVal, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.pred import Pred, opaque
from pytea_ci.shapes.dim import ITERATION, Dim, PInt, Sym, Term, add as dim_add, dmax, dmin, is_dim
from pytea_ci.shapes.tensor import Tensor


if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter


NEXT_FOLLOWED = 2  # items of a program's iterator class followed before the rest are represented by them


class SequenceMixin:
    def loop_items(self: "Interpreter", v: Any) -> tuple[list[Any], bool]:
        """The values a `for` loop body runs with, and whether iterations were left out. A value
        iterated an unknown number of times is never iterated zero times for certain: with no
        representative item, the body runs once with an item not known (DESIGN §3)."""
        items, truncated = self.iteration_of(v)
        if truncated and not items:
            items = [self.derived("an item of an iteration not followed", v)]
            if isinstance(v, Unknown) and v.item_type:
                items[0].pytype = v.item_type  # a line of a text's `splitlines()`: a text
        return items, truncated

    def iteration_of(self: "Interpreter", v: Any) -> tuple[list[Any], bool]:
        if id(v) in self.cursors:
            return self.rest_of(v)
        if isinstance(v, IterVal):
            return v.items, v.truncated
        if isinstance(v, RangeVal):
            return self.range_items(v)
        if isinstance(v, (list, tuple)):
            inexact = id(v) in self.inexact
            return list(v), inexact
        if isinstance(v, (str, bytes)):
            return list(v), False  # characters; the ints of a bytes value (`list(s.encode())`)
        if isinstance(v, (set, frozenset, dict)) and (shuffled := self.shuffled(v)) is not None:
            return shuffled, True  # every item, in an order not known: representatives of the iterations
        if isinstance(v, (set, frozenset)):
            return list(v), id(v) in self.inexact
        if isinstance(v, dict):
            return list(v.keys()), id(v) in self.inexact
        if isinstance(v, Instance):
            it = v.cls.lookup("__iter__")
            if it is not MISSING:
                got = self.call(self.bind_member(v, v.cls, it))
                if isinstance(got, Instance) and not got.cls.native and got.cls.lookup("__next__") is not MISSING:
                    return self.next_items(got)  # an iterator of the program (`__iter__` returning self)
                if got is v:  # CPython: "iter() returned non-iterator"; nothing known of its items
                    return [], True
                return self.iteration_of(got)
            if _by_index(v.cls):
                return self.index_items(v, ("IndexError", "StopIteration"))
            return [], True  # iteration over an object without `__iter__`: its items are not known
        if isinstance(v, Tensor):
            return self.iteration_of(self.call_tensor_op(v, "__iter__", ()))
        if isinstance(v, ClassVal) and isinstance(members := v.lookup("__member_list__"), list):
            return list(members), False  # the members an Enum class iterates (no alias twice)
        return [], True  # an iteration not followed: not one item known (a loop runs a placeholder)

    def rest_of(self: "Interpreter", v: Any) -> tuple[list[Any], bool]:
        """What an iterator `next()` took items from has left (the analyzer's iterators are lists)."""
        taken = self.cursors[id(v)]
        items = list(v.items) if isinstance(v, IterVal) else list(v)
        if taken < 0:
            return [], True
        return items[taken:], False

    def next_item(self: "Interpreter", it: Any) -> "tuple[bool, Any]":
        """`next(it)` of an iterator whose items are all known: (True, the item) or (True, MISSING) when
        it has none left, as CPython's position in it says; (False, None) where the position is not
        followed (an iterator of representative items, or taken from inside a loop run with
        representatives of its iterations)."""
        exact = isinstance(it, (list, tuple)) and id(it) not in self.inexact or \
            isinstance(it, IterVal) and not it.truncated
        if not exact or self.cursors.get(id(it), 0) < 0:
            return False, None
        if self.rep_depth:  # one iteration stands for many: which item this is, is not known
            if id(it) in self.cursors:
                self.cursors[id(it)] = -1
                return True, self.derived("next of an iterator inside a loop not followed one by one", it)
            return False, None
        items, _ = self.rest_of(it) if id(it) in self.cursors else self.iteration_of(it)
        self.cursors[id(it)] = self.cursors.get(id(it), 0) + 1
        self.keepalive.append(it)
        return True, items[0] if items else MISSING

    def index_items(self: "Interpreter", v: Instance, stop: tuple[str, ...] = ("IndexError",)) -> tuple[list[Any], bool]:
        """`v[0]`, `v[1]`, ... until `__getitem__` raises one of `stop`: CPython's iteration of an object
        whose class has `__getitem__` and no `__iter__` (IndexError or StopIteration ends it), and
        `collections.abc.Sequence.__iter__` (IndexError). Followed up to the loop unroll bound; past
        it the items are the first ones and the rest are left out."""
        getitem = self.getattr(v, "__getitem__")
        budget = self.config.budget
        items: list[Any] = []
        for i in range(budget.build_unroll if self.shared.coverage.building else budget.unroll):
            found, item = self.attempt(stop, getitem, PInt(i, self.span, "index"))
            if not found:
                return items, False
            items.append(item)
        return items, True

    def next_items(self: "Interpreter", it: Instance) -> tuple[list[Any], bool]:
        """`next(it)` until `__next__` raises StopIteration: CPython's iteration of an iterator class of
        the program (a batch iterator over a dataset list, its `__iter__` returning self). The first
        `NEXT_FOLLOWED` items are followed (each call may fork where the iterator may stop there: a
        length not known); past them the items are representatives of the rest."""
        step = self.getattr(it, "__next__")
        items: list[Any] = []
        for _ in range(NEXT_FOLLOWED):
            found, item = self.attempt("StopIteration", step)
            if not found:
                return items, False
            items.append(item)
        return items, True

    def range_items(self: "Interpreter", r: RangeVal) -> tuple[list[Any], bool]:
        if all(isinstance(x, int) for x in (r.start, r.stop, r.step)):
            rng = range(int(r.start), int(r.stop), int(r.step))
            n = len(rng)
            # a loop of a module's constructor builds layers (no tensor is computed): followed further, as the
            # sizes it accumulates (`in_planes += growth_rate` per block) size the layers after it
            budget = self.config.budget
            if n <= (budget.build_unroll if self.shared.coverage.building else budget.unroll):
                return [PInt(i, self.span, "loop index") for i in rng], False
            return [PInt(rng[0], self.span, "loop index"), PInt(rng[1], self.span, "loop index"),
                    PInt(rng[-1], self.span, "loop index")], True
        entry = _lt(r.start, r.stop)
        if isinstance(entry, Pred) and opaque(entry) and not self.decide(entry):
            # a length not understood (`range(len(obj.__subclasses__()) - 3)`): whether the loop runs at all
            # is a choice of its own, not assumed by its representative below (which puts start < stop on the path)
            return [], False
        i = self.fresh("i", kind=ITERATION, lo=None, note="loop index")
        self.pc.append(_le(r.start, i))
        self.pc.append(_lt(i, r.stop))
        return [i], True

    def iterate(self: "Interpreter", v: Any) -> "list[Any] | None":
        if isinstance(v, (list, tuple, dict, set, frozenset)) and id(v) in self.inexact:
            return None
        items, truncated = self.loop_items(v)
        return None if truncated else items

    def truth_of(self: "Interpreter", v: Any) -> Any:
        """`bool(v)`: of a container holding only some of its items (representatives), whether its
        length, not known, is positive — never true just because a representative is there."""
        if isinstance(v, (list, tuple, dict, set, frozenset)) and id(v) in self.inexact:
            if not isinstance(v, (list, tuple)):
                return Unknown("truth value")
            n = self.length_of(v)
            return n > 0 if isinstance(n, int) else P.gt(n, 0)
        if isinstance(v, Instance):  # an object is true unless its `__bool__` (else `__len__`) says otherwise
            for dunder in ("__bool__", "__len__"):
                if (method := v.cls.lookup(dunder)) is not MISSING:
                    r = self.call(self.bind_member(v, v.cls, method))
                    if dunder == "__len__" and is_dim(r):
                        return r > 0 if isinstance(r, int) else P.gt(r, 0)
                    return truth(r)
        return truth(v)

    def known_length(self: "Interpreter", v: Any) -> "Dim | None":
        """The number of items of a list, tuple or concrete range, also of a list holding only
        representatives of its items (a comprehension over a long range); None when not known."""
        if isinstance(v, RangeVal) and all(isinstance(x, int) for x in (v.start, v.stop, v.step)) and v.step:
            return len(range(int(v.start), int(v.stop), int(v.step)))
        if isinstance(v, RangeVal) and v.step == 1 and is_dim(v.start) and is_dim(v.stop):
            n = v.stop - v.start  # a symbolic stop (`range(random.randint(3, 5))`): stop - start items, at least 0
            low = v.stop.lo if isinstance(v.stop, Sym) and isinstance(v.start, int) else None
            return n if low is not None and low >= v.start else dmax(n, 0)
        if isinstance(v, (list, tuple)):
            if id(v) not in self.inexact:
                return len(v)
            known = self.known_len.get(id(v))
            return known if known is not None else self.linked_length(v)
        if isinstance(v, (set, frozenset, dict)) and (shuffled := self.shuffled(v)) is not None:
            return len(shuffled)  # every item, in an order not known (a loop over it runs each once)
        return None

    def source_count(self: "Interpreter", source: Any) -> "Dim | None":
        """How many items iterating `source` yields, when known: a list's or range's length, and the number
        of entries of data read at run time (an input symbol, as `len()` of it)."""
        n = self.known_length(source)
        if n is None and isinstance(source, Unknown) and source.origin is not None \
                and source.origin.what.startswith(_READ):
            return self.call(registry.get("builtins.len"), source)  # as `len()` of it: an input symbol
        if n is None and isinstance(source, Unknown) and id(source) in self.unknown_len:
            return self.unknown_len[id(source)][1]  # its length was taken before: the same items
        return n

    def unknown_length(self: "Interpreter", v: Unknown, lo: int = 0, kind: str | None = None,
                       note: str = "items of a value not understood") -> Dim:
        """The number of items of `v`, a value not understood: one symbol (at least `lo`; of `kind`, an input
        for data read at run time) for every `len()` of it and every comprehension over it, until something may
        change it (a method of it is read, it is handed to code not followed): CPython's `len(rets)` twice is
        one number."""
        if id(v) not in self.unknown_len:
            made = self.fresh("len", lo=lo, note=note) if kind is None else self.fresh("len", kind=kind, lo=lo, note=note)
            self.unknown_len[id(v)] = (v, made)
        return self.unknown_len[id(v)][1]

    def length_of(self: "Interpreter", lst: "list[Any] | tuple[Any, ...]") -> Dim:
        """The length of a list or tuple; of one built over iterations left out, a symbol (at least
        its representatives), the same one until the list changes."""
        n = self.known_length(lst)
        if n is None:
            n = self.fresh("len", lo=len(lst), note="items of a list built in a loop not followed to its end")
            self.known_len[id(lst)] = n
        return n

    def mark_inexact(self: "Interpreter", lst: Any) -> None:
        """A list, tuple, dict or set that holds only some of its items (built over iterations
        left out): its length is not known, and a missing key or index is not an error."""
        self.known_len.pop(id(lst), None)
        self.rep_positions.pop(id(lst), None)
        self.rep_items.pop(id(lst), None)
        self.inexact.add(id(lst))
        self.keepalive.append(lst)

    def same_exactness(self: "Interpreter", source: Any, made: Any) -> Any:
        """`made` (built from `source`), marked inexact when `source` is."""
        if id(source) in self.inexact:
            self.mark_inexact(made)
        return made

    def same_items(self: "Interpreter", source: Any, made: Any) -> Any:
        """`made`, a copy of the items of `source`: inexact, with the same known length, when `source` is."""
        if id(source) in self.inexact:
            n, at = self.known_len.get(id(source)), self.rep_positions.get(id(source))
            self.mark_inexact(made)
            if n is not None:
                self.known_len[id(made)] = n
            if at is not None:
                self.rep_positions[id(made)] = at
        return made

    def concatenated(self: "Interpreter", parts: "tuple[Any, ...]", made: Any,
                     lengths: "list[Dim | None] | None" = None) -> Any:
        """`made`, the items of `parts` one after another (`a + b`, `a.extend(b)`): inexact when a part is,
        then of the sum of their lengths (`lengths`, or each part's now) where each is known
        (`tokens + [PAD] * (n - len(tokens))`)."""
        if not any(id(p) in self.inexact for p in parts):
            return made
        lengths = [self.known_length(p) for p in parts] if lengths is None else lengths
        self.mark_inexact(made)
        known = [n for n in lengths if n is not None]
        if len(known) == len(lengths):
            total: Dim = 0
            for n in known:
                total = dim_add(total, n)
            self.known_len[id(made)] = total
        return made

    def sliced(self: "Interpreter", seq: "list[Any] | tuple[Any, ...]", idx: slice) -> Any:
        """`seq[a:b]` with a bound not known (a batch `data[i * bs:(i + 1) * bs]`): as CPython, the items from
        `min(a, n)` to `min(b, n)` of the `n`, here the join of `seq`'s items as their representative, with that
        length. None for a step other than 1 or a bound that is no size this path knows to be at least 0 (a
        negative one counts from the end)."""
        if idx.step not in (None, 1):
            return None
        start = 0 if idx.start is None else idx.start
        n = self.length_of(seq)
        stop = n if idx.stop is None else idx.stop
        if not all(b is n or is_dim(b) and not isinstance(b, bool) and self.holds(P.ge(b, 0)) for b in (start, stop)):
            return None
        if not seq:
            return type(seq)()
        made = type(seq)([one_of(self, list(seq), "item of a slice with a bound not known")])
        end = dmin(stop, n)  # from the start, as many as that: `data[:max_len]`
        return self.sized_items(made, end if isinstance(start, int) and start == 0 else dmax(end - dmin(start, n), 0))

    def sized_items(self: "Interpreter", made: Any, n: Dim) -> Any:
        """`made`, representatives of a list of `n` items: inexact, with known length `n`."""
        self.mark_inexact(made)
        self.known_len[id(made)] = n
        return made

    def item_positions(self: "Interpreter", source: Any, count: int) -> "tuple[int, ...] | None":
        """Where the `count` representative items a loop over `source` runs with sit among all of its
        items (a long concrete range: its first, second and last), when known."""
        if isinstance(source, RangeVal) and all(isinstance(x, int) for x in (source.start, source.stop, source.step)):
            n = len(range(int(source.start), int(source.stop), int(source.step)))
            return (0, 1, n - 1) if count == 3 and n > 3 else None
        if isinstance(source, (list, tuple)):
            at = self.rep_positions.get(id(source)) if id(source) in self.inexact else tuple(range(len(source)))
            return at if at is not None and len(at) == count else None
        if isinstance(source, IterVal) and source.indices is not None and all(isinstance(i, int) for i in source.indices):
            return tuple(source.indices) if len(source.indices) == count else None
        return None

    def positions(self: "Interpreter", lst: Any) -> "tuple[int, ...] | None":
        """Positions of the items of an inexact list among all of its items, when known."""
        return self.rep_positions.get(id(lst))

    def note_mutation(self: "Interpreter", lst: Any, free: bool = False, grew: bool = False) -> None:
        """A list, dict or set changed after it was built: its known length is gone, and a loop whose
        iterations are not all followed leaves it holding only some of its items. `free`: a change whose
        result does not depend on the order of a loop's iterations (a new key stored, an item appended or
        added: loops.run_loop `every`)."""
        self.known_len.pop(id(lst), None)
        self.rep_positions.pop(id(lst), None)
        self.rep_items.pop(id(lst), None)
        if not (grew and isinstance(lst, list) and self.grew_by_one(lst)):
            self.unlink(lst)  # no index map, no length beside one (index_maps.py)
        if self.loop_mutations and isinstance(lst, (list, dict, set)):
            self.loop_mutations[-1].add(id(lst))
            self.keepalive.append(lst)
            if self.order_free:
                self.order_free[-1][id(lst)] = self.order_free[-1].get(id(lst), True) and free

    def partial(self: "Interpreter", v: Any) -> bool:
        """A container holding only some of its items (`list(x)` of a value not understood, a loop's
        representatives), or a tuple or list with one inside: its comparisons are not CPython's."""
        if not isinstance(v, (list, tuple, dict, set)):
            return False
        return id(v) in self.inexact or (isinstance(v, (list, tuple)) and any(self.partial(e) for e in v))

    def compare_partial(self: "Interpreter", name: str, a: Any, b: Any) -> Any:
        """A comparison with a container holding only some of its items: `==`/`!=` decided only when
        both are sequences whose lengths are known to differ, else not known."""
        if name in ("eq", "ne") and isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and type(a) is type(b):
            la, lb = self.known_length(a), self.known_length(b)
            if la is not None and lb is not None:
                differ = compare_dims("ne", la, lb)
                if differ is True:
                    return name == "ne"
        return self.derived("comparison with a container holding only some of its items", a, b)

    def membership(self: "Interpreter", a: Any, b: Any) -> Any:
        """`a in b` as CPython computes it: a container's own test, an instance's `__contains__`, else its
        items (`__iter__`, or `__getitem__` by index), an Enum class's members; unknown when undecided."""
        # holding only some of its items: not found is not known (all of them, in an order not known: it is)
        partial = id(b) in self.inexact and id(b) not in self.unordered
        if isinstance(b, (list, tuple, set, dict, str)) and is_concrete(a) and (isinstance(b, dict) or is_concrete(b)):
            try:
                r = a in b
            except TypeError:
                return self.unknown("membership")
            if not r and partial:
                return self.unknown("membership in a container holding only some of its items")
            if not r and isinstance(b, dict) and not all(is_concrete(k) for k in b):
                # a key not understood (`d[path.stem] = cfg` of a path not known) may be the one asked
                found = self.member_of(a, list(b))
                return found if found is not None else self.unknown("membership among keys not known")
            return r
        if _holds_nothing(self, a, b):
            return False
        if isinstance(b, Instance) and (contains := b.cls.lookup("__contains__")) is not MISSING:
            r = self.call(self.bind_member(b, b.cls, contains), a)
            return r
        if isinstance(b, Instance) and iterates(b.cls):  # no `__contains__`: CPython looks through its items
            items, truncated = self.iteration_of(b)
            b = list(items)
            if truncated:
                self.mark_inexact(b)  # some items left out: not found among these is not known
        found = self.member_of(a, b)
        if found is None and isinstance(b, ClassVal) and isinstance(members := b.lookup("__members__"), dict):
            found = any(a is m for m in members.values()) or None  # a member `in` its Enum class
        if found is not None:
            return found
        return self.unknown("membership")

    def member_of(self: "Interpreter", a: Any, b: Any) -> bool | None:
        """`a in b` for a list, tuple or set `b`, element by element as CPython does (`a is e or a == e`):
        an enum member among members is decided as `==` on them is; None when some element is undecided."""
        if not isinstance(b, (list, tuple, set, frozenset)) or isinstance(a, Tensor):
            return None
        undecided = False
        for e in b:
            if e is a:
                return True
            t = self.truth_of(self.compare(ast.Eq(), a, e)) if not isinstance(e, Tensor) else None
            if t is True:
                return True
            undecided = undecided or t is not False
        return None if undecided or id(b) in self.inexact and id(b) not in self.unordered else False


def _le(a: Any, b: Any) -> Any:
    from pytea_ci.shapes.pred import le

    return le(a, b)


def _lt(a: Any, b: Any) -> Any:
    from pytea_ci.shapes.pred import lt

    return lt(a, b)


def iterates(cls: ClassVal) -> bool:
    """Whether instances of `cls` are iterable by what the analyzer follows: `__iter__` or `__getitem__`."""
    return cls.lookup("__iter__") is not MISSING or _by_index(cls)


def _by_index(cls: ClassVal) -> bool:
    """Whether instances of `cls` iterate by `__getitem__`: it is defined and not `__iter__`, and every
    class of its order is the program's own (a base not followed or a modeled class may iterate)."""
    return cls.lookup("__getitem__") is not MISSING and all(
        not c.native and "__opaque_base__" not in c.ns for c in cls.mro())



def _holds_nothing(interp: "Interpreter", a: Any, b: Any) -> bool:
    """`a in b` is False whatever `a` is when `b` is an empty container known exactly (not one holding only
    some of its items): a vocabulary `{}` before its first word, `seen = []`. A dict or set hashes `a` first:
    decided for a size and for a value not understood (a word read at run time), not for an object of the
    program, whose `__hash__` may raise."""
    if not isinstance(b, (list, tuple, dict, set, frozenset)) or len(b) or id(b) in interp.inexact:
        return False
    if isinstance(b, (list, tuple)):
        return True
    return isinstance(a, (Term, Unknown))
