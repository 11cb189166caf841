"""Methods replaced by code made at run time (a mixin of the interpreter's attribute assignment).

A library may replace a method of a class, as the class is built or first instantiated, by a function of
a module it generates then: torch_geometric's `MessagePassing` renders a `propagate` from a jinja2
template into a temporary file and imports it, over the `propagate` written in its source (kept as
`_orig_propagate`; the generated one is that method specialised for the layer, and computes what it
computes: torch 2.13 with torch_geometric 2.8.1 gives equal outputs and the same errors for either). The
analysis cannot follow the generation (a template engine, a file written and imported at run time), so
the function would be a value not understood and every call of the method with it.

When a class attribute that holds a function of the program's or a package's source (its own or a base's)
is assigned a value computed from code made at run time (`models/importlib_.py made_at_run_time`: a module
spec of a file the analysis cannot read, a module of one, an item of `sys.modules` under a name no file
on the search path has), the attribute becomes a *stand-in*: calls run the definition it replaced, while
what belongs to the function itself is the generated function's: its identity (not the original's), its
`__module__` the generated module's name when known (a function a module's code defines has its module's
`__name__`; torch_geometric asks it to render once per class), `__name__`, `__qualname__`, `__doc__`,
`__defaults__` and `__kwdefaults__` not known. Any other value not
understood (a function of a package not followed, a wrapper of unknown behaviour) is kept as it is: not
known.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.runtime import FunctionVal
from pytea_ci.models.importlib_ import made_at_run_time, made_module_name
from pytea_ci.models.values import ClassVal

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

# what a stand-in answers as the generated function (not known), not as the definition it runs
_OWN = ("__module__", "__name__", "__qualname__", "__doc__", "__defaults__", "__kwdefaults__")


def replacement(interp: "Interpreter", cls: ClassVal, name: str, value: Any) -> Any:
    """What `cls.name = value` stores: a stand-in for the definition it replaces when `value` is code
    made at run time and the class has a function of source under `name`; else `value`."""
    if not made_at_run_time(value):
        return value
    replaced = cls.lookup(name)
    if not isinstance(replaced, FunctionVal):
        return value
    own: dict[str, Any] = {k: interp.derived(f"{k} of a function made at run time", value) for k in _OWN}
    if (module := made_module_name(value)) is not None:
        own["__module__"] = module
    return dataclasses.replace(replaced, own_attrs={**replaced.attrs, **own})
