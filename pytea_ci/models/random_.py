"""Python's `random` module, and the ints a program draws at run time (DESIGN §3 "two kinds of
unknown integers"). A drawn int is an *input* symbol over the range the call implies:
`random.randint(16, 64)` is a symbol in [16, 64], `random.randrange(8, 65, 8)` is `8 + 8*k`,
`random.choice([28, 32, 64])` a symbol taking just those values; a check that fails for every
draw is an error naming the draw, one that fails for some a warning with a failing value.
`int()` of a string read at run time (an environment variable, `sys.argv[i]`) is a positive input.
Floats drawn (`random.random`, `uniform`, `gauss`) are unknown floats.

After a constant seed (`random.seed(1234)`, `numpy.random.seed(0)`, `torch.manual_seed(0)`) a
generator's draws are fixed values, the same in every run: CPython's (numpy's, torch's), which the
analyzer does not compute. Each is then a size of unknown kind over its range (`shapes.dim.UNKNOWN`):
a check that fails for every value of it is still an error, one that fails only for some values says
nothing (encodec's self-test: `random.seed(1234)` then `cardinality = random.randrange(4000)` is never
0 in the run CPython makes). `seed()`/`seed(None)` reseeds from the machine: draws are inputs again.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import replace
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, register
from pytea_ci.models.values import Builtin, Unknown
from pytea_ci.shapes.dim import ASSUMED_SIZE, INPUT, UNKNOWN, Dim, add, is_dim

_MAX_CHOICES = 256  # a longer list of choices is summarised by its bounds
# The global generators a program seeds (the `facts` key of each: the seed, when it is a constant)
PYTHON, NUMPY, TORCH = "random", "numpy.random", "torch"
SEED = "seed"  # the attribute of a generator object (`numpy.random.default_rng(0)`) holding its constant seed


def _seed_fact(generator: str) -> str:
    return f"seeded {generator}"


def constant_seed(seed: Any) -> str | None:
    """The text of a seed whose value is known (an int, float, str or bytes: the same draws in every run);
    None for no seed (`None`: from the machine) or one not known."""
    if isinstance(seed, (int, float, str, bytes)):
        return repr(seed)
    return None


def seed_generator(ctx: Ctx, generator: str, seed: Any) -> None:
    """`generator` seeded with `seed` from here on this path (see the module docstring)."""
    ctx.facts[_seed_fact(generator)] = constant_seed(seed)


def fixed_by(ctx: Ctx, generator: str) -> str | None:
    """The constant seed the draws of `generator` follow on this path (None: they may take any value)."""
    seed = ctx.facts.get(_seed_fact(generator))
    return seed if isinstance(seed, str) else None


def draw_kind(ctx: Ctx, generator: str, note: str) -> tuple[str, str]:
    """The kind and note of a symbol drawn from `generator`: an input, or after a constant seed a fixed
    value not computed."""
    seed = fixed_by(ctx, generator)
    if seed is None:
        return INPUT, note
    return UNKNOWN, f"{note} after the seed {seed}: a fixed value, not computed"


def _int(v: Any) -> int | None:
    return int(v) if isinstance(v, int) and not isinstance(v, bool) else None


def drawn_int(ctx: Ctx, low: Any, high: Any, what: str, step: Any = 1, generator: str = PYTHON) -> Any:
    """An int drawn from low, low + step, ..., up to high inclusive (one value per run)."""
    kind, note = draw_kind(ctx, generator, f"a value drawn by {what}")
    lo, hi, st = _int(low), _int(high), _int(step)
    if lo is not None and hi is not None and st:
        values = range(lo, hi + 1, st) if st > 0 else range(lo, hi - 1, st)
        if not values:
            ctx.user_error("ValueError", f"empty range for {what}")
        if len(values) == 1:
            return values[0]
        if st == 1:
            return ctx.fresh("drawn", kind=kind, lo=lo, hi=hi, note=note)
        return choice_of(ctx, list(values), what, generator)
    if is_dim(low) and st == 1:
        k = ctx.fresh("drawn", kind=kind, lo=0, note=note)
        return add(low, k)  # low + k, k >= 0: the upper bound is not known
    return ctx.fresh("drawn", kind=kind, lo=None, note=note)


def choice_of(ctx: Ctx, values: list[Dim], what: str, generator: str = PYTHON) -> Any:
    """One of `values` (ints or dims), not knowing which."""
    ints = [_int(v) for v in values]
    kind, note = draw_kind(ctx, generator, f"a value drawn by {what}")
    if any(v is None for v in ints):
        return ctx.fresh("drawn", kind=kind, lo=None, note=note)
    distinct = sorted(set(v for v in ints if v is not None))
    if len(distinct) == 1:
        return distinct[0]
    sym = ctx.fresh("drawn", kind=kind, lo=distinct[0], hi=distinct[-1], note=note)
    return replace(sym, values=tuple(distinct)) if len(distinct) <= _MAX_CHOICES else sym


@model("random.randint")
def randint(ctx: Ctx, a: Any, b: Any) -> Any:
    return drawn_int(ctx, a, b, f"random.randint({a!r}, {b!r})")


@model("random.randrange")
def randrange(ctx: Ctx, start: Any, stop: Any = None, step: Any = 1) -> Any:
    if stop is None:
        start, stop = 0, start
    what = f"random.randrange({start!r}, {stop!r}" + (f", {step!r})" if step != 1 else ")")
    if not (is_dim(stop) and is_dim(step)):  # a bound not understood: an int drawn, its range not known
        last = None
    else:
        last = stop - 1 if _int(step) is None or step > 0 else stop + 1
    return drawn_int(ctx, start, last, what, step)


@model("random.choice")
def choice(ctx: Ctx, seq: Any) -> Any:
    items = ctx.iterate(seq) if not isinstance(seq, (str, Unknown)) else None
    if items is None and isinstance(seq, (list, tuple)):
        reps, _ = ctx.iteration_of(seq)
        if len(reps) == 1:
            return reps[0]  # a list holding one representative of its items (built over data): it stands for any
    if not items:
        return ctx.unknown("random.choice of unknown items")
    if all(is_dim(v) for v in items):
        return choice_of(ctx, items, f"random.choice({items!r})")
    first = items[0]
    return first if all(v is first or v == first for v in items) else ctx.unknown("random.choice of non-ints")


@model("random.sample", "random.choices")
def sample(ctx: Ctx, population: Any, *args: Any, **kwargs: Any) -> Any:
    return ctx.unknown("random sample")


@model("random.random", "random.uniform", "random.gauss", "random.normalvariate", "random.betavariate",
       "random.expovariate", "random.triangular")
def a_float(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return Unknown("a random number", pytype="float")


@model("random.seed")
def seed(ctx: Ctx, a: Any = None, *args: Any, **kwargs: Any) -> Any:
    seed_generator(ctx, PYTHON, a)
    return None


@model("random.shuffle", "random.setstate")
def no_effect(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return None


def read_int(ctx: Ctx, text: Unknown) -> Any:
    """`int(s)` of a string not known: a positive input symbol when the program read it at run time
    (an environment variable, a command-line argument); any int otherwise."""
    from pytea_ci.models.read_keys import Keyed, as_size

    if isinstance(text, Keyed):
        return as_size(ctx, text)  # the same symbol for every read of the key path
    what = text.origin.what if text.origin is not None else text.reason
    if text.pytype == "str" or what.startswith("sys.argv") or text.reason.startswith("value of environment"):
        source = text.reason if text.reason.startswith("value of") else what
        return ctx.fresh("n", kind=INPUT, lo=1, note=f"int() of {source} {ASSUMED_SIZE}")
    return ctx.fresh("int")


def declared(ctx: Ctx, name: str, rng: tuple, note: str) -> Any:
    """The input `name` the configuration declares symbolic over `rng` = (lo, hi, values) (see
    driver/symranges.py): its one value when the range holds one, else an input symbol over it."""
    lo, hi, values = rng
    if lo is not None and lo == hi:
        return lo
    sym = ctx.fresh(name, kind=INPUT, lo=lo, hi=hi, note=note)
    return replace(sym, values=tuple(values)) if values else sym


def declared_for(ctx: Ctx, key: str, note: str) -> Any:
    """`declared` for the configuration entry `key`, or None when there is none."""
    table = ctx.option("symbolic_args") or {}
    return declared(ctx, key.split(":")[0].split(".")[-1], table[key], note) if key in table else None


# What a program reads at run time whose length is an input of the run: folder listings and data files.
_READ = "read at run time by "
_DATA_SOURCES = ("os.listdir", "os.walk", "os.scandir", "glob.glob", "glob.iglob", "json.loads")  # pickle.load: pickled.py


def _data_read(name: str) -> Any:
    def run(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
        from pytea_ci.shapes.tensor import Origin

        if (listed := _package_listing(ctx, name, args, kwargs)) is not None:
            return listed
        return Unknown(_READ + name, None, Origin(ctx.span, _READ + name))  # born here, whatever the path was

    return run


def _package_listing(ctx: Ctx, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """`os.listdir(folder)` and `glob.glob("folder/*.json")` of a folder of the installed package whose code
    runs (models/pathlib_.py): its entries, in an order not known; None anywhere else."""
    if kwargs or len(args) != 1 or not isinstance(args[0], str) or not os.path.isabs(args[0]):
        return None
    if name == "os.listdir":
        names = ctx.data_listing(args[0])
        return None if names is None else ctx.unordered_list(list(names))
    if name == "glob.glob":
        folder, pattern = os.path.split(args[0])
        if any(c in folder for c in "*?[") or (names := ctx.data_listing(folder)) is None:
            return None
        # glob's `*` leaves out names starting with a dot, as CPython's does
        return ctx.unordered_list([os.path.join(folder, n) for n in names if fnmatch.fnmatchcase(n, pattern)
                                   and (pattern.startswith(".") or not n.startswith("."))])
    return None


for _name in _DATA_SOURCES:
    register(_name, Builtin(_name, _data_read(_name)))


def length_of_read(ctx: Ctx, obj: Any) -> Any:
    """`len()` of a value not understood: the number of entries of a listing or data file the program
    reads (or of a YAML document), and of `sys.argv`, is an input symbol (one value per run, any count >= 1); of anything
    else, any int >= 0."""
    what = obj.origin.what if isinstance(obj, Unknown) and obj.origin is not None else ""
    if isinstance(obj, Unknown) and obj.reason == "sys.argv":  # the command line: the user chooses it
        return ctx.fresh("len", kind=INPUT, lo=1, note="number of command-line arguments")
    if what.startswith(_READ) or what.startswith("YAML document"):
        # a count of files or records: used as a size it is taken to be positive
        # one number for every `len()` of it (`text[:len(text) // 20 * 20]`), until it may change
        return ctx.unknown_length(obj, lo=1, kind=INPUT, note=f"number of entries {what} {ASSUMED_SIZE}") \
            if isinstance(obj, Unknown) else ctx.fresh("len", kind=INPUT, lo=1, note=f"number of entries {what} {ASSUMED_SIZE}")
    if isinstance(obj, Unknown):
        return ctx.unknown_length(obj)  # the same number for every `len()` of it until it may change
    return ctx.fresh("len")

