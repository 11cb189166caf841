"""The standard-library modules training scripts touch: math, os, sys, random, time, functools,
copy, collections, logging, warnings, json, typing, itertools, keyword. Pure functions on concrete values run
as Python would; anything with effects or unknown inputs is a no-op or Unknown."""

from __future__ import annotations

import builtins as py_builtins
import dataclasses
import keyword
import math
import os
import posixpath
from collections.abc import Callable
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.datamodel import named_tuple_value
from pytea_ci.models.prim import is_number
from pytea_ci.models import ratios
from pytea_ci.models.registry import model, native_class, prop, register
from pytea_ci.models.values import Builtin, ClassVal, GeneratorCM, Instance, PartialVal, Unknown
from pytea_ci.shapes.dim import is_dim


def _concrete(*vals: Any) -> bool:
    return all(isinstance(v, (int, float)) and not hasattr(v, "op") for v in vals)


_KIND = {"gcd": "int", "isqrt": "int", "factorial": "int", "comb": "int", "perm": "int", "lcm": "int", "trunc": "int",
         "isclose": "bool", "isfinite": "bool", "isnan": "bool", "isinf": "bool"}


def _pure_math(name: str) -> Any:
    fn = getattr(math, name)

    def run(ctx: Ctx, *args: Any) -> Any:
        if name in ("prod", "fsum") and args and not isinstance(args[0], (int, float)):  # over an iterable
            items = ctx.iterate(args[0])
            if items is None or not _concrete(*items, *args[1:]):
                return ctx.unknown(f"math.{name} of items not known")
            args = (items, *args[1:])
        elif not all(isinstance(a, (int, float)) for a in args) or any(isinstance(a, bool) for a in args):
            out = ctx.unknown(f"math.{name}")
            if isinstance(out, Unknown) and args and all(is_number(a) for a in args):  # `math.sqrt(d_head)`: still a number
                out.pytype = _KIND.get(name, "float")
            return out
        try:
            return fn(*args)
        except (ValueError, OverflowError, TypeError) as e:
            ctx.user_error(type(e).__name__, name)
            return ctx.unknown(f"math.{name}")

    return run


for _name in ("sqrt", "log", "log2", "log10", "exp", "sin", "cos", "tan", "atan", "atan2", "pow", "fabs",
              "prod", "gcd", "isqrt", "factorial", "trunc", "hypot", "isclose", "isfinite", "isnan", "isinf",
              "radians", "degrees", "comb", "perm", "lcm", "fsum", "erf", "erfc", "gamma", "lgamma", "asin",
              "acos", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "expm1", "log1p", "copysign", "fmod",
              "remainder", "ldexp"):
    register(f"math.{_name}", Builtin(f"math.{_name}", _pure_math(_name)))
for _name, _val in (("pi", math.pi), ("e", math.e), ("inf", math.inf), ("nan", math.nan), ("tau", math.tau)):
    register(f"math.{_name}", _val)


def _pure_keyword(name: str) -> Any:
    """`keyword.iskeyword`/`issoftkeyword` of a known string, as the running Python answers (a registry
    checking that a name is an identifier, monai's `is_variable`, decides its guard)."""
    fn = getattr(keyword, name)

    def run(ctx: Ctx, s: Any) -> Any:
        return fn(s) if isinstance(s, str) else ctx.unknown(f"keyword.{name}")

    return run


for _name in ("iskeyword", "issoftkeyword"):
    register(f"keyword.{_name}", Builtin(f"keyword.{_name}", _pure_keyword(_name)))
register("keyword.kwlist", list(keyword.kwlist))
register("keyword.softkwlist", list(keyword.softkwlist))


@model("math.ceil")
def ceil(ctx: Ctx, x: Any) -> Any:
    """Of a number; of a float from sizes (`math.ceil(d_model / 16)`) the size `ceildiv(a, b)`, exactly
    (models/ratios.py)."""
    if isinstance(x, (int, float)) and not hasattr(x, "op"):
        return math.ceil(x)
    if (v := ratios.integer(ctx, x, "ceil")) is not None:
        return v
    return x if is_dim(x) else ctx.unknown("math.ceil")


@model("math.floor")
def floor(ctx: Ctx, x: Any) -> Any:
    """Of a number; of a float from sizes the size `a // b`, exactly (models/ratios.py)."""
    if isinstance(x, (int, float)) and not hasattr(x, "op"):
        return math.floor(x)
    if (v := ratios.integer(ctx, x, "floor")) is not None:
        return v
    return x if is_dim(x) else ctx.unknown("math.floor")


@model("os.path.abspath", "os.path.expanduser", "os.path.realpath", "os.getcwd", "time.strftime", "json.dumps")
def path_string(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return Unknown("string", pytype="str")


def _pure_path(fn: Callable[..., Any]) -> Callable[..., Any]:
    """String operations on known paths are computed (so a program's data file can be found: a config
    next to `__file__`); anything else gives a string of unknown value."""

    def run(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
        if args and not kwargs and all(isinstance(a, str) for a in args):
            try:
                return fn(*args)
            except TypeError:
                pass
        return ctx.unknown(f"os.path.{fn.__name__}") if fn is posixpath.splitext else Unknown("string", pytype="str")

    return run


for _fn in (posixpath.basename, posixpath.dirname, posixpath.splitext):  # os.path.join: models/saved.py
    register(f"os.path.{_fn.__name__}", Builtin(f"os.path.{_fn.__name__}", _pure_path(_fn)))


_KINDS = {"os.path.exists": ("file", "folder"), "os.path.isdir": ("folder",), "os.path.isfile": ("file",)}


def _path_test(name: str) -> Any:
    def run(ctx: Ctx, path: Any = None, *args: Any, **kwargs: Any) -> Any:
        """Answered for the data of the installed package whose code runs (models/pathlib_.py), else not known."""
        found = ctx.data_kind(path) if isinstance(path, str) and os.path.isabs(path) and not args else None
        return found in _KINDS[name] if found is not None else Unknown("file test", pytype="bool")

    return run


for _test_name in _KINDS:
    register(_test_name, Builtin(_test_name, _path_test(_test_name)))


@model("time.time", "time.perf_counter", "time.monotonic", "time.process_time")
def a_float(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return Unknown("a number", pytype="float")


@model("datetime.datetime.now",
       "os.path.getsize", "shutil.copy", "operator.itemgetter")
def effect(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return ctx.unknown("standard library value")


@model("os.makedirs", "os.mkdir", "os.remove", "os.chdir", "time.sleep",
       "warnings.warn", "warnings.filterwarnings", "warnings.simplefilter", "logging.basicConfig", "logging.info",
       "logging.debug", "logging.warning", "logging.error", "logging.critical", "logging.exception",
       "json.dump", "pickle.dump", "shutil.rmtree", "matplotlib.pyplot.plot", "matplotlib.pyplot.savefig",
       "matplotlib.pyplot.show", "matplotlib.pyplot.figure", "matplotlib.pyplot.close", "matplotlib.use",
       "matplotlib.pyplot.imshow", "matplotlib.pyplot.title", "matplotlib.pyplot.subplot")
def no_effect(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return None


@model("logging.getLogger")
def get_logger(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    from pytea_ci.models.values import Instance

    return Instance(_Logger)


def _logger_class() -> Any:
    from pytea_ci.models.registry import native_class

    def noop(ctx: Ctx, self: Any, *args: Any, **kwargs: Any) -> Any:
        return None

    body = {n: noop for n in ("info", "debug", "warning", "error", "critical", "exception", "setLevel",
                              "addHandler", "log")}
    return native_class("logging.Logger")(type("Logger", (), body))


_Logger = _logger_class()


SYS_PATH_CHANGED = "sys.path changed"  # a fact: imports may now find what the environment does not have


@model("sys.path.append", "sys.path.insert")
def sys_path(ctx: Ctx, *args: Any) -> Any:
    ctx.facts[SYS_PATH_CHANGED] = True
    return None


for _name in ("sys.stdout", "sys.stderr", "string.ascii_letters", "os.sep"):
    register(_name, Unknown(_name))
# a named tuple, as CPython's (`sys.version_info.minor < 9`: monai's `__init__` raised AttributeError on a tuple)
register("sys.version_info", named_tuple_value("sys.version_info", ("major", "minor", "micro", "releaselevel", "serial"),
                                               (3, 11, 0, "final", 0)))
register("sys.maxsize", 2**63 - 1)


_WRAPPER_ASSIGNMENTS = ("__module__", "__name__", "__qualname__", "__doc__")


@model("functools.update_wrapper")
def update_wrapper(ctx: Ctx, wrapper: Any, wrapped: Any = None, *args: Any, **kwargs: Any) -> Any:
    """CPython's: the wrapper gets the wrapped function's names and doc, and `__wrapped__`; it is returned
    (the wrapper is what is called)."""
    if wrapped is None:
        return wrapper
    for name in _WRAPPER_ASSIGNMENTS:
        ctx.setattr(wrapper, name, ctx.getattr(wrapped, name))
    ctx.setattr(wrapper, "__wrapped__", wrapped)
    return wrapper


@model("functools.wraps")
def wraps(ctx: Ctx, wrapped: Any, *args: Any, **kwargs: Any) -> Any:
    return Builtin("functools.wraps.decorator", lambda c, fn: update_wrapper(c, fn, wrapped))


@model("contextlib.contextmanager")
def contextmanager(ctx: Ctx, fn: Any) -> Any:
    """Calling the decorated generator function makes a manager that `with` runs (interp/contexts.py)."""
    return Builtin("contextlib.contextmanager", lambda c, *args, **kwargs: GeneratorCM(fn, args, kwargs))


@native_class("contextlib.suppress", identity_eq=True)
class Suppress:
    """`with suppress(E, ...)`: an exception of one of the classes ends the block, the path goes on."""

    def init(ctx: Ctx, self: Instance, *kinds: Any) -> None:
        self.attrs["kinds"] = kinds

    def __enter__(ctx: Ctx, self: Instance) -> Any:
        return None

    def __exit__(ctx: Ctx, self: Instance, kind: Any = None, *rest: Any) -> Any:  # noqa: PYI036
        if kind is None:
            return False
        if not isinstance(kind, ClassVal) or not all(isinstance(k, ClassVal) for k in self.attrs["kinds"]):
            return ctx.unknown("whether suppress() catches an exception")
        return any(_subclass(kind, k) for k in self.attrs["kinds"])


def _subclass(kind: ClassVal, of: ClassVal) -> bool:
    if of in kind.mro():
        return True
    a, b = getattr(py_builtins, kind.name, None), getattr(py_builtins, of.name, None)
    return isinstance(a, type) and isinstance(b, type) and issubclass(a, b)


@native_class("contextlib.nullcontext", identity_eq=True)
class NullContext:
    def init(ctx: Ctx, self: Instance, enter_result: Any = None) -> None:
        self.attrs["value"] = enter_result

    def __enter__(ctx: Ctx, self: Instance) -> Any:
        return self.attrs["value"]

    def __exit__(ctx: Ctx, self: Instance, *args: object) -> Any:  # noqa: PYI036
        return None


@model("functools.partial")
def partial(ctx: Ctx, fn: Any, *args: Any, **kwargs: Any) -> Any:
    if isinstance(fn, PartialVal):  # CPython flattens a partial of a partial
        fn, args, kwargs = fn.func, (*fn.args, *args), {**fn.keywords, **kwargs}
    return PartialVal("functools.partial", lambda c, *a, **k: c.call(fn, *args, *a, **{**kwargs, **k}),
                      fn, tuple(args), dict(kwargs))


def _partial_field(name: str) -> Any:
    def read(ctx: Ctx, obj: Any) -> Any:
        if not isinstance(obj, PartialVal):
            return ctx.unknown(f"functools.partial.{name}")
        return {"func": obj.func, "args": obj.args, "keywords": obj.keywords}[name]
    return read


for _field in ("func", "args", "keywords"):
    prop(f"functools.partial.{_field}")(_partial_field(_field))


@model("functools.lru_cache", "functools.cache", "typing.final", "typing.overload",
       "torch.jit.script", "torch.jit.unused", "torch.compile", "typing.no_type_check", "torch.jit.ignore",
       "torch.jit.export", "torch.jit._overload_method")
def passthrough_decorator(ctx: Ctx, fn: Any = None, *args: Any, **kwargs: Any) -> Any:
    if fn is None or isinstance(fn, int):
        return Builtin("decorator", lambda c, f: f)
    return fn


@model("abc.abstractmethod")
def abstractmethod(ctx: Ctx, fn: Any) -> Any:
    """CPython's sets `fn.__isabstractmethod__ = True` and returns `fn` (attributes.py decides a function
    without it lacks it)."""
    if getattr(fn, "python_function", False):
        fn.attrs["__isabstractmethod__"] = True
    return fn


@model("typing.cast")
def cast(ctx: Ctx, typ: Any, val: Any) -> Any:
    return val  # CPython returns the value unchanged: the type is for type checkers only


@model("functools.reduce")
def reduce(ctx: Ctx, fn: Any, iterable: Any, *initial: Any) -> Any:
    items = ctx.iterate(iterable)
    if items is None:
        return ctx.unknown("reduce")
    acc, rest = (initial[0], items) if initial else (items[0], items[1:])
    for x in rest:
        acc = ctx.call(fn, acc, x)
    return acc


@model("copy.deepcopy", "copy.copy")
def deepcopy(ctx: Ctx, x: Any, *args: Any) -> Any:
    import copy

    from pytea_ci.models.values import Instance

    if isinstance(x, Instance):
        return Instance(x.cls, dict(x.attrs))
    return copy.copy(x) if isinstance(x, (list, dict)) else x


@model("collections.OrderedDict", "collections.defaultdict_plain")
def ordered_dict(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    from pytea_ci.models.builtins import dict_

    return dict_(ctx, *args, **kwargs)


# (`Optional`, `Union`, `List`, `Dict`, `Tuple`, `Set`, `FrozenSet`, `Type`, `Any`: hints of models/typing_.py)
for _name in ("Callable", "Iterable", "Iterator", "Sequence", "Mapping", "Literal", "Generator", "TypeVar_", "ClassVar",
              "Final", "Annotated"):
    register(f"typing.{_name}", None)
register("dataclasses.InitVar", None)
register("typing.TYPE_CHECKING", False)  # False when the program runs: `if TYPE_CHECKING:` imports are skipped



@model("os.path.split")
def path_split(ctx: Ctx, path: Any) -> Any:
    """A name without a separator splits the same on every platform: ('', name); else strings not known."""
    if isinstance(path, str) and "/" not in path and "\\" not in path:
        return ("", path)
    return (Unknown("string", pytype="str"), Unknown("string", pytype="str"))


@model("urllib.parse.urlsplit", "urllib.parse.urlparse")
def urlsplit(ctx: Ctx, url: Any, scheme: Any = "", allow_fragments: Any = True) -> Any:
    """The parts of a URL written in the program (a pure function of the string, as `urllib` computes
    it: `timm.create_model` reads a model name through it); of a string not known, strings not known."""
    from urllib.parse import urlsplit as split

    parts = ("scheme", "netloc", "path", "query", "fragment")
    known = isinstance(url, str) and isinstance(scheme, str) and isinstance(allow_fragments, bool)
    values = split(url, scheme, allow_fragments) if known else None
    out = Instance(_SPLIT_RESULT)
    for i, name in enumerate(parts):
        out.attrs[name] = values[i] if values is not None else Unknown("string", pytype="str")
    return out


_SPLIT_RESULT = ClassVal("SplitResult", (), {}, "urllib.parse.SplitResult", native=True)


@model("types.FunctionType", "types.LambdaType")
def function_type(ctx: Ctx, code: Any, globals: Any = None, name: Any = None, argdefs: Any = None,
                  closure: Any = None) -> Any:
    """`types.FunctionType(f.__code__, f.__globals__, ...)`: a copy of the program's function `f` (the
    interpreter's `f.__code__` is `f` itself), under a new name or with new defaults when given."""
    if not dataclasses.is_dataclass(code) or not hasattr(code, "node"):
        return ctx.unknown("types.FunctionType of code not known")
    changes: dict[str, Any] = {}
    if isinstance(name, str):
        changes["name"] = name
    if isinstance(argdefs, tuple):
        changes["defaults"] = list(argdefs)
    return dataclasses.replace(code, **changes)  # type: ignore[type-var]


@model("itertools.repeat")
def repeat(ctx: Ctx, obj: Any, times: Any = None) -> Any:
    """`repeat(x, n)` with n known: n times x (`tuple(repeat(x, 2))`); else items not known."""
    if isinstance(times, int) and not isinstance(times, bool) and 0 <= times <= 4096:
        return [obj] * times
    return ctx.unknown("itertools.repeat")
