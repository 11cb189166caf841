"""`Ctx`: what a model may ask of the interpreter (it never sees the interpreter itself)."""

from __future__ import annotations

from typing import Any, Protocol

from pytea_ci.diagnostics import Span
from pytea_ci.diagnostics.rules import SHAPE_MISMATCH, Rule
from pytea_ci.shapes.dim import Dim, Sym
from pytea_ci.shapes.pred import Cond


class Ctx(Protocol):
    span: Span
    facts: dict[str, Any]  # per-path program state kept by models (e.g. the process group is initialized)
    importing: int  # > 0 while a project module's import-time code runs

    def require(self, cond: Cond, op: str, message: str, rule: Rule = SHAPE_MISMATCH,
                operands: tuple[str, ...] = (), dims: tuple[tuple[str, object], ...] = ()) -> None:
        """State what the API requires; a definite failure ends the path with a finding."""

    def fork(self, cond: Cond, per_run: bool = False, blind: bool = False, guess: bool = False) -> bool:
        """Decide `cond` on this path, splitting the path when both outcomes are possible. A `per_run`
        fork splits what every run does into cases of the inputs (a DataLoader's short last batch exists
        for some dataset lengths): a check that fails only because of it is a warning, not an error.
        `blind`: the model gives an unknown value on the false side, so a check on the sizes of the true
        side that fails there is a warning too (it may hold for the inputs of the other case). `guess`:
        any finding, a rank or an index too, that the other side avoids is a warning naming the choice
        (`squeeze()` of a size that may be 1), as on a branch on a value not understood."""

    def holds(self, cond: Cond) -> bool:
        """Whether `cond` holds on this path for every input (no finding, no fork: a question)."""

    def truth_of(self, value: Any) -> Any:
        """`bool(value)` as a branch on it sees it: a bool, a Pred, or Unknown (an object is true unless
        its `__bool__`, else `__len__`, says otherwise; a container holding only some items: its length)."""

    def enter_command(self, label: str, left: int = 1) -> None:
        """This path runs the CLI command `label` from here on, the first of `left` still to run at this
        choice (its own path budget and part of the entry's steps, named in notes)."""

    root: str  # the analysis root (absolute)
    cur_path: str  # the file running

    def project_text(self, name: str, base: str | None = None) -> str | None:
        """The text of a small file of the project (`name` relative to `base`, default: the folder of
        the file running), read and never executed; None when outside the project, missing or large."""

    def project_data(self, name: str, base: str | None = None) -> bytes | None:
        """The bytes of such a file (a pickle, a NumPy or torch file the program loads; models/pickled.py)."""

    def written_elsewhere(self, key: tuple[str, ...]) -> "list[tuple[str, Any]]":
        """What the project's other scripts save at the path `key` (its segments, relative to the folder the
        program runs in): one (library, value) per path of theirs that saved it (interp/project_writes.py)."""

    def data_kind(self, path: str) -> str | None:
        """Of an absolute path inside the followed installed package whose code is running: "file", "folder"
        or "absent"; None anywhere else (not known)."""

    def data_listing(self, path: str) -> list[str] | None:
        """The names in such a folder of the running package (in no order promised), else None."""

    def module_absent(self, top: str) -> bool:
        """Whether CPython finds no top-level module `top` where the program runs: the environment the
        user named (`--python`) lacks it, and the project, the standard library and the models too."""

    def load_module(self, dotted: str) -> Any:
        """`import dotted` as the program's own import statement would run it (a project module, an
        installed package followed from source, a modeled library, else a value not known): the module."""

    def registered(self, package: str, decorator: str, key: str) -> Any:
        """The function an installed package's registry holds under `key`: the top-level function
        `key` decorated by `@decorator` in the modules of `package`, found in their source and its
        module imported (packages/registries.py); None when not found that way."""

    def fresh(self, hint: str, kind: str = "unknown", lo: int | None = 0, hi: int | None = None,
              note: str = "") -> Sym:
        """A new symbolic int born at the current call."""

    def unknown(self, reason: str = "") -> Any:
        """An Unknown value; the reason is counted in the coverage figures."""

    def call(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        """Call any value (user function, model, class, bound method) as the program would."""

    def attempt(self, catch: "str | tuple[str, ...]", fn: Any, /, *args: Any) -> "tuple[bool, Any]":
        """Call `fn` as `try: fn(*args) except <catch>:` would: (True, its value), or (False, None) when it
        raised the exception named `catch`, one of them or a subclass (any other exception goes on)."""

    def index_items(self, value: Any) -> "tuple[list[Any], bool]":
        """`value[0]`, `value[1]`, ... until IndexError (`collections.abc.Sequence.__iter__`), and whether
        items past the unroll bound were left out."""

    def iterate(self, value: Any) -> "list[Any] | None":
        """The items of an iterable value, or None when they are not known."""

    def loop_items(self, value: Any) -> "tuple[list[Any], bool]":
        """Representative items of an iterable and whether some iterations were left out."""

    def iteration_of(self, value: Any) -> "tuple[list[Any], bool]":
        """The items of an iteration and whether some were left out; of one not followed, none."""

    def shuffled(self, value: Any) -> "list[Any] | None":
        """The items of a container whose items are all known and whose order is not (a set of strings:
        CPython's order depends on the hash seed), in a canonical order; else None (interp/unordered.py)."""

    def members(self, value: Any) -> "list[Any] | None":
        """The items of an iterable in whatever order, when all are known (`shuffled`, else `iterate`)."""

    def mark_unordered(self, lst: list[Any]) -> None:
        """The list `lst` holds all of its items, in an order not known."""

    def unordered_list(self, items: list[Any], kind: type = list) -> Any:
        """A list (or tuple) of `items` whose order is not known: length known, positions not."""

    def unordered_set(self, items: list[Any]) -> "set[Any]":
        """A set of `items` added in an order not known (so iterated in one not known)."""

    def unordered_dict(self, d: "dict[Any, Any]") -> "dict[Any, Any]":
        """`d`, recorded as a dict whose keys are known and whose order is not."""

    def enumerated(self, items: list[Any], start: Any) -> Any:
        """`enumerate` of items in an order not known: each with a position of its own (distinct input
        symbols in [start, start + n)); None when too many items or the start is not known."""

    def order_fixed(self, s: Any) -> bool:
        """Whether CPython iterates the set `s` in the same order in every run."""

    unordered: "set[int]"  # ids of containers whose items are known and whose order is not

    def next_item(self, it: Any) -> "tuple[bool, Any]":
        """`next(it)` where the iterator's position is followed: (True, item or MISSING when it has
        none left); (False, None) where it is not (then a model answers as for a first item)."""

    def known_length(self, value: Any) -> "Dim | None":
        """The number of items of a list/tuple/range, also when only representatives of them were
        computed (a comprehension over a long range, a list grown in a summarised loop: maybe a
        symbol); None when not known."""

    def source_count(self, value: Any) -> "Dim | None":
        """How many items iterating `value` yields, when known: `known_length`, and the number of entries
        of data read at run time (an input symbol)."""

    def unknown_length(self, v: Any, lo: int = 0, kind: str | None = None,
                       note: str = "items of a value not understood") -> "Dim":
        """The number of items of a value not understood: one symbol until something may change it."""

    def dict_length(self, d: "dict[Any, Any]", lo: int, hi: "int | None") -> "Dim":
        """The length of a dict whose keys are not all known: a symbol kept until the dict changes."""

    def length_of(self, lst: "list[Any] | tuple[Any, ...]") -> "Dim":
        """The length of a list or tuple: known, else a symbol kept until the list changes."""

    inexact: "set[int]"  # ids of the lists, tuples, dicts and sets that hold only some of their items

    def mark_inexact(self, lst: list[Any]) -> None:
        """Record that a list's length is not known (built in a loop that was not fully followed)."""

    def same_items(self, source: Any, made: list[Any]) -> list[Any]:
        """`made`, a copy of the items of `source`, marked inexact (same known length) when `source` is."""

    def sized_items(self, made: list[Any], n: "Dim") -> list[Any]:
        """`made`, representatives of a list of `n` items (marked inexact, with known length `n`)."""

    def some_value(self, values: list[Any], what: str) -> Any:
        """One of `values`, not knowing which: a fresh int when they are all ints, the common value when
        they are all equal, else Unknown."""

    def positions(self, lst: list[Any]) -> "tuple[int, ...] | None":
        """Where the representative items of an inexact list sit among all of its items, when known."""

    def note_mutation(self, lst: list[Any], free: bool = False) -> None:
        """Record that a list changed (inside a loop not followed one by one it becomes inexact; `free`: the
        change does not depend on the order of the loop's iterations, an item appended or added)."""

    def getattr(self, obj: Any, name: str) -> Any: ...

    def compare_values(self, op: str, a: Any, b: Any) -> Any:
        """`a OP b` as Python compares them; op is "eq", "ne", "lt", "le", "gt", "ge" or "in"."""

    def binary_values(self, op: str, a: Any, b: Any) -> Any:
        """`a OP b` as the program's operator would compute it; op is "add", "floordiv", "and", ..."""

    def awaited(self, value: Any) -> Any:
        """`await value`: a coroutine of the program runs its body here (interp/coroutines.py)."""

    def unary_values(self, op: str, a: Any) -> Any:
        """`OP a` as the program's operator would compute it; op is "neg", "pos", "invert" or "not"."""
    def plain_attr(self, obj: Any, name: str, fallback: bool = True) -> Any:
        """`object.__getattribute__(obj, name)` of an instance: not through its class's `__getattribute__`."""

    def getitem(self, obj: Any, idx: Any) -> Any: ...

    def setattr(self, obj: Any, name: str, value: Any) -> None: ...

    def delattr(self, obj: Any, name: str) -> None: ...

    def option(self, key: str) -> Any:
        """A configuration value for the current entry point (e.g. argparse overrides)."""

    def raise_unless(self, value: Any, kind: str) -> None:
        """`if not value: raise kind()` as the program states it: assumed on this path from here on, and
        the program raises `kind` where it can never hold (a value not understood is assumed)."""

    def user_error(self, kind: str, message: str, cls: Any = None) -> None:
        """Raise a Python exception inside the analyzed program (not a shape finding); `cls`: its modeled
        class, so a handler of one of its bases catches it (`except configparser.Error`)."""
