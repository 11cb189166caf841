"""The registry of models keyed by fully-qualified name, and the decorators that fill it.

Registering a name twice raises: two models for one API would make behaviour depend on import
order. Names under a modeled root that are not registered are Unknown and counted.
"""

from __future__ import annotations

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
    "packaging", "getpass", "types", "inspect", "urllib",
    "fire", "jsonargparse", "typer", "click", "hydra", "accelerate", "lightning", "lightning_fabric",
)


def register(name: str, value: Any) -> None:
    if name in REGISTRY:
        raise ValueError(f"model registered twice: {name}")
    REGISTRY[name] = value
    parts = name.split(".")
    for i in range(1, len(parts)):
        _PREFIXES.add(".".join(parts[:i]))


def model(*names: str) -> Callable[[F], F]:
    """Register a function `fn(ctx, *args, **kwargs)` under every name given."""

    def deco(fn: F) -> F:
        b = Builtin(names[0], fn)
        for n in names:
            register(n, b)
        return fn

    return deco


def prop(*names: str) -> Callable[[F], F]:
    """Register a computed attribute, e.g. `prop("torch.Tensor.shape")`, `fn(ctx, obj)`."""

    def deco(fn: F) -> F:
        for n in names:
            if n in PROPERTIES:
                raise ValueError(f"property registered twice: {n}")
            PROPERTIES[n] = Property(n, fn)
        return fn

    return deco


def native_class(qualname: str, *aliases: str, bases: tuple[Any, ...] = ()) -> Callable[[type], ClassVal]:
    """Turn a Python class body of functions `(ctx, self, ...)` into a registered native class.

    A function named `init` becomes `__init__`; `call` becomes `__call__`.
    """

    def deco(body: type) -> ClassVal:
        ns: dict[str, Any] = {}
        for key, val in vars(body).items():
            if key in _CLASS_MACHINERY:
                continue
            if not callable(val):
                ns[key] = val
                continue
            name = {"init": "__init__", "call": "__call__"}.get(key, key)
            ns[name] = Builtin(f"{qualname}.{name}", val)
        cls = ClassVal(qualname.rsplit(".", 1)[-1], bases, ns, qualname, native=True)
        for n in (qualname,) + aliases:
            register(n, cls)
        return cls

    return deco


_CLASS_MACHINERY = {"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__annotations__",
                    "__firstlineno__", "__static_attributes__"}


def lookup(qualname: str) -> Any:
    """The model for a name (a value such as `numpy.newaxis` may be None), a Namespace for a
    package prefix, or MISSING when unmodeled."""
    if qualname in REGISTRY:
        return REGISTRY[qualname]
    if qualname in _PREFIXES or qualname in MODELED_ROOTS:
        return Namespace(qualname)
    return MISSING


def is_modeled_root(name: str) -> bool:
    return name.split(".")[0] in MODELED_ROOTS
