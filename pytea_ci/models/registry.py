"""The registry of models keyed by fully-qualified name, and the decorators that fill it.

Registering a name twice raises: two models for one API would make behaviour depend on import
order. Names under a modeled root that are not registered are Unknown and counted.

Each model declares, besides its shape rule, the facets the interpreter applies after every call of
it (`Facets`: memory layout, value ranges, device and dtype behaviour): as arguments of `model`, with
`facets` on a method of a native class, or with `declare` next to models built from a table. The
interpreter reads them through `facets_of`, so it names no API itself.

Model modules load on demand: `lookup`, `get` and `get_property` import the module that registers
a name (per `index.py`, generated from the models) the first time the name is asked for, so a run
pays only for the libraries the analyzed program touches. Read the registry through them, never
through the dicts: a name of a module not loaded yet is not in them.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from pytea_ci.models.values import MISSING, Builtin, ClassVal, Namespace, Property

F = TypeVar("F", bound=Callable[..., Any])

REGISTRY: dict[str, Any] = {}
PROPERTIES: dict[str, Property] = {}
_PREFIXES: set[str] = set()

# Library roots whose attributes come from models (anything else third-party is Unknown).
MODELED_ROOTS = (
    "torch", "torchvision", "numpy", "PIL", "argparse", "math", "os", "sys", "random", "time",
    "functools", "collections", "typing", "itertools", "logging", "copy", "json", "warnings",
    "dataclasses", "pathlib", "builtins", "abc", "enum", "re", "datetime", "shutil", "glob",
    "tqdm", "matplotlib", "pickle", "csv", "string", "operator", "einops", "yaml", "socket", "platform",
    "packaging", "getpass", "types", "inspect", "urllib", "contextlib", "contextvars", "asyncio",
    "fire", "jsonargparse", "typer", "click", "hydra", "accelerate", "lightning", "lightning_fabric", "importlib",
    "keyword", "tempfile", "heapq", "attr", "attrs", "configparser",
)


# Memory layouts a model declares for its tensor result (`Facets.layout`; None: not known after the op).
KEEPS = "keeps"  # the model computes the result's strides itself (views, wrappers returning their argument)
CONTIGUOUS = "contiguous"  # a fresh, contiguous output
LIKE_INPUT = "like input"  # element-wise: a dense input's layout is kept (tests/oracle)
# Whether a call may place tensors off the CPU (`Facets.places`).
ALWAYS = "always"  # `.cuda()`, `torch.set_default_device`
BY_ARGUMENTS = "by arguments"  # `.to(...)`, `torch.device(...)`: unless its arguments name the CPU or a dtype


@dataclass(frozen=True)
class Facets:
    """What a model declares besides its shape rule, applied around every call (models/call_facets.py).

    layout: KEEPS, CONTIGUOUS, LIKE_INPUT or None. values: how the result gets its value range
    (a rule of models/ranges.py). device: how the result's device and dtype origin are set (a kind of
    models/dtype_device.py). places: ALWAYS or BY_ARGUMENTS when the call may move tensors to
    another device. reads_data: the result is read from tensor data (`.item()`), so a result not
    understood does not make the operation unchecked.
    """

    layout: str | None = None
    values: Any = None
    device: str | None = None
    places: str | None = None
    reads_data: bool = False


NO_FACETS = Facets()
FACETS: dict[str, Facets] = {}  # model name (a Builtin's name) -> its declared facets


def declare(name: str, facets: Facets) -> None:
    """Declare the facets of the model named `name` (once)."""
    if name in FACETS:
        raise ValueError(f"facets declared twice: {name}")
    if facets != NO_FACETS:
        FACETS[name] = facets


def facets_of(name: str) -> Facets:
    """The facets declared for the model `name` (loaded, since it is being called), or none."""
    return FACETS.get(name, NO_FACETS)


def facets(**declared: Any) -> Callable[[F], F]:
    """Declare the facets of a method of a `native_class` body, e.g. `@facets(layout=KEEPS)`."""

    def deco(fn: F) -> F:
        fn.__facets__ = Facets(**declared)  # type: ignore[attr-defined]
        return fn

    return deco


def register(name: str, value: Any) -> None:
    if name in REGISTRY:
        raise ValueError(f"model registered twice: {name}")
    REGISTRY[name] = value
    parts = name.split(".")
    for i in range(1, len(parts)):
        _PREFIXES.add(".".join(parts[:i]))


def model(*names: str, **declared: Any) -> Callable[[F], F]:
    """Register a function `fn(ctx, *args, **kwargs)` under every name given, with the `Facets`
    given as keywords (`layout=`, `values=`, `device=`, `places=`, `reads_data=`)."""

    def deco(fn: F) -> F:
        b = Builtin(names[0], _axis_alias(fn) if any(_native_dim_api(n) for n in names) else fn)
        for n in names:
            register(n, b)
        declare(names[0], Facets(**declared))
        return fn

    return deco


def _native_dim_api(name: str) -> bool:
    """A function or method torch binds from C++ (`torch.cumprod`, `torch.Tensor.sum`): its argument parser
    takes `axis=` for `dim=` (numpy's spelling); `torch.nn.functional`'s Python functions do not."""
    return name.startswith("torch.") and not name.startswith(("torch.nn.", "torch.utils.", "torch.distributions."))


def _axis_alias(fn: F) -> F:
    """`fn` taking `axis=` as its `dim=` (when it has a `dim` parameter and none called `axis`), as torch's
    argument parser does: `torch.cumprod(alphas, axis=0)` (dalle2) was a TypeError in the model."""
    params = inspect.signature(fn).parameters
    if "dim" not in params or "axis" in params:
        return fn

    @functools.wraps(fn)
    def run(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        if "axis" in kwargs and "dim" not in kwargs:
            kwargs["dim"] = kwargs.pop("axis")
        return fn(ctx, *args, **kwargs)

    return run  # type: ignore[return-value]


def prop(*names: str) -> Callable[[F], F]:
    """Register a computed attribute, e.g. `prop("torch.Tensor.shape")`, `fn(ctx, obj)`."""

    def deco(fn: F) -> F:
        for n in names:
            if n in PROPERTIES:
                raise ValueError(f"property registered twice: {n}")
            PROPERTIES[n] = Property(n, fn)
        return fn

    return deco


def native_class(qualname: str, *aliases: str, bases: tuple[Any, ...] = (),
                 identity_eq: bool = False, recorded_attrs: bool = False) -> Callable[[type], ClassVal]:
    """Turn a Python class body of functions `(ctx, self, ...)` into a registered native class.

    A function named `init` becomes `__init__`; `call` becomes `__call__`; `delattr` becomes `__delattr__`
    (a body that defined it would change the model class itself). `identity_eq`: the real
    class compares its instances by identity (it inherits `object.__eq__`, as `nn.Module` does, and so
    do its subclasses). A native class that neither says so, nor inherits it, nor models `__eq__`
    compares by a rule not modeled: `==` on its instances is not known (`torch.device("cpu") ==
    torch.device("cpu")` is True in torch). `recorded_attrs`: an instance holds exactly the attributes the
    model records in it, beside what the CPython class gives every instance (`argparse.Namespace`,
    `types.SimpleNamespace`), so `hasattr`/`getattr` with a default may decide a name absent.
    """

    def deco(body: type) -> ClassVal:
        ns: dict[str, Any] = {}
        for key, val in vars(body).items():
            if key in _CLASS_MACHINERY:
                continue
            if not callable(val):
                ns[key] = val
                continue
            name = {"init": "__init__", "call": "__call__", "delattr": "__delattr__"}.get(key, key)
            ns[name] = Builtin(f"{qualname}.{name}", val)
            declare(f"{qualname}.{name}", getattr(val, "__facets__", NO_FACETS))
        if identity_eq or all(b.lookup(IDENTITY_EQ) is MISSING for b in bases):
            ns[IDENTITY_EQ] = identity_eq
        if recorded_attrs:
            ns[RECORDED_ATTRS] = True
        cls = ClassVal(qualname.rsplit(".", 1)[-1], bases, ns, qualname, native=True)
        for n in (qualname,) + aliases:
            register(n, cls)
        return cls

    return deco


IDENTITY_EQ = "__identity_eq__"  # in a native class's namespace: whether its `==` is identity (native_class)
RECORDED_ATTRS = "__recorded_attrs__"  # in a native class's namespace: its instances' attributes are recorded
# in a native class's namespace: every instance of it is one the models made (an `Instance` of it or of a
# subclass), so `isinstance` of any other value known is False (`isinstance(Tensor, typing.TypeVar)`)
ONLY_MODELED = "__only_modeled__"
_CLASS_MACHINERY = {"__module__", "__hash__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__annotations__",
                    "__firstlineno__", "__static_attributes__"}


_OWNERS: dict[str, str] = {}  # name -> the model module that registers it (from index.py)
_PROPERTY_OWNERS: dict[str, str] = {}
_ALL_PREFIXES: frozenset[str] = frozenset()


def _owners() -> dict[str, str]:
    global _ALL_PREFIXES
    if not _OWNERS:
        from pytea_ci.models import index

        for table, out in ((index.NAMES, _OWNERS), (index.PROPERTIES, _PROPERTY_OWNERS)):
            for module, names in table.items():
                out.update(dict.fromkeys(names.split(), module))
        _ALL_PREFIXES = frozenset(index.PREFIXES.split())
    return _OWNERS


def _present(qualname: str) -> bool:
    """Whether `qualname` is registered, after importing the model module that registers it."""
    if qualname in REGISTRY:
        return True
    owner = _owners().get(qualname)
    if owner is not None:
        importlib.import_module(owner)
    return qualname in REGISTRY


def get(qualname: str, default: Any = None) -> Any:
    """The registered value of a name, its model module loaded first when needed; `default` when
    the name is not modeled."""
    return REGISTRY[qualname] if _present(qualname) else default


def get_property(qualname: str) -> Property | None:
    """The computed attribute registered under `torch.Tensor.shape` and the like, or None."""
    if qualname not in PROPERTIES:
        _owners()
        owner = _PROPERTY_OWNERS.get(qualname)
        if owner is not None:
            importlib.import_module(owner)
    return PROPERTIES.get(qualname)


def members(qualname: str) -> list[str]:
    """The names directly under a modeled namespace (`torch.nn.functional` -> `silu`, ...), sorted: the
    ones the models know of, so only some of what the library has."""
    _owners()
    head = qualname + "."
    names = {q[len(head):].split(".")[0] for table in (REGISTRY, _OWNERS, _ALL_PREFIXES, _PREFIXES)
             for q in table if q.startswith(head)}
    return sorted(n for n in names if n)


def load_all() -> None:
    """Import every model module (the catalogue, the docs and the tests list them all)."""
    for module in dict.fromkeys(list(_owners().values()) + list(_PROPERTY_OWNERS.values())):
        importlib.import_module(module)


# torch's own modules whose public names torch re-exports from one package: `torch.nn.modules.activation.
# MultiheadAttention` is `torch.nn.MultiheadAttention`, `torch.nn.parameter.Parameter` is `torch.nn.Parameter`
_REEXPORTED = (("torch.nn.modules.", "torch.nn", True), ("torch.nn.parameter.", "torch.nn", False))


def _public(qualname: str) -> str | None:
    """The name under which torch exports `qualname` (a name of one of its implementation modules)."""
    for prefix, package, nested in _REEXPORTED:
        if qualname.startswith(prefix):
            rest = qualname[len(prefix):].split(".")
            # `torch.nn.modules.ReLU` too: the package re-exports its classes (its submodules are lower case)
            name = rest[1:] if nested and not rest[0][:1].isupper() else rest
            return ".".join([package, *name]) if name and name != [""] else None
    return None


def lookup(qualname: str) -> Any:
    """The model for a name (a value such as `numpy.newaxis` may be None), a Namespace for a
    package prefix, or MISSING when unmodeled. A name of one of torch's implementation modules is
    looked up as the public name torch exports it under (`_REEXPORTED`)."""
    if _present(qualname):
        return REGISTRY[qualname]
    if qualname in _ALL_PREFIXES or qualname in _PREFIXES or qualname in MODELED_ROOTS:
        return Namespace(qualname)
    public = _public(qualname)
    if public is not None:
        found = lookup(public)
        return found if found is MISSING or not isinstance(found, Namespace) else Namespace(qualname)
    if any(qualname == prefix.rstrip(".") or qualname.startswith(prefix) for prefix, _, _ in _REEXPORTED):
        return Namespace(qualname)  # `torch.nn.modules.activation` itself
    return MISSING


def is_modeled_root(name: str) -> bool:
    return name.split(".")[0] in MODELED_ROOTS


# Unmodeled classes of a modeled library whose namespace says what they derive from: (prefix of the
# name, the modeled base). Every class of `torch.nn` (outside its function and helper modules) is an
# `nn.Module`; `nn.Transformer` is not modeled, but `class M(nn.Transformer)` is still a module.
_STAND_IN_BASES = (("torch.nn.", "torch.nn.Module"),)
_NOT_CLASS_MODULES = frozenset({"functional", "init", "utils", "parameter"})
_STAND_INS: dict[str, ClassVal] = {}


def stand_in_base(qualname: str) -> ClassVal | None:
    """The base a project class gets for `qualname`, a class of a modeled library that is not modeled
    (`_STAND_IN_BASES`): its modeled base's behaviour (calling an `nn.Module` runs the project's
    `forward`), with what the library's own code would set left unknown (`__opaque_base__`). None
    for any other name."""
    if qualname in _STAND_INS:
        return _STAND_INS[qualname]
    for prefix, base in _STAND_IN_BASES:
        parts = qualname[len(prefix):].split(".") if qualname.startswith(prefix) else [""]
        if parts[-1][:1].isupper() and not _NOT_CLASS_MODULES & set(parts[:-1]) and lookup(qualname) is MISSING:
            modeled = get(base)
            if isinstance(modeled, ClassVal):
                cls = ClassVal(parts[-1], (modeled,), {"__opaque_base__": True}, qualname, native=True)
                return _STAND_INS.setdefault(qualname, cls)
    return None
