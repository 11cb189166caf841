"""Python built-ins (`len range min max sum enumerate zip isinstance ...`), built-in exception
classes and the decorators `staticmethod classmethod property`."""

from __future__ import annotations

import math
from typing import Any

from pytea_ci.models import ratios
from pytea_ci.models.context import Ctx
from pytea_ci.models.abc_kinds import abc_matches, enum_meta_matches
from pytea_ci.models.ranges import SCALAR, whole_order
from pytea_ci.models.set_order import ties as _ties, zip_positions as _zip_positions
from pytea_ci.models.type_union import TypeUnion, as_classinfo
from pytea_ci.models.registry import ONLY_MODELED, get, members, model, native_class, register
from pytea_ci.models.value_types import class_of, type_of
from pytea_ci.models.values import (MISSING, OBJECT_IDS, BoundMethod, Builtin, ClassMethod, ClassVal, EnumMember, Instance, IterVal,
                                    NamedTupleVal, Namespace, PartialVal, PropertyVal, RangeVal, StaticMethod, Unknown,
                                    is_concrete)
from pytea_ci.shapes.dim import ITERATION, UNKNOWN, Term, is_dim, mod, symbols
from pytea_ci.shapes.pred import Pred
from pytea_ci.shapes.tensor import Tensor


def _concrete(*vals: Any) -> bool:
    from pytea_ci.models.values import is_concrete

    return all(is_concrete(v) for v in vals)


# numpy's scalar types (registered as classes by models/numpy_/known.py, loaded only when a program uses numpy)
NUMPY_SCALARS = ("numpy.generic", "numpy.number", "numpy.integer", "numpy.signedinteger", "numpy.unsignedinteger",
                 "numpy.floating", "numpy.complexfloating")


@model("builtins.print", "builtins.input", "builtins.breakpoint", "builtins.help")
def print_(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return None


@model("builtins.len")
def len_(ctx: Ctx, obj: Any) -> Any:
    if isinstance(obj, (list, tuple, dict, set, str, frozenset)):
        items = ctx.members(obj) if not isinstance(obj, str) else obj
        if isinstance(obj, (list, tuple)):  # built in a loop not followed to its end: at least the items seen
            return len(obj) if items is not None else ctx.length_of(obj)
        concrete = sum(1 for k in obj if is_concrete(k))
        if items is not None and concrete == len(obj):
            return len(obj)
        # keys not known (symbolic keys may equal others), or some keys not seen: one number until it changes
        lo, hi = max(concrete, 1 if obj else 0), len(obj) if items is not None else None
        return ctx.dict_length(obj, lo, hi) if isinstance(obj, dict) else ctx.fresh("len", lo=lo, hi=hi)
    if isinstance(obj, RangeVal):
        if all(isinstance(v, int) for v in (obj.start, obj.stop, obj.step)):
            return len(range(obj.start, obj.stop, obj.step))
        return obj.stop - obj.start if obj.step == 1 else ctx.unknown("len(range)")
    if isinstance(obj, Tensor):
        return ctx.call(ctx.getattr(obj, "__len__"))
    if isinstance(obj, Instance):
        fn = ctx.getattr(obj, "__len__")
        return ctx.call(fn) if not isinstance(fn, Unknown) else fn
    if isinstance(obj, ClassVal) and (members := ctx.iterate(obj)) is not None:
        return len(members)  # an Enum class: its metaclass counts what it iterates
    from pytea_ci.models.random_ import length_of_read

    return length_of_read(ctx, obj)  # some int: len() always gives one


@model("builtins.range")
def range_(ctx: Ctx, *args: Any) -> Any:
    if not all(is_dim(a) for a in args):
        return IterVal([ctx.unknown("range bound")], truncated=True)
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) > 2 else 1)
    return RangeVal(start, stop, step)


def _seq_items(ctx: Ctx, v: Any, placeholder: bool = True) -> tuple[list[Any], bool, list[Any] | None]:
    """The items of `v`, whether some were left out, their positions when known. An iteration not
    followed has one placeholder item (what an iterator built on it, `enumerate`, `zip`, runs a loop
    with), or none when `placeholder` is false (a list built from it: its length may be 0)."""
    if isinstance(v, Instance):
        it = ctx.getattr(v, "__iter__")
        if not isinstance(it, Unknown):
            v = ctx.call(it)
    if isinstance(v, IterVal):
        return v.items, v.truncated, v.indices
    if not placeholder and isinstance(v, RangeVal) and not _concrete(v.start, v.stop, v.step):
        return [], True, None  # sizes not known: no item drawn, so nothing assumes the range non-empty
    # once: an iterator of the program (`__next__`) is used up by its iteration
    items, truncated = ctx.loop_items(v) if placeholder else ctx.iteration_of(v)
    return items, truncated, None


def _loop_index(ctx: Ctx, n: Any) -> Any:
    """The position of a representative item among `n` (all taken in every run: an iteration symbol
    in [0, n)); of unknown kind when `n` is not known."""
    if isinstance(n, int) and not isinstance(n, bool) and n > 0:
        return ctx.fresh("index", kind=ITERATION, lo=0, hi=int(n) - 1, note="a position in the loop")
    if isinstance(n, Term) and not any(s.kind == UNKNOWN for s in symbols(n)):
        return mod(ctx.fresh("index", kind=ITERATION, lo=0, note="a position in the loop"), n)
    return ctx.fresh("index")


@model("builtins.enumerate")
def enumerate_(ctx: Ctx, iterable: Any, start: Any = 0) -> Any:
    if (shuffled := ctx.shuffled(iterable)) is not None and (pairs := ctx.enumerated(shuffled, start)) is not None:
        return pairs  # each item with a position of its own, which one not known
    items, truncated, indices = _seq_items(ctx, iterable)
    if not truncated:
        return [(start + i, x) for i, x in enumerate(items)]
    n = iterable.shape[0] if isinstance(iterable, Tensor) and iterable.shape else ctx.known_length(iterable)
    idx = indices or [_loop_index(ctx, n) for _ in items]
    return IterVal([(start + i if is_dim(i) else i, x) for i, x in zip(idx, items)], truncated=True)


@model("builtins.zip")
def zip_(ctx: Ctx, *iterables: Any, **kwargs: Any) -> Any:
    from pytea_ci.models.iterables import Endless

    if (pairs := _zip_positions(ctx, iterables)) is not None:
        return pairs
    seen = {i: _seq_items(ctx, it) for i, it in enumerate(iterables) if not isinstance(it, Endless)}  # each once
    finite = list(seen.values())
    # an endless iterator beside finite ones: as many rows as the shortest
    n = min(len(p[0]) for p in finite) if finite and len(finite) < len(iterables) and not any(p[1] for p in finite) \
        else None
    parts = [seen[i] if i in seen else _seq_items(ctx, it if n is None else it.first(n))
             for i, it in enumerate(iterables)]
    if not any(p[1] for p in parts):
        return list(zip(*[p[0] for p in parts]))
    n = max(len(p[0]) for p in parts)
    rows = [tuple(p[0][min(i, len(p[0]) - 1)] if p[0] else ctx.unknown("zip") for p in parts) for i in range(n)]
    return IterVal(rows, truncated=True)


@model("builtins.reversed")
def reversed_(ctx: Ctx, seq: Any) -> Any:
    items, truncated, _ = _seq_items(ctx, seq)
    return IterVal(list(reversed(items)), truncated=True) if truncated else list(reversed(items))


@model("builtins.sorted")
def sorted_(ctx: Ctx, iterable: Any, key: Any = None, reverse: Any = False) -> Any:
    """The items in CPython's (stable) order, compared as the program compares them (keys, `__lt__`);
    when a comparison is not decided, the same items in an order not known (never the given one)."""
    shuffled = ctx.shuffled(iterable)  # items in an order not known: sorted, the order is the items' own
    items, truncated, _ = (shuffled, False, None) if shuffled is not None else _seq_items(ctx, iterable)
    if truncated:
        n = ctx.source_count(iterable)  # data read at run time: the same items (representatives), reordered
        return ctx.sized_items(list(items), n) if n is not None and items else ctx.unknown("sorted of unknown values")
    if key is None and shuffled is not None and len(set(items)) == len(items) and isinstance(reverse, bool) \
            and (whole := whole_order(items)) is not None and len(items) == whole[1] - whole[0] + 1:
        return sorted(range(whole[0], whole[1] + 1), reverse=reverse)  # every position of one order, once each
    if key is None and _concrete(items) and isinstance(reverse, bool):
        try:
            out = sorted(items, reverse=reverse)
        except TypeError:
            return ctx.unknown("sorted")
        return out if shuffled is None or not _ties(out, out) else ctx.unordered_list(out)
    keys = [ctx.call(key, x) for x in items] if key is not None else list(items)
    order = None
    if isinstance(reverse, bool) and key is not None and all(_concrete(k) for k in keys):
        try:  # plain keys (open_clip's `_natural_key` of 144 config names): CPython's own stable sort of them
            order = sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse)
        except TypeError:
            ctx.user_error("TypeError", "sorted")  # keys CPython cannot compare: its TypeError
    if order is None and isinstance(reverse, bool) and len(items) <= 64:
        order = _stable_order(ctx, keys, reverse)
    if order is None:
        return ctx.sized_items(list(items), len(items))
    out = [items[i] for i in order]
    return out if shuffled is None or not _ties([keys[i] for i in order], out) else ctx.unordered_list(out)


def _stable_order(ctx: Ctx, keys: list[Any], reverse: bool) -> "list[int] | None":
    """Positions of `keys` in sorted order (insertion sort, stable as CPython's), None when a
    comparison the order depends on is not decided."""
    out: list[int] = []
    for i in range(len(keys)):
        at = len(out)
        while at > 0:
            a, b = (keys[out[at - 1]], keys[i]) if reverse else (keys[i], keys[out[at - 1]])
            before = ctx.compare_values("lt", a, b)
            if not isinstance(before, bool):
                return None
            if not before:
                break
            at -= 1
        out.insert(at, i)
    return out


@model("builtins.list")
def list_(ctx: Ctx, iterable: Any = ()) -> Any:
    if (shuffled := ctx.shuffled(iterable)) is not None:
        return ctx.unordered_list(shuffled)
    items, truncated, _ = _seq_items(ctx, iterable, placeholder=False)
    out = list(items)
    if truncated:
        n = ctx.known_length(iterable)  # `list(range(w, 4))`: max(4 - w, 0) items
        if n is None and isinstance(iterable, IterVal) and iterable.certain is not None:
            # a generator's: at least what it yields outside its loops' representative iterations
            n = ctx.fresh("len", lo=iterable.certain, note="items of a generator whose loops were not followed to their end")
        if n is not None:
            return ctx.sized_items(out, n)
        n = ctx.source_count(iterable)  # data read at run time: an input count of items, represented by one
        if n is not None:
            return ctx.sized_items(out or ctx.loop_items(iterable)[0], n)
        ctx.mark_inexact(out)
    return out


@model("builtins.tuple")
def tuple_(ctx: Ctx, iterable: Any = ()) -> Any:
    if (shuffled := ctx.shuffled(iterable)) is not None:
        return ctx.unordered_list(shuffled, tuple)
    source = _iterated(ctx, iterable)
    items, truncated, _ = _seq_items(ctx, source)
    if not truncated:
        return tuple(items)
    if isinstance(source, Unknown) or not items:
        return ctx.unknown("tuple of a sequence of unknown length")
    # representatives of the items (a ModuleList appended to in a loop not followed one by one), as `list()`
    # of it gives: a tuple holding only some of its items, of the known length when there is one
    out = tuple(items)
    n = ctx.known_length(source)
    if n is not None:
        return ctx.sized_items(out, n)
    ctx.mark_inexact(out)
    return out


@model("builtins.set", "builtins.frozenset")
def set_(ctx: Ctx, iterable: Any = ()) -> Any:
    if (shuffled := ctx.shuffled(iterable)) is not None:
        return ctx.unordered_set(shuffled)  # added in an order not known: iterated in one not known
    items, truncated, _ = _seq_items(ctx, iterable)
    try:
        return ctx.unknown("set of unknown items") if truncated else set(items)
    except TypeError:
        return ctx.unknown("set of unhashable items")


@model("builtins.sum")
def sum_(ctx: Ctx, iterable: Any, start: Any = 0) -> Any:
    items = ctx.iterate(iterable)
    if items is None and (shuffled := ctx.shuffled(iterable)) is not None and all(is_dim(x) for x in shuffled):
        items = shuffled  # integers add up the same in any order (floats round by it)
        whole = whole_order(items) if len(set(items)) == len(items) else None
        if whole is not None and len(items) == whole[1] - whole[0] + 1:  # every position of one order once
            return start + sum(range(whole[0], whole[1] + 1)) if is_dim(start) else ctx.unknown("sum")
    if items is None:
        return ctx.unknown("sum of unknown")
    if all(is_dim(x) or isinstance(x, float) for x in items) and (is_dim(start) or isinstance(start, float)):
        total = start
        for x in items:
            total = total + x
        return total
    if items and all(isinstance(x, Tensor) for x in items):
        total = items[0]
        for x in items[1:]:
            total = ctx.call(ctx.getattr(total, "__add__"), x)
        return total
    return ctx.unknown("sum")


@model("builtins.abs")
def abs_(ctx: Ctx, x: Any) -> Any:
    if isinstance(x, Tensor):
        return x
    return abs(x) if _concrete(x) else ctx.unknown("abs")


@model("builtins.int", values=SCALAR)
def int_(ctx: Ctx, x: Any = 0, *args: Any) -> Any:
    if isinstance(x, Term):
        return x
    if isinstance(x, Tensor):
        if x.shape is not None:
            from pytea_ci.shapes import pred as P
            from pytea_ci.shapes.dim import prod

            ctx.require(P.eq(prod(x.shape), 1), "int", f"only one element tensors can be converted to Python scalars "
                        f"(shape {list(x.shape)!r})")
        return ctx.fresh("int")
    if not args and (v := ratios.integer(ctx, x, "trunc")) is not None:
        return v  # `int((size - k) / s + 1)`: a size again (models/ratios.py)
    if isinstance(x, Unknown) and not args:
        from pytea_ci.models.random_ import read_int

        return read_int(ctx, x)  # int() always gives an int
    if _concrete(x, *args):
        try:
            return int(x, *args)
        except (ValueError, TypeError):
            ctx.user_error("ValueError", "int()")
    return ctx.unknown("int of unknown")


@model("builtins.complex")
def complex_(ctx: Ctx, real: Any = 0, imag: Any = 0) -> Any:
    """A class of its own (not `float`'s model: `complex(3)` is `(3+0j)`, and `str(complex)` is its own)."""
    if _concrete(real, imag):
        try:
            return complex(real, imag)
        except (ValueError, TypeError):
            ctx.user_error("TypeError", "complex()")
    return ctx.unknown("complex value")


@model("builtins.float")
def float_(ctx: Ctx, x: Any = 0.0) -> Any:
    if _concrete(x):
        try:
            return float(x)
        except (ValueError, TypeError):
            ctx.user_error("ValueError", "float()")
    if isinstance(x, Unknown) and x.bounds is not None and x.pytype == "float":
        return x  # a float known within bounds stays one
    return Unknown("float value", pytype="float")


@model("builtins.round")
def round_(ctx: Ctx, x: Any, n: Any = None) -> Any:
    return (round(x) if n is None else round(x, n)) if _concrete(x, n) else ctx.unknown("round")


@model("builtins.divmod")
def divmod_(ctx: Ctx, a: Any, b: Any) -> Any:
    if is_dim(a) and is_dim(b):
        return (a // b, a % b)
    return divmod(a, b) if _concrete(a, b) else (ctx.unknown("divmod"), ctx.unknown("divmod"))


@model("builtins.pow")
def pow_(ctx: Ctx, base: Any, exp: Any, mod: Any = None) -> Any:
    """`pow(base, exp)` is `base ** exp`, with the operator's rules (sizes, a tensor's `__pow__`, a power too
    large to compute is not known); `pow(base, exp, mod)` CPython's own of known ints, its errors (a zero
    modulus, a negative exponent with no inverse) raised as CPython raises them; else not known."""
    if mod is None:
        return ctx.binary_values("pow", base, exp)
    if _concrete(base, exp, mod) and all(isinstance(v, int) for v in (base, exp, mod)):
        try:
            return pow(int(base), int(exp), int(mod))
        except (ValueError, ZeroDivisionError) as e:
            ctx.user_error(type(e).__name__, str(e))
    return ctx.unknown("pow with a modulus")


@model("builtins.bool")
def bool_(ctx: Ctx, x: Any = False) -> Any:
    if isinstance(x, (list, tuple, dict, set, frozenset)) and ctx.iterate(x) is None:
        return Unknown("bool value", pytype="bool")  # holding only some of its items: maybe empty, maybe not
    if _concrete(x):
        return bool(x)
    t = ctx.truth_of(x)  # an object: its `__bool__`/`__len__`, else True (`bool(re.match(...))`)
    return t if isinstance(t, bool) else Unknown("bool value", pytype="bool")


@model("builtins.dict")
def dict_(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    out: dict[Any, Any] = {}
    if args:
        if isinstance(args[0], dict):
            out.update(args[0])
        else:
            items = ctx.iterate(args[0])
            if items is None:
                return ctx.unknown("dict of unknown items")
            try:
                out.update(items)
            except (TypeError, ValueError):
                return ctx.unknown("dict")
    out.update(kwargs)
    return out


def _type_matches(value: Any, t: Any) -> Any:
    if isinstance(t, TypeUnion):  # `list | tuple`, `int | None`: its members, as a tuple of them
        t = as_classinfo(t)
    if isinstance(t, tuple):
        results = [_type_matches(value, x) for x in t]
        return True if True in results else (None if None in results else False)
    if isinstance(value, Unknown):
        return None
    if getattr(type(value), "python_function", False):  # a function or lambda of the program (interp's FunctionVal)
        if isinstance(t, Builtin) and t.name in _CALLABLE_TYPES:
            return t.name in ("types.FunctionType", "types.LambdaType")
        if isinstance(t, ClassVal) and t.native and t.qualname.startswith("torch."):
            return False  # `isinstance(d, nn.Module)` of a lambda (x-transformers' `default`)
    if isinstance(t, ClassVal) and t.native and t.qualname in _CLASS_ABCS:  # models/abc_mapping.py, abc_sequence.py
        if isinstance(value, Instance):
            return True if t in value.cls.mro() else None
        if t.qualname.endswith("MutableMapping") and isinstance(value, dict):
            return True
        return abc_matches(value, t.qualname.rsplit(".", 1)[-1])
    if isinstance(t, ClassVal) and isinstance(value, EnumMember) and value.owner is not None:
        return t in value.owner.mro()  # `isinstance(Kind.SDPA, Kind)` of an int- or str-valued enum
    if isinstance(t, ClassVal) and t.native and t.qualname in NUMPY_SCALARS and (value is None or isinstance(
            value, (tuple, list, dict, set, frozenset, str)) or isinstance(value, Tensor) and value.lib == "torch"):
        return False  # numpy's scalar types hold none of these (a Python number may stand for a numpy scalar)
    if isinstance(t, ClassVal) and t.native and t.qualname == "types.NoneType":
        return value is None  # `isinstance(None, type(None))`
    if isinstance(t, ClassVal) and t.native and t.lookup(ONLY_MODELED) is True:
        return isinstance(value, Instance) and t in value.cls.mro()  # `isinstance(Tensor, typing.TypeVar)`
    if isinstance(t, ClassVal):
        if isinstance(value, NamedTupleVal) and t in value.cls.mro():
            return True
        if isinstance(value, Instance):
            return t in value.cls.mro() or None if t.qualname.startswith(("builtins.",)) else t in value.cls.mro()
        if value is None or (t.qualname.startswith("torch.") and (
                isinstance(value, (bool, int, float, str, tuple, list, PartialVal, ClassVal)) or is_dim(value))):
            # None, or a plain Python value, a `functools.partial` object or a class (an instance of its
            # metaclass, `type`) tested against a torch class (`nn.Module`): timm's `get_attn(partial(SE, ...))`
            return False
        if t.native and t.qualname.startswith("torch.") and isinstance(value, Tensor) and class_of(value) is not None:
            return False  # a tensor of a class known exactly (`torch.Tensor`): no modeled torch class is its base
        return False if not t.native else None
    if isinstance(t, Builtin) and t.name.startswith("collections.abc."):  # models/abc_kinds.py
        return abc_matches(value, t.name.rsplit(".", 1)[-1])
    if isinstance(t, Builtin) and t.name == "enum.EnumMeta":
        return enum_meta_matches(value)
    if isinstance(t, Builtin) and t.name == "builtins.property" and isinstance(value, PropertyVal):
        return True
    # a program class deriving from `dict`/`OrderedDict` or `property` (models/dict_subclass.py, property_base.py)
    base = get(f"{t.name}.__base__") if isinstance(t, Builtin) else None
    if isinstance(base, ClassVal) and isinstance(value, Instance) and base in value.cls.mro():
        return True
    if isinstance(t, Builtin) and t.name == "torch.nn.Parameter":
        return value.param if isinstance(value, Tensor) else None
    if isinstance(t, Builtin) and t.name in _CALLABLE_TYPES and (
            value is None or isinstance(value, _PLAIN_VALUES) or is_dim(value)):
        return False  # a str, number, container or None is never a class, function, method or partial
    if isinstance(t, Builtin) and t.name in _CALLABLE_TYPES and isinstance(value, (ClassVal, Builtin)):
        # a class is an instance of `type` only; a modeled `functools.partial` object is a Builtin of that name
        if isinstance(value, ClassVal):
            return t.name == "builtins.type"
        return True if value.name == t.name == "functools.partial" else None
    if isinstance(t, Builtin):
        py = {"builtins.int": int, "builtins.float": float, "builtins.str": str, "builtins.list": list,
              "builtins.tuple": tuple, "builtins.dict": dict, "builtins.bool": bool, "builtins.set": set,
              "builtins.frozenset": frozenset, "builtins.slice": slice, "builtins.bytes": bytes}.get(t.name)
        if py is None:
            return None
        if is_dim(value):
            return py is int or (py is float and False)
        return isinstance(value, py)
    if isinstance(t, Namespace) and t.qualname in ("torch.Tensor", "numpy.ndarray"):
        if isinstance(value, Tensor):  # an ndarray is not a torch.Tensor, nor the other way round
            return value.lib == ("numpy" if t.qualname == "numpy.ndarray" else "torch")
        return t.qualname == "numpy.ndarray" and isinstance(value, Instance) and value.cls.qualname == \
            "builtins.KnownArray"  # a small array of known numbers (models/numpy_/known.py)
    return None


_PLAIN_VALUES = (bool, int, float, complex, str, bytes, tuple, list, dict, set, frozenset)
_CALLABLE_TYPES = ("builtins.type", "functools.partial", "types.FunctionType", "types.MethodType",
                   "types.LambdaType", "types.BuiltinFunctionType")
_ABCS = ("collections.abc.Iterable", "collections.abc.Sequence", "collections.abc.Mapping")


def _abc_class(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return ctx.unknown("instance of an abstract base class")


_CLASS_ABCS = ("collections.abc.Mapping", "collections.abc.MutableMapping", "collections.abc.Sequence")
for _name in _ABCS:
    if _name not in _CLASS_ABCS:  # classes a program derives from (models/abc_mapping.py, abc_sequence.py)
        register(_name, Builtin(_name, _abc_class))


@model("builtins.isinstance", "torch.jit.isinstance")  # (TorchScript's refinement: isinstance when run eagerly)
def isinstance_(ctx: Ctx, obj: Any, classinfo: Any) -> Any:
    r = _type_matches(obj, classinfo)
    return ctx.unknown("isinstance") if r is None else r


@model("builtins.issubclass")
def issubclass_(ctx: Ctx, cls: Any, classinfo: Any) -> Any:
    if isinstance(cls, ClassVal) and isinstance(classinfo, ClassVal):
        return classinfo in cls.mro()
    return ctx.unknown("issubclass")


@model("builtins.callable")
def callable_(ctx: Ctx, obj: Any) -> Any:
    return not isinstance(obj, (int, float, str, list, tuple, dict, Tensor)) if not isinstance(obj, Unknown) else obj


@model("builtins.any")
def any_(ctx: Ctx, iterable: Any) -> Any:
    items = ctx.members(iterable)
    return _any_all(ctx, items, True)


@model("builtins.all")
def all_(ctx: Ctx, iterable: Any) -> Any:
    items = ctx.members(iterable)
    return _any_all(ctx, items, False)


def _any_all(ctx: Ctx, items: "list[Any] | None", is_any: bool) -> Any:
    """`any`/`all` of `items`: decided as soon as one known item decides it (`any([x, 4])` is True
    whatever x is), as CPython's short circuit does; unknown when only unknown items could."""
    if items is None:
        return ctx.unknown("any" if is_any else "all")
    undecided = False
    for v in items:
        t = bool(v) if _concrete(v) else ctx.truth_of(v)  # an object's truth as a branch sees it (a match)
        if t is is_any:
            return is_any
        undecided = undecided or not isinstance(t, bool)
    return ctx.unknown("any" if is_any else "all") if undecided else not is_any


HELD = "iterator held"  # Ctx.facts key: set while `iter(obj)` runs `obj.__iter__` (read by models of `__iter__`)


@model("builtins.iter")
def iter_(ctx: Ctx, obj: Any, *args: Any) -> Any:
    """An iterator the program holds: it may take only some items of it (`next(iter(loader))` is the first
    batch, not every one), so an `__iter__` whose representatives stand for every item sees `HELD` set."""
    if (shuffled := ctx.shuffled(obj)) is not None:
        return IterVal(shuffled, truncated=True, unordered=True)
    before = ctx.facts.get(HELD, False)
    ctx.facts[HELD] = True
    try:
        items, truncated, idx = _seq_items(ctx, obj)
    finally:
        ctx.facts[HELD] = before
    return IterVal(list(items), truncated, idx) if truncated else list(items)


@model("builtins.next")
def next_(ctx: Ctx, it: Any, *default: Any) -> Any:
    followed, item = ctx.next_item(it)
    if followed:
        return item if item is not MISSING else (default[0] if default else ctx.user_error("StopIteration", "next"))
    items, truncated, _ = _seq_items(ctx, it)
    if truncated and (not items or ctx.shuffled(it) is not None
                      or isinstance(items[0], Term) and any(s.kind == ITERATION for s in symbols(items[0]))):
        # not one item known, or a number that stands for every iteration's (a loop index): not the first
        return ctx.unknown("next of an iteration not followed")
    return items[0] if items else (default[0] if default else ctx.user_error("StopIteration", "next"))


@model("builtins.map")
def map_(ctx: Ctx, fn: Any, *iterables: Any) -> Any:
    if len(iterables) == 1 and not isinstance(iterables[0], Unknown):
        source = _iterated(ctx, iterables[0])
        items, truncated = ctx.iteration_of(source)
        if truncated and items:
            # representatives of the items (a ModuleList appended to in a loop not followed one by one): the
            # function of each, representatives of the result, as a comprehension over it gives
            out = [ctx.call(fn, item) for item in items]
            n = ctx.known_length(source)
            if n is not None:
                return ctx.sized_items(out, n)
            ctx.mark_inexact(out)
            return out
        iterables = (source,)
    parts = [ctx.iterate(i) for i in iterables]
    if any(p is None for p in parts):
        return ctx.unknown("map over unknown")
    return [ctx.call(fn, *row) for row in zip(*parts)]  # type: ignore[arg-type]


def _iterated(ctx: Ctx, v: Any) -> Any:
    """What iterating `v` iterates: an object's `__iter__` result (a ModuleList's layers), called once."""
    if isinstance(v, Instance):
        it = ctx.getattr(v, "__iter__")
        if not isinstance(it, Unknown):
            return ctx.call(it)
    return v


@model("builtins.filter")
def filter_(ctx: Ctx, fn: Any, iterable: Any) -> Any:
    """The items `fn` keeps (the true items when `fn` is None), as a list: `tuple(filter(exists,
    (a, b)))`. A verdict that depends on a size forks; one not understood keeps the item as a
    representative of a list whose length is not known."""
    items = ctx.iterate(iterable)
    if items is None:
        return ctx.unknown("filter over an iterable not understood")
    out: list[Any] = []
    exact = True
    for item in items:
        verdict = item if fn is None else ctx.call(fn, item)
        if isinstance(verdict, Pred):
            keep = ctx.fork(verdict)
        elif is_concrete(verdict) and not isinstance(verdict, (Tensor, Term)):
            keep = bool(verdict)
        else:
            keep, exact = True, False
        if keep:
            out.append(item)
    if not exact:
        ctx.mark_inexact(out)
    return out


@model("builtins.vars")
def vars_(ctx: Ctx, *obj: Any) -> Any:
    """The attribute dict itself (`vars(args)`, `vars(module)`), as Python gives it; `vars()` is unknown. Of a
    module of `torch.nn.modules` (`vars(torch.nn.modules.activation)`: torch_geometric's `activation_resolver`),
    a dict holding only some of its items: its `torch.nn` module classes, in torch's order (`LAYER_MODULES`)."""
    if len(obj) != 1 or isinstance(obj[0], Unknown):
        return ctx.unknown("vars()")
    from pytea_ci.models.torch.tensor_attrs import LAYER_MODULES

    if isinstance(obj[0], Namespace) and (layers := LAYER_MODULES.get(obj[0].qualname)) is not None:
        classes = {name: ctx.getattr(obj[0], name) for name in layers}
        ctx.mark_inexact(classes)  # type: ignore[arg-type]
        return classes
    found = ctx.getattr(obj[0], "__dict__")
    return found if isinstance(found, dict) else ctx.unknown("vars of a value without a known __dict__")


@model("builtins.dir")
def dir_(ctx: Ctx, *args: Any) -> Any:
    """`dir(module)` of a modeled library: the names the models know under it, a list holding only some
    of its items (`'silu' in dir(torch.nn.functional)` is True; a name not modeled is not known)."""
    if len(args) == 1 and isinstance(args[0], Namespace):
        names = members(args[0].qualname)
        ctx.mark_inexact(names)
        return names
    return ctx.unknown("opaque builtin")


@model("builtins.id")
def id_(ctx: Ctx, obj: Any) -> Any:
    """`id(obj)` of an object of the program (an instance, a list, dict or set, a class of the program): an
    int not known, the same one each time for the same object on this path (`Ctx.facts[OBJECT_IDS]`,
    copied with the path's objects), so a dict keyed by ids finds what was stored under the object's id
    (kernels keeps a forward's kernel functions so: `funcs[id(fn)]`, `funcs.get(id(self))`); ids of two
    such objects differ (`_key_unsure`). Of a value whose identity Python leaves to the implementation
    (numbers, strings, tuples) or of anything else: an int not known, each time another."""
    if not isinstance(obj, (Instance, list, dict, set)) and not (isinstance(obj, ClassVal) and not obj.native):
        return Unknown("id", pytype="int")
    taken = ctx.facts.setdefault(OBJECT_IDS, [])
    for o, i in taken:
        if o is obj:
            return i
    i = ctx.unknown("id of an object")  # (born with its origin: a model's result is not replaced by a copy)
    i.pytype = "int"
    taken.append((obj, i))
    return i


@model("builtins.hash", "builtins.globals", "builtins.locals",
       "builtins.eval", "builtins.exec", "builtins.compile", "builtins.memoryview",
       "builtins.bytearray", "builtins.object_new")
def opaque(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return ctx.unknown("opaque builtin")


@model("builtins.bytes")  # a name of its own: `isinstance(x, (str, bytes))` tests it
def bytes_(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return ctx.unknown("opaque builtin")


@model("builtins.slice")
def slice_(ctx: Ctx, *args: Any) -> Any:
    """`slice(stop)`, `slice(start, stop[, step])`: the slice a subscript `a[start:stop:step]` makes
    (a class of its own, so `isinstance(i, slice)` is decided)."""
    if not 1 <= len(args) <= 3:
        ctx.user_error("TypeError", f"slice expected at most 3 arguments, got {len(args)}")
    return slice(*args)


@model("builtins.type")
def type_(ctx: Ctx, obj: Any, *args: Any) -> Any:
    """`type(obj)`: an object's class, or a plain value's or a tensor's where it is known exactly
    (`models/value_types.py`); the three-argument form makes a class not followed."""
    if args:
        return ctx.unknown("type()")
    if isinstance(obj, (Instance, NamedTupleVal)):
        return obj.cls
    found = type_of(obj)
    return ctx.unknown("type()") if found is None else found


@model("builtins.staticmethod")
def staticmethod_(ctx: Ctx, fn: Any) -> Any:
    return StaticMethod(fn)


@model("builtins.classmethod")
def classmethod_(ctx: Ctx, fn: Any) -> Any:
    return ClassMethod(fn)


@model("builtins.property", "functools.cached_property")
def property_(ctx: Ctx, fget: Any = None, *args: Any, **kwargs: Any) -> Any:
    return PropertyVal(fget)


@native_class("builtins.object", identity_eq=True)
class object_:
    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        return None

    def __setattr__(ctx: Ctx, self: Any, name: Any, value: Any) -> None:  # type: ignore[override]  # noqa: N805
        """`object.__setattr__(self, name, v)`: how frozen dataclasses set their fields."""
        if isinstance(self, Instance) and isinstance(name, str):
            self.attrs[name] = value

    def __getattribute__(ctx: Ctx, self: Any, name: Any) -> Any:  # type: ignore[override]  # noqa: N805
        """`super().__getattribute__(name)` in a class that overrides it or `__getattr__` (transformers'
        configs, monai's factories): the plain lookup, instance attributes then the class's, never
        `__getattr__`."""
        if not isinstance(name, str):
            return ctx.unknown("attribute of a name not known")
        return ctx.plain_attr(self, name, fallback=False) if isinstance(self, Instance) else ctx.getattr(self, name)


def _object_new(ctx: Ctx, cls: Any = None, *args: Any, **kwargs: Any) -> Any:
    """`object.__new__(cls)` (`super().__new__(cls)` in a class's own `__new__`): a new instance of a program's
    class, no `__init__` run; of a native class, not known."""
    if isinstance(cls, ClassVal) and not cls.native:
        return Instance(cls)
    return ctx.unknown("object.__new__ of a class not followed")


_OBJECT: ClassVal = object_  # type: ignore[assignment]  # the decorator made it the native class
_OBJECT.ns["__new__"] = StaticMethod(Builtin("builtins.object.__new__", _object_new))  # static, as CPython's


_EXC_TREE = {
    "BaseException": None, "Exception": "BaseException", "KeyboardInterrupt": "BaseException",
    "SystemExit": "BaseException", "ArithmeticError": "Exception", "ZeroDivisionError": "ArithmeticError",
    "OverflowError": "ArithmeticError", "LookupError": "Exception", "IndexError": "LookupError",
    "KeyError": "LookupError", "ValueError": "Exception", "TypeError": "Exception", "RuntimeError": "Exception",
    "NotImplementedError": "RuntimeError", "RecursionError": "RuntimeError", "AttributeError": "Exception",
    "NameError": "Exception", "OSError": "Exception", "IOError": "Exception", "FileNotFoundError": "OSError",
    "PermissionError": "OSError", "FileExistsError": "OSError", "ImportError": "Exception",
    "ModuleNotFoundError": "ImportError", "AssertionError": "Exception", "StopIteration": "Exception",
    "UnicodeError": "ValueError", "UnicodeDecodeError": "UnicodeError", "Warning": "Exception",
    "UserWarning": "Warning", "DeprecationWarning": "Warning", "RuntimeWarning": "Warning", "EOFError": "Exception",
    "TimeoutError": "OSError", "ConnectionError": "OSError", "StopAsyncIteration": "Exception",
    "MemoryError": "Exception", "SystemError": "Exception",
}


def _exc_init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
    self.attrs["args"] = args


def _register_exceptions() -> None:
    classes: dict[str, ClassVal] = {}
    for name, parent in _EXC_TREE.items():
        bases = (classes[parent],) if parent else ()
        cls = ClassVal(name, bases, {"__init__": Builtin(f"builtins.{name}.__init__", _exc_init)}, f"builtins.{name}", True)
        classes[name] = cls
        register(f"builtins.{name}", cls)


_register_exceptions()
register("builtins.NotImplemented", None)
register("builtins.Ellipsis", Ellipsis)
register("builtins.__debug__", True)

_ = (math, BoundMethod)

