"""Tables numbered by their own length (a mixin of the interpreter): word-by-word vocabularies.

`for w in words: if w not in vocab: vocab[w] = len(vocab)` over words read at run time builds a dict whose
values are exactly 0..len(vocab)-1, each once, whatever the words: a store of a key known to be absent with
the value `len(vocab)` keeps that so (CPython: the new key adds one item, and its value is the old length).
The dict is then an *index map* (`index_maps`), and that fact is an invariant of the loop, kept when the loop
leaves the dict holding only representatives of its items: a lookup of a key not understood is a symbol in
[0, len(vocab) - 1] (`index_value`; KeyError is CPython's when the key is missing), so
`nn.Embedding(len(vocab), d)(torch.tensor([vocab[w] for w in sent]))` is in range and `len(vocab) - 1` rows
are one too few (models/ranges.py reads the bounds; the largest id is that of some word of the data, so it
occurs in some run: a warning, not an error). A table numbered from another start (`vocab[w] = len(vocab) + 1`,
ids from 1, 0 kept for padding) is an index map with that start: its values are start..start+len-1.

Where the key is known to be absent:
- the dict is known exactly and does not hold it (an empty vocabulary before its first word);
- the store runs on the side of `if key not in d:` (`if not key in d:`, the `else` of `if key in d:`) that
  finds it absent, and the other side changes nothing (`absent_side`): on that side the path knows the
  key is absent even when `in` itself was not decided (a key not understood, a dict holding only some of
  its items).
`d.setdefault(key, len(d))` keeps the invariant too (the key's old value, or the new one, `len(d)`).

A list grown beside it (`idx2word.append(w); word2idx[w] = len(idx2word) - 1`) is *linked* (`len_links`):
its length is the dict's plus a known offset, as long as both grow only together on such sides, so
`len(idx2word)` and the bound of an id are one number. Any other change of the dict ends the index map;
any other change of a linked list, or of its dict, ends the link.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Iterator

import contextlib

from pytea_ci.models import registry
from pytea_ci.models.ranges import INDEX_OF_KEY
from pytea_ci.models.values import Unknown, is_concrete
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import INPUT, UNKNOWN, Dim, Sym, is_dim, symbols

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter


def absent_test(test: ast.expr) -> "tuple[bool] | None":
    """Which side of an `if` finds the key of a membership test absent: (True,) for `k not in d` and
    `not k in d`, (False,) for `k in d`; None for any other test."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = absent_test(test.operand)
        return None if inner is None else (not inner[0],)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        if isinstance(test.ops[0], ast.NotIn):
            return (True,)
        if isinstance(test.ops[0], ast.In):
            return (False,)
    return None


def length_valued(e: ast.expr) -> bool:
    """`len(x)`, `len(x) - 1`, `len(x) + 1`: a value computed from a length where it is stored, not carried
    from an earlier iteration (a counter equal to the length in the iteration followed may not be in others)."""
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)):
        return length_valued(e.left) and _int_or_len(e.right) or _int_or_len(e.left) and length_valued(e.right)
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "len" and len(e.args) == 1


def _int_or_len(e: ast.expr) -> bool:
    return isinstance(e, ast.Constant) and type(e.value) is int or length_valued(e)


def stores_lengths(block: list[ast.stmt]) -> bool:
    """Whether every item the side stores (`d[k] = v`, `d.setdefault(k, v)`) is `length_valued`."""
    todo: list[ast.AST] = list(block)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Subscript) for t in n.targets) \
                and not length_valued(n.value):
            return False
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "setdefault" \
                and not (len(n.args) == 2 and length_valued(n.args[1])):
            return False
        todo.extend(ast.iter_child_nodes(n))
    return True


def length_setdefault(e: ast.expr | None) -> bool:
    """`d.setdefault(k, len(d))` as a statement's value."""
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "setdefault" \
        and len(e.args) == 2 and length_valued(e.args[1])


def _quiet(block: list[ast.stmt]) -> bool:
    """A side that changes no container: empty, `pass`, `continue`, `return` of a name or attribute."""
    return all(isinstance(s, (ast.Pass, ast.Continue)) or isinstance(s, ast.Return) and (
        s.value is None or isinstance(s.value, (ast.Name, ast.Attribute, ast.Constant))) for s in block)


class IndexMapMixin:
    last_membership: "tuple[Any, Any] | None"  # (Interpreter.__init__)

    def membership_seen(self: "Interpreter", key: Any, box: Any) -> None:
        """The operands of the last `in` / `not in` evaluated (for `absent_side`)."""
        self.last_membership = (key, box)

    @contextlib.contextmanager
    def absent_side(self: "Interpreter", node: ast.If, choice: bool) -> Iterator[None]:
        """Run a side of `node` knowing, on it, that the membership test's key is absent from its dict when
        that is the side that finds it absent and the other side changes nothing."""
        side = absent_test(node.test)
        seen, self.last_membership = self.last_membership, None
        if side is None or side[0] != choice or seen is None or not isinstance(seen[1], dict) \
                or not _quiet(node.orelse if choice else node.body):
            yield
            return
        self.absent_keys.append((seen[0], seen[1], stores_lengths(node.body if choice else node.orelse)))
        try:
            yield
        finally:
            self.absent_keys.pop()

    def key_absent(self: "Interpreter", d: dict[Any, Any], key: Any) -> bool:
        """Whether `key` is known not to be a key of `d` on this path (before a store). Inside a loop run with
        representatives of its iterations only a guard says so: the dict that is empty (or lacks the key) in
        the iteration followed may hold it in the others, and the value stored must be computed from a length
        there (`stores_lengths`), as a counter that equals it in the iteration followed need not in others."""
        if any(box is d and k is key and by_length for k, box, by_length in self.absent_keys):
            return True
        if self.rep_depth:
            return False
        if id(d) not in self.inexact and not d:
            return isinstance(key, (Unknown, Sym)) or is_concrete(key)
        if id(d) not in self.inexact and is_concrete(key) and all(is_concrete(k) for k in d):
            try:
                return key not in d
            except TypeError:
                return False
        return False

    def numbered(self: "Interpreter", d: dict[Any, Any]) -> "int | None | bool":
        """Where the values of `d` start when they are exactly start..start+len(d)-1 (each once); True for an
        empty dict known exactly (its first store says where); None when they are not known to be so."""
        if id(d) in self.index_maps:
            return self.index_maps[id(d)]
        if id(d) in self.inexact or id(d) in self.escaped:
            return None
        if not d:
            return True
        values = list(d.values())
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return None
        start = min(values)
        return start if sorted(values) == list(range(start, start + len(d))) else None

    def dict_length(self: "Interpreter", d: dict[Any, Any], lo: int, hi: int | None) -> Dim:
        """The length of a dict whose keys are not all known: one symbol until it changes (a new key known
        to be new adds one to it). An index map keyed by values not understood (words read at run time) has
        as many keys as its data has distinct ones: a size of the input (one value per run)."""
        n = self.known_len.get(id(d))
        if n is None:
            data = id(d) in self.index_maps and not all(is_concrete(k) for k in d)
            n = self.fresh("len", kind=INPUT if data else UNKNOWN, lo=lo, hi=hi,
                           note="distinct keys read at run time" if data else "keys of a dict not all known")
            self.known_len[id(d)] = n
            self.keepalive.append(d)
        return n

    def length_now(self: "Interpreter", box: Any) -> Any:
        return self.call(registry.get("builtins.len"), box)

    def store_numbered(self: "Interpreter", d: dict[Any, Any], key: Any, value: Any, store: Any) -> bool:
        """`d[key] = value` (`store()` does it): keeps `d` an index map when it was one, the key is absent and
        `value` is its length. Returns whether it did (the caller then skips its own bookkeeping)."""
        start = self.numbered(d)
        if start is None or not self.key_absent(d, key) or not is_dim(value) or isinstance(value, bool):
            return False
        before = self.length_now(d)
        step = value - before  # the new value's place past the values there: the start, for an index map
        if not isinstance(step, int) or start is not True and step != start:
            return False
        links = {lst: (box, off) for lst, (box, off) in self.len_links.items() if box is d}
        store()
        self.note_mutation(d, free=True)
        self.index_maps[id(d)] = step
        self.keepalive.append(d)
        if id(d) in self.inexact:
            self.known_len[id(d)] = before + 1
        for lst, (box, off) in links.items():
            self.len_links[lst] = (box, off - 1)
        self.link_grown(d)
        return True

    def grown_in_loop(self: "Interpreter", mutated: "set[int]") -> None:
        """After a loop run with representatives of its iterations: an index map it changed gained as many keys
        as the iterations not followed added, not the one the iteration followed did: its length is a new
        number, at least the one it had (an index map only grows), so ids read inside the loop stay in range."""
        for box in mutated & self.index_maps.keys():
            old = self.known_len.pop(box, None)
            if old is None:
                continue
            data = any(s.kind == INPUT for s in symbols(old))
            new = self.fresh("len", kind=INPUT if data else UNKNOWN, note="keys of a table numbered by its length "
                             "after a loop" + (" (distinct keys read at run time)" if data else ""))
            self.pc.append(P.le(old, new))
            self.known_len[box] = new

    def link_grown(self: "Interpreter", d: dict[Any, Any]) -> None:
        """Lists appended to on the absent side of `d` that are not linked yet: linked at their current offset
        when both are known exactly."""
        for lst in self.appended_beside.get(id(d), []):
            if id(lst) not in self.len_links and id(lst) not in self.inexact and id(d) not in self.inexact:
                self.len_links[id(lst)] = (d, len(lst) - len(d))
                self.keepalive.append(lst)
        self.appended_beside.pop(id(d), None)

    def grew_by_one(self: "Interpreter", lst: list[Any]) -> bool:
        """`lst.append(x)` ran: a linked list on an absent side of its dict keeps its link (offset + 1) and is
        noted beside the dicts whose absent side this is. Returns whether the link was kept."""
        boxes = [box for _, box, _ in self.absent_keys]
        for box in boxes:
            self.appended_beside.setdefault(id(box), []).append(lst)
        link = self.len_links.get(id(lst))
        if link is None or not any(b is link[0] for b in boxes):
            return False
        self.len_links[id(lst)] = (link[0], link[1] + 1)
        return True

    def unlink(self: "Interpreter", box: Any) -> None:
        """`box` changed otherwise: it is no index map, and no list is linked to it or links to it."""
        self.index_maps.pop(id(box), None)
        self.len_links.pop(id(box), None)
        for lst in [k for k, (b, _) in self.len_links.items() if b is box]:
            del self.len_links[lst]

    def linked_length(self: "Interpreter", lst: Any) -> "Dim | None":
        """The length of a list linked to an index map: the dict's plus the offset."""
        link = self.len_links.get(id(lst))
        if link is None:
            return None
        n = self.length_now(link[0])
        return n + link[1] if is_dim(n) else None

    def index_value(self: "Interpreter", d: dict[Any, Any], key: Any) -> "Sym | None":
        """`d[key]` of an index map holding only representatives of its items, for a key not understood: a
        position in start..start+len(d)-1 (the item's own value when it is there; KeyError otherwise)."""
        if id(d) not in self.index_maps or id(d) not in self.inexact or id(d) in self.escaped or is_concrete(key):
            return None
        n, start = self.length_now(d), self.index_maps[id(d)]
        if not is_dim(n):
            return None
        v = self.fresh("id", lo=start, note=INDEX_OF_KEY)
        self.pc.append(P.lt(v, n + start))
        self.facts[INDEX_OF_KEY] = {**self.facts.get(INDEX_OF_KEY, {}), v.name: (start, n + start - 1)}
        return v

    def setdefault_numbered(self: "Interpreter", d: dict[Any, Any], key: Any, default: Any) -> Any:
        """`d.setdefault(key, len(d))` of an index map: the key's position, and the map stays one whether the
        key was there or not (None when `d` is no index map or `default` is not its length past its start)."""
        start = self.numbered(d)
        if start is None or not is_dim(default) or isinstance(default, bool):
            return None
        before = self.length_now(d)
        step = default - before
        if not isinstance(step, int) or start is not True and step != start:
            return None
        if self.key_absent(d, key):
            self.store_numbered(d, key, default, lambda: d.__setitem__(key, default))
            return default
        if id(d) not in self.inexact and is_concrete(key) and all(is_concrete(k) for k in d):
            return d[key]  # there (`key_absent` said it is not absent, and the keys are known)
        if self.rep_depth and self.length_default != len(self.frames):
            return None  # a default equal to the length in the iteration followed only (a counter)
        # there or not: one key more or none, which is not known; either way still numbered by its length
        self.note_mutation(d, free=True)
        self.mark_inexact(d)
        self.index_maps[id(d)] = step
        try:
            d.setdefault(key, default)  # a representative of the keys (a word read at run time)
        except TypeError:
            pass
        after = self.length_now(d)
        if is_dim(after):
            self.pc.append(P.and_(P.le(before, after), P.le(after, before + 1)))
        found = self.index_value(d, key)
        return found if found is not None else self.unknown("dict.setdefault of a key not known")
