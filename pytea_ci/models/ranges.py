"""Where integer tensors get their value ranges, and how operations carry them (DESIGN §3).

`values_after` runs after every model (like the layout rules) with the value rule the model declared
(`values=` of its registration): sources (`randint_values`, `arange_values`, `literal_values`,
`argmax_values`, ...) set a range, `Indices` gives the indices of a (values, indices) result theirs,
`SCALAR` makes `int()` / `.item()` of a drawn value an input symbol. Without a rule, value-preserving
operations (views, copies, indexing) keep the range and arithmetic with a constant (`labels - 1`,
`% n`, `clamp`) moves it. A model that computes its own range is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import reduce
from typing import Any, Callable

from pytea_ci.models.context import Ctx
from pytea_ci.models.random_ import NUMPY, SEED, TORCH, fixed_by
from pytea_ci.models.values import Instance, SizeVal, ValuesIndices
from pytea_ci.shapes.dim import INPUT, ITERATION, UNKNOWN, Op, Sym, Term, dmax, dmin, is_dim, symbols
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.shapes.vrange import ValueRange, clamp, hull, keep_draws, plus, scale, shift

SEED_ORDER = "a position in an order CPython leaves to the hash seed"  # the note of such symbols (interp/unordered.py)
# the note of the value of a key not understood in a table numbered by its length (interp/index_maps.py); the
# facts of a path map each such symbol's name to its least and largest value (start, start + the table's length - 1)
INDEX_OF_KEY = "the position of a key not understood in a table numbered by its length"
# Operations whose result holds exactly the values of their first operand (same multiset or a copy).
_SAME_VALUES = frozenset(
    "view reshape view_as reshape_as unsqueeze unsqueeze_ squeeze squeeze_ flatten unflatten permute transpose "
    "swapaxes t contiguous clone detach cpu cuda to type long int short type_as expand expand_as repeat flip "
    "roll pin_memory movedim moveaxis ravel broadcast_to tile numpy from_numpy as_tensor asarray copy "
    "rearrange".split())  # (einops.rearrange: a view, einops.repeat: copies, as torch's repeat)
# Operations whose result holds some of the values of their first operand.
_SUBSET = frozenset("__getitem__ narrow select masked_select take chunk_item".split())
_COMPARE = frozenset("eq ne lt le gt ge greater less greater_equal less_equal not_equal isnan isinf isfinite "
                     "logical_not logical_and logical_or logical_xor".split())


def _ints(*vals: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in vals)


def made(ctx: Ctx, lo: Any, hi: Any, note: str, attained: bool = False,
         drawn: tuple[int, int, int] | None = None, random: bool = False, dense: bool = False,
         seed: str | None = None) -> ValueRange:
    """`seed`: the constant seed the draws follow (fixed values: not `random`)."""
    if seed is not None:
        return ValueRange(lo, hi, attained, drawn, ctx.span, f"{note} after the seed {seed}", dense=dense, seeded=True)
    return ValueRange(lo, hi, attained, drawn, ctx.span, note, random=random, dense=dense)


def _numel(t: Tensor) -> int | None:
    n = t.numel()
    return int(n) if isinstance(n, int) else None


def _fewest(t: Tensor) -> int | None:
    """A lower bound of the number of elements (a size drawn from [31, 33] gives at least 31 draws)."""
    if t.shape is None:
        return None
    n = 1
    for d in t.shape:
        low = d if isinstance(d, int) else (d.lo if isinstance(d, Sym) else None)
        if low is None:
            return None
        n *= int(low)
    return n


# ----- sources -------------------------------------------------------------------------------------
def randint_values(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    pos = [a for a in args if not isinstance(a, (tuple, list))]
    low: Any = kwargs.get("low", 0)
    high: Any = kwargs.get("high")
    if high is None:
        low, high = (0, pos[0]) if len(pos) == 1 else (pos[0], pos[1]) if len(pos) >= 2 else (None, None)
    if not (is_dim(low) and is_dim(high)):
        return None
    generator = NUMPY if out.lib == "numpy" else TORCH
    note = f"{generator}.randint({low!r}, {high!r})"
    n = _fewest(out)
    drawn = (int(low), int(high) - 1, n) if _ints(low, high) and n and high > low else None
    seed = fixed_by(ctx, generator) if "generator" not in kwargs else None
    return made(ctx, low, high - 1, note, drawn=drawn, random=True, seed=seed)


def integers_values(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    """`Generator.integers(low, high=None, size=None, endpoint=False)` (args[0] is the generator)."""
    pos = [a for a in args[1:3] if not isinstance(a, (tuple, list, Tensor))]
    low, high = kwargs.get("low", pos[0] if pos else None), kwargs.get("high", pos[1] if len(pos) > 1 else None)
    if high is None:
        low, high = 0, low
    if not (is_dim(low) and is_dim(high)):
        return None
    top = high if kwargs.get("endpoint") is True else high - 1
    seed = args[0].attrs.get(SEED) if args and isinstance(args[0], Instance) else None  # `default_rng(0)`
    n = _fewest(out)
    drawn = (int(low), int(top), n) if _ints(low, top) and n and int(top) >= int(low) else None
    return made(ctx, low, top, f"Generator.integers({low!r}, {high!r})", drawn=drawn, random=True, seed=seed)


def arange_args(args: tuple, kwargs: "dict[str, Any] | None" = None) -> tuple[Any, Any, Any]:
    """(start, end, step) of `arange(end)` / `arange(start, end[, step])`, any of them by keyword."""
    named = dict(zip(("start", "end", "step"), args if len(args) > 1 else ())) | dict(kwargs or {})
    if len(args) == 1 and "end" not in named:
        named["end"] = args[0]
    elif len(args) == 1:
        named["start"] = args[0]
    return named.get("start", 0), named.get("end"), named.get("step", 1)


def arange_values(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    start, end, step = arange_args(args, kwargs)
    if end is None:
        return None
    if not (_ints(start, end, step) and step):
        return made(ctx, start, end - 1, "torch.arange", attained=True, dense=True) \
            if is_dim(start) and is_dim(end) and step == 1 else None
    values = range(start, end, step)
    if not values:
        return None
    return made(ctx, min(values[0], values[-1]), max(values[0], values[-1]), f"torch.arange({', '.join(map(repr, args))})",
                True, dense=step in (1, -1))


def randperm_values(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    return made(ctx, 0, args[0] - 1, f"torch.randperm({args[0]!r})", True, dense=True) \
        if args and is_dim(args[0]) else None


def _literal_ints(data: Any) -> list[int] | None:
    if _ints(data):
        return [int(data)]
    if isinstance(data, (list, tuple)) and data:
        out: list[int] = []
        for x in data:
            inner = _literal_ints(x)
            if inner is None:
                return None
            out.extend(inner)
        return out
    return None


def _literal_dims(data: Any) -> list[Any] | None:
    """The integers of a (nested) list whose items are ints or positions in an order CPython leaves to the
    hash seed (`[stoi[w] for w in words]` of a vocabulary numbered in the order of a set of words: symbols
    of their own, interp/unordered.py), None when another item is there or there is no position."""
    flat: list[Any] = []

    def walk(x: Any) -> bool:
        if _ints(x) or isinstance(x, Term) and all(s.note.startswith(SEED_ORDER) for s in symbols(x)):
            flat.append(x)
            return True
        return isinstance(x, (list, tuple)) and all(walk(e) for e in x)

    if not walk(data) or all(_ints(x) for x in flat):
        return None
    return list(dict.fromkeys(flat))


def _table_positions(ctx: Ctx, data: Any) -> "tuple[Any, Any] | None":
    """(lo, hi) of a (nested) list of ints and positions of keys not understood in one table numbered by its
    length (interp/index_maps.py: each in 0..len-1); None when another item is there, or no such position."""
    bounds = ctx.facts.get(INDEX_OF_KEY, {})
    found: list[Any] = []
    ints: list[int] = []

    def walk(x: Any) -> bool:
        if _ints(x):
            ints.append(int(x))
            return True
        if isinstance(x, Sym) and x.note == INDEX_OF_KEY and x.name in bounds:
            found.append(bounds[x.name])
            return True
        return isinstance(x, (list, tuple)) and all(walk(e) for e in x)

    if not walk(data) or not found or any(b[0] != found[0][0] or not _ints(b[1] - found[0][1]) or b[1] - found[0][1] != 0
                                          for b in found):
        return None
    return min([found[0][0], *ints]), reduce(dmax, ints, found[0][1])


def whole_order(dims: list[Any]) -> "tuple[int, int] | None":
    """(lo, hi) when `dims` (distinct; also `max`/`min`/`sorted`/`sum` of them, models/min_max.py, builtins.py)
    are every position of one order not known: the n symbols one
    `enumerate` of n items made (one note), pairwise distinct in [lo, hi] with hi - lo + 1 == n; with ints
    among them, none outside [lo, hi]."""
    syms = [d for d in dims if isinstance(d, Sym)]
    ints = [d for d in dims if _ints(d)]
    if not syms or len(syms) + len(ints) != len(dims) or len({(s.note, s.lo, s.hi) for s in syms}) != 1:
        return None
    lo, hi = syms[0].lo, syms[0].hi
    if lo is None or hi is None or len(syms) != hi - lo + 1 or any(not lo <= i <= hi for i in ints):
        return None
    return lo, hi


def _every_item_known(ctx: Ctx, data: Any) -> bool:
    """Whether a (nested) list holds exactly its items: not the representatives of a comprehension
    over a long range, nor items kept by a filter the analyzer could not decide (`[c for c in xs if c < n]`:
    11 is in it only when 11 < n)."""
    if not isinstance(data, (list, tuple)):
        return True
    return ctx.known_length(data) == len(data) and all(_every_item_known(ctx, x) for x in data)


def literal_values(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    """The range of literal integers; its bounds occur only when every item of the list is known (else
    they only bound the values: a check then fails only when every value of the range is out)."""
    if args and isinstance(args[0], Tensor):
        return args[0].vrange
    values = _literal_ints(args[0]) if args else None
    if values is None and args and (ids := _table_positions(ctx, args[0])) is not None:
        # ids of words read at run time: the largest is that of some word, which some run's data holds
        return ValueRange(ids[0], ids[1], origin=ctx.span, note="torch.tensor of ids of keys not understood",
                          reachable=True)
    if values is None and args and (dims := _literal_dims(args[0])):
        every = _every_item_known(ctx, args[0])
        note = "torch.tensor of positions in an order not known"
        whole = whole_order(dims)
        if whole is not None:  # every position of one order: whatever the order, they are lo..hi
            return made(ctx, whole[0], whole[1], note, every, dense=every)
        # the least and the largest of them, which occur: the solver knows the positions are distinct
        return made(ctx, reduce(dmin, dims), reduce(dmax, dims), note, every)
    return made(ctx, min(values), max(values), "torch.tensor of literals", _every_item_known(ctx, args[0])) \
        if values else None


def legacy_values(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    """`torch.LongTensor([1, 2])` (a list or tuple of data, as `torch.tensor`): its literal integers;
    `torch.LongTensor(2, 3)` (sizes) holds uninitialized values, no range. A float constructor makes floats
    of them, which are no index."""
    data = args[0] if len(args) == 1 else None
    if not isinstance(data, (list, tuple)) or isinstance(data, SizeVal) or not out.is_int():
        return None
    return literal_values(ctx, out, args, kwargs)


def array_values(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    """`np.array([0, 1, 2], dtype=int)`: the literal integers of an integer array made of data (a tensor's
    or an array's range as it is); an array of floats holds no index."""
    if args and isinstance(args[0], Tensor):
        return args[0].vrange
    return literal_values(ctx, out, args[:1], kwargs) if args and isinstance(out, Tensor) and out.is_int() else None


def _whole(v: Any) -> Any:
    """An integer fill value as a dim (`1.0` is 1); None for a fraction, a bool or a value not understood."""
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v if is_dim(v) and not isinstance(v, bool) else None


def full_values(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    """Every element is the fill value, of any dtype when it is a whole number (`torch.full((n,), 1.0)`
    holds 1s, which `.long()` keeps)."""
    v = _whole(kwargs.get("fill_value", args[1] if len(args) > 1 else None))
    return made(ctx, v, v, f"torch.full(..., {v!r})", True) if v is not None else None


def constant_values(value: int, name: str) -> Callable[[Ctx, Tensor, tuple, dict], ValueRange | None]:
    """`torch.zeros` / `torch.ones`: every element is `value`, in any dtype (labels made as
    `torch.cat((torch.zeros(n), torch.ones(n))).long()` are 0s and 1s)."""
    def source(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
        return made(ctx, value, value, f"{name}(...)", True)

    _ANY_DTYPE.add(source)  # (filled in when the models register, after this module has loaded)
    return source



def _index_range(ctx: Ctx, args: tuple, dim: Any, what: str, attained: bool = False) -> ValueRange | None:
    """Indices into dim `dim` of the first argument (its flattened form when `dim` is None): picked by
    the data (each index may be picked in some run), or all of them (a sort)."""
    src = args[0] if args else None
    if not isinstance(src, Tensor) or src.shape is None:
        return None
    if dim is None:
        size = src.numel()
    elif _ints(dim) and -len(src.shape) <= dim < len(src.shape):
        size = src.shape[dim]
    else:
        return None
    return made(ctx, 0, size - 1, f"indices of {what}", attained, random=True, dense=attained) \
        if size is not None else None


def argmax_values(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    return _index_range(ctx, args, kwargs.get("dim", args[1] if len(args) > 1 else None), "an argmax/argmin")


def argsort_values(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    """A permutation of the dim: every index occurs."""
    return _index_range(ctx, args, kwargs.get("dim", args[1] if len(args) > 1 else -1), "an argsort", True)


@dataclass(frozen=True)
class Indices:
    """The rule of a (values, indices) result: where the dim argument sits, its default, and whether
    every index occurs (a sort)."""

    pos: int
    default: int | None
    attained: bool


SCALAR = "scalar of a one-element tensor"  # the rule of `int(t)` / `t.item()` (`scalar_of`)


def _with_indices(ctx: Ctx, name: str, rule: Indices, out: ValuesIndices, args: tuple, kwargs: dict) -> Any:
    pos, default, attained = rule.pos, rule.default, rule.attained
    dim = kwargs.get("dim", args[pos] if len(args) > pos else default)
    r = _index_range(ctx, args, dim, name.rsplit(".", 1)[-1], attained) if dim is not None else None
    indices = out[1] if len(out) == 2 else None
    if r is None or not isinstance(indices, Tensor):
        return out
    return ValuesIndices((out[0], replace(indices, vrange=r)))


def joined_values(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    """`cat`/`stack` of tensors that all have the same range (parts of different ranges, such as
    columns of different cardinalities, are told apart again by indexing, which a range cannot do)."""
    parts = list(args[0]) if args and isinstance(args[0], (list, tuple)) else []
    ranges = [t.vrange if isinstance(t, Tensor) else None for t in parts]
    if not ranges or any(r is None for r in ranges):
        return None
    # parts of different ranges are joined when each holds its bounds in every run (constants, literals):
    # the bounds of the whole occur, and a fixed selection of it later only over-approximates
    if any((r.lo, r.hi) != (ranges[0].lo, ranges[0].hi) for r in ranges) and not all(  # type: ignore[union-attr]
            r.attained for r in ranges):  # type: ignore[union-attr]
        return None
    out_range = ranges[0]
    for r in ranges[1:]:
        out_range = hull(out_range, r)  # type: ignore[arg-type]
    return out_range


# Sources whose values are whole numbers in any dtype (constants, and parts joined as they are): a float
# tensor keeps them as a range, for the casts to an integer dtype that make labels of them; float operations
# other than copies, selections and whole-number arithmetic drop it (`_carried`).
_ANY_DTYPE: set[Callable[..., Any]] = {full_values, joined_values}


def padded_values(ctx: Ctx, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    """`pad_sequence`: the sequences' values and the padding value."""
    r = joined_values(ctx, out, args, kwargs)
    pad = kwargs.get("padding_value", args[2] if len(args) > 2 else 0)
    # the padding occurs in some run (sequences padded to a common length differ in length)
    return hull(r, ValueRange(pad, pad, reachable=True)) if r is not None and _ints(pad) else None


# ----- propagation ---------------------------------------------------------------------------------
def covers(idx: Any, size: Any) -> bool:
    """`idx` is an iteration symbol over every position 0..size-1 (as `data.some_index` makes them)."""
    if isinstance(idx, Op) and idx.op == "mod" and idx.args[1] == size:
        idx = idx.args[0]
        return isinstance(idx, Sym) and idx.kind == ITERATION and idx.lo == 0 and idx.hi is None
    return isinstance(idx, Sym) and idx.kind == ITERATION and idx.lo == 0 and idx.hi is not None and idx.hi + 1 == size


def _subset(r: ValueRange, src: Tensor, out: Tensor, args: tuple) -> ValueRange:
    """Some elements of `src`: with a symbolic index (an item of a dataset, a loop index) every
    element is met over the run, so the draws stay; a fixed selection keeps what it selected."""
    symbolic = [x for a in args[1:] for x in (a if isinstance(a, tuple) else (a,)) if isinstance(x, Term)]
    if symbolic:
        # an index that takes every position of dim 0 in every run (a loader's dataset index) meets every element
        every = len(args) == 2 and src.shape and covers(args[1], src.shape[0])
        if every:
            return r
        one = len(args) == 2 and isinstance(args[1], Term)  # one position: an element (never empty)
        if all(s.kind == INPUT for x in symbolic for s in symbols(x)):
            # some positions only, chosen at random (a shuffled loader dropping its last batch; a Subset
            # narrows this to the positions it fixed, `data.Subset`)
            return keep_draws(r, None, random_positions=True, nonempty=one)
        return keep_draws(r, None, nonempty=one)  # positions the program chose (an in-order loader's full batches)
    total, kept = _numel(src), _numel(out)
    if total is not None and kept is not None and kept >= total:
        return r
    if r.drawn is None or total is None or kept is None:
        return keep_draws(r, None)
    return keep_draws(r, r.drawn[2] - (total - kept), nonempty=kept > 0)


def _arith(op: str, r: ValueRange, k: Any, reflected: bool) -> ValueRange | None:
    if isinstance(k, Tensor):  # of two ranged tensors: the bounds (`i - j` of two aranges: relative positions)
        if k.vrange is None or op not in ("add", "sub"):
            return None
        if op == "add":
            return plus(r, k.vrange)
        return plus(scale(k.vrange, -1), r) if reflected else plus(r, scale(k.vrange, -1))
    if not _ints(k):
        return _symbolic_arith(op, r, k, reflected)
    if op in ("add", "sub"):
        if op == "sub" and reflected:
            return shift(scale(r, -1), k)
        return shift(r, k if op == "add" else -k)
    if op == "mul":
        return scale(r, k)
    if op in ("remainder", "fmod") and k > 0 and not reflected:
        inside = _ints(r.lo, r.hi) and 0 <= r.lo and r.hi < k  # type: ignore[operator]
        if op == "remainder" and r.dense and r.lo == 0 and r.hi is not None:  # every value 0..hi occurs
            from pytea_ci.shapes.dim import dmin

            hi = min(int(r.hi), k - 1) if _ints(r.hi) else dmin(r.hi, k - 1)  # type: ignore[arg-type]
            return replace(r, lo=0, hi=hi, drawn=None, note=f"{r.note} % {k}")
        if op == "remainder" and r.dense and _ints(r.lo, r.hi):
            return _dense_remainder(r, int(r.lo), int(r.hi), k)  # type: ignore[arg-type]
        # draws over at least k consecutive values may leave any remainder
        spread = r.random and _ints(r.lo, r.hi) and r.hi - r.lo + 1 >= k  # type: ignore[operator]
        return r if inside else ValueRange(0 if op == "remainder" else -(k - 1), k - 1, origin=r.origin, note=f"% {k}",
                                           random=bool(spread) and op == "remainder")
    return None


def _dense_remainder(r: ValueRange, lo: int, hi: int, k: int) -> ValueRange:
    """`% k` of every integer lo..hi: all remainders when they span k values, else the run of remainders
    from lo % k to hi % k (wrapping past k - 1 to 0: both ends occur, not all between)."""
    note = f"{r.note} % {k}"
    if hi - lo + 1 >= k:
        return replace(r, lo=0, hi=k - 1, drawn=None, note=note)
    a, b = lo % k, hi % k
    if a <= b:
        return replace(r, lo=a, hi=b, drawn=None, note=note)
    return replace(r, lo=0, hi=k - 1, drawn=None, dense=False, note=note)


def _symbolic_arith(op: str, r: ValueRange, k: Any, reflected: bool) -> ValueRange | None:
    """With a size of the program (`labels + C`, `arange(N) % (C + 1)`): bounds that are dims."""
    if not is_dim(k) or isinstance(k, bool) or reflected:
        return None
    from pytea_ci.shapes.dim import add, dmin

    if op in ("add", "sub"):
        c = k if op == "add" else -k
        lo, hi = (None if r.lo is None else add(r.lo, c)), (None if r.hi is None else add(r.hi, c))
        return replace(r, lo=lo, hi=hi, drawn=None, note=f"{r.note} {'+' if op == 'add' else '-'} {k!r}")
    if op == "remainder" and r.dense and r.lo == 0 and r.hi is not None:
        # every value 0..hi occurs (an arange): modulo k > 0 they are exactly 0..min(hi, k - 1)
        return replace(r, lo=0, hi=dmin(r.hi, add(k, -1)), drawn=None, note=f"{r.note} % ({k!r})")
    if op == "remainder":
        return ValueRange(0, add(k, -1), False, None, r.origin, f"% ({k!r})")
    return None


def _op_of(name: str) -> tuple[str, bool]:
    from pytea_ci.models.torch.elementwise import DUNDERS

    last = name.rsplit(".", 1)[-1]
    if last in DUNDERS:
        return DUNDERS[last]
    return last, False


def _carried(name: str, out: Tensor, args: tuple, kwargs: dict) -> ValueRange | None:
    src = args[0] if args and isinstance(args[0], Tensor) else None
    op, reflected = _op_of(name)
    if op in _COMPARE:  # of data (no range): each outcome may occur; of ranged ints: not known
        decided = _compared(op, src, args[1] if len(args) > 1 else kwargs.get("other"), reflected)
        return decided or ValueRange(0, 1, random=src is not None and src.vrange is None and not src.is_int())
    if src is None or src.vrange is None:
        return None
    r = src.vrange
    one = r.lo if isinstance(r.lo, int) and not isinstance(r.lo, bool) and r.lo == r.hi else None
    if op == "sum" and len(args) == 1 and not kwargs and one is not None and (n := _numel(src)) is not None \
            and n <= 2 ** 24:
        # every element is one number: the sum is that many times it (exact in float32 up to 2**24 elements)
        return ValueRange(one * n, one * n, True, None, r.origin, f"sum of {r.note}" if r.note else "")
    if op in ("to", "type", "bool") and out.dtype not in ("int64", "int32"):  # a cast that changes values
        return _as_bool(r) if out.dtype == "bool" else None  # (uint8 wraps)
    if op in _SAME_VALUES:
        return r
    if op in _SUBSET:
        return _subset(r, src, out, args)
    if op in ("clamp", "clip", "clamp_min", "clamp_max"):
        lo = kwargs.get("min", args[1] if len(args) > 1 else None)
        hi = kwargs.get("max", args[2] if len(args) > 2 else None)
        lo, hi = (None, lo) if op == "clamp_max" else (lo, hi)
        return clamp(r, lo if _ints(lo) else None, hi if _ints(hi) else None)
    other = kwargs.get("other", args[1] if len(args) > 1 else None)
    return _arith(op, r, other, reflected) if op in ("add", "sub", "mul", "remainder", "fmod") else None


_HOLDS = {"eq": lambda lo, hi, c: (lo == hi == c, c < lo or c > hi), "lt": lambda lo, hi, c: (hi < c, lo >= c),
          "le": lambda lo, hi, c: (hi <= c, lo > c), "gt": lambda lo, hi, c: (lo > c, hi <= c),
          "ge": lambda lo, hi, c: (lo >= c, hi < c)}
_SYNONYMS = {"less": "lt", "less_equal": "le", "greater": "gt", "greater_equal": "ge", "not_equal": "ne"}
_FLIPPED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


def _as_bool(r: ValueRange) -> ValueRange:
    """The values of a cast to bool: nonzero is 1; all of them when the bounds exclude 0, none when both are 0."""
    lo, hi = r.lo, r.hi
    if isinstance(lo, int) and isinstance(hi, int) and (lo > 0 or hi < 0 or lo == hi == 0):
        v = 0 if lo == hi == 0 else 1
        return ValueRange(v, v, True, None, r.origin, f"bool of {r.note}" if r.note else "")
    return ValueRange(0, 1, random=r.random)


def _compared(op: str, src: Tensor | None, other: Any, reflected: bool) -> ValueRange | None:
    """`t OP c` of a tensor whose values lie in known integer bounds and a number: all true ([1, 1]) or all
    false ([0, 0]) when the bounds decide it for every element (`mask.sum() == mask.numel()` of a mask of
    ones, transformers' `fast_all`); None when some may go each way."""
    if src is None or src.vrange is None or not _ints(src.vrange.lo, src.vrange.hi) \
            or not isinstance(other, (int, float)) or isinstance(other, bool) or other != other:
        return None
    op = _SYNONYMS.get(op, op)
    op = _FLIPPED.get(op, op) if reflected else op
    negate = op == "ne"
    rule = _HOLDS.get("eq" if negate else op)
    if rule is None:
        return None
    every, none = rule(src.vrange.lo, src.vrange.hi, other)
    every, none = (none, every) if negate else (every, none)
    v = 1 if every else 0 if none else None
    return None if v is None else ValueRange(v, v, True, None, src.vrange.origin, f"{op} of {src.vrange.note}")


def values_after(ctx: Any, name: str, rule: Any, out: Any, args: tuple, kwargs: dict) -> Any:
    """`out` of the model `name` with the value range the operation gives it (or a ranged scalar);
    `rule` is the value rule the model declared (a source, `Indices`, `SCALAR`) or None."""
    if rule == SCALAR and args and isinstance(args[0], Tensor):
        return scalar_of(ctx, args[0], out)
    if isinstance(out, ValuesIndices) and isinstance(rule, Indices):
        return _with_indices(ctx, name, rule, out, args, kwargs)
    if not isinstance(out, Tensor) or out.vrange is not None:
        _in_place(name, args)
        return out
    source: Callable[[Ctx, Tensor, tuple, dict], ValueRange | None] | None = rule if callable(rule) else None
    if source is not None and not out.is_int() and source not in _ANY_DTYPE:
        return out
    r = source(ctx, out, args, kwargs) if source is not None else _carried(name, out, args, kwargs)
    _in_place(name, args)
    return replace(out, vrange=r) if r is not None else out


def scalar_of(ctx: Ctx, t: Tensor, out: Any) -> Any:
    """`int(t)` / `t.item()` of a one-element tensor: its value when the range is one number, an
    input symbol over the range when the value is drawn at random, else what the model gave."""
    r = t.vrange if t.is_int() else None  # (a float's `.item()` is a float, whatever whole values it holds)
    if r is not None and isinstance(r.lo, Term) and r.lo == r.hi:
        return r.lo  # an element whose value is one symbol (`for i in ix: int(i)`)
    if r is None or not _ints(r.lo, r.hi):
        return out
    if r.lo == r.hi and r.attained:
        return r.lo
    if r.drawn is not None:  # after a constant seed: a fixed value, not computed (models/random_.py)
        return ctx.fresh("drawn", kind=UNKNOWN if r.seeded else INPUT, lo=r.lo, hi=r.hi, note=f"a size drawn by {r.note}")
    return out


def overwrite(target: Tensor, idx: Any, value: Any, region: tuple | None) -> None:
    """`target[idx] = value` writes in place: every alias of `target` sees the new values, so the
    range is updated on the (frozen, shared) tensor itself, and only ever widened. A write chosen by
    the values themselves (a mask, an index tensor) may be removing the bad ones: nothing is kept.
    A fixed region (`t[:, -3:] = 0`) adds the written values and overwrites that many draws."""
    r = target.vrange
    if r is None:
        return
    items = idx if isinstance(idx, tuple) else (idx,)
    v = value.vrange if isinstance(value, Tensor) else (ValueRange(value, value, True) if _ints(value) else None)
    new = None
    if v is not None and not any(isinstance(i, (Tensor, list)) for i in items):
        selected = _numel(Tensor(region)) if region is not None else None
        left = None if selected is None or r.drawn is None else r.drawn[2] - selected
        # draws left outside a known region still reach the old bounds; the written values occur
        draws_left = r.random and selected is not None and (left is None or left > 0)
        both = hull(r, v)
        new = replace(keep_draws(both, left), reachable=both.lo is not None and draws_left and v.possible)
    object.__setattr__(target, "vrange", new)


def in_place(name: str) -> bool:
    """An in-place method (`add_`, `clamp_`, `random_`, `+=`): it changes the values of its first operand."""
    last = name.rsplit(".", 1)[-1]
    return last.endswith("_") and not last.startswith("__") or last.startswith("__i") and _op_of(name)[0] != last


def _in_place(name: str, args: tuple) -> None:
    """An in-place method changes values every alias sees: forget them."""
    if args and isinstance(args[0], Tensor) and args[0].vrange is not None and in_place(name):
        object.__setattr__(args[0], "vrange", None)

