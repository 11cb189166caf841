"""`importlib.util.find_spec` and `importlib.metadata.version` as CPython answers them where the program
runs: `find_spec` is None for a top-level module the environment named with `--python` lacks (nor the
project, the standard library or the models have it), so a package's `is_x_available()` is decided
there instead of forking each path (transformers 5 asks for flash_attn, NPU and kernel packages as a
model is built); torch, which the analysis takes as installed (its models stand for it), has a spec and
the modeled torch's version.

`importlib.import_module(name, package)` and `__import__(name, ..., fromlist, level)` of a name known
here (`'models.' + args.model` with the model named on the command line, `--arg model=TextCNN`) import
it as the program's own import statement would: a project module is run and followed, a modeled
library is its model. A name not known (a required option nobody gave) gives a module not known that
keeps the name's origin, so the note names what to configure. The spec and module of a temporary file
(`spec_from_file_location` of a `tempfile` path, `module_from_spec`) are code made at run time, which
interp/generated.py reads as what it replaced. Anything else stays unknown."""

from __future__ import annotations

import re
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.machine import TORCH_VERSION
from pytea_ci.models.registry import lookup, model, native_class
from pytea_ci.models.values import MISSING, Instance, Unknown
from pytea_ci.shapes.tensor import Origin

RUN_TIME_CODE = "code made at run time"  # how the `Origin.what` of such a value begins
RUN_TIME_FILE = "a temporary file made at run time"  # and of a temporary file's path (or its handle)


def run_time_code(span: Any, what: str) -> Unknown:
    """A value of code made at run time (a module, a spec of one), born at `span`."""
    return Unknown(what, None, Origin(span, f"{RUN_TIME_CODE}: {what}"))


def made_at_run_time(value: Any, kind: str = RUN_TIME_CODE) -> bool:
    """Whether `value` is a value not understood computed from code made at run time (from a temporary
    file's path: `kind=RUN_TIME_FILE`)."""
    return isinstance(value, Unknown) and value.origin is not None and value.origin.what.startswith(kind)


def made_module_name(value: Any) -> str | None:
    """The name of the module made at run time `value` was computed from, when known (a spec's name, a
    `sys.modules` key: `module 'name'` in its origin); its functions' `__module__`."""
    found = re.search(r"module '([\w.]+)'", value.origin.what) if made_at_run_time(value) else None
    return found.group(1) if found else None


@model("tempfile.NamedTemporaryFile", "tempfile.mkstemp", "tempfile.mkdtemp", "tempfile.mktemp",
       "tempfile.TemporaryDirectory")
def temporary(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    """A temporary file or folder (its handle, path, or both): not known, made at run time."""
    return Unknown("a temporary file", None, Origin(ctx.span, f"{RUN_TIME_FILE}: tempfile"))


@native_class("importlib.machinery.ModuleSpec")
class ModuleSpec:
    pass


@model("importlib.util.find_spec")
def find_spec(ctx: Ctx, name: Any, package: Any = None) -> Any:
    if isinstance(name, str) and name and not name.startswith("."):
        if ctx.module_absent(name.split(".")[0]):
            return None
        if name.split(".")[0] == "torch" and lookup(name) is not MISSING:
            return Instance(ModuleSpec, {"name": name, "parent": name.rpartition(".")[0]})  # type: ignore[arg-type]
    return ctx.unknown("importlib.util.find_spec")


@model("importlib.metadata.version")
def version(ctx: Ctx, name: Any) -> Any:
    return TORCH_VERSION if name == "torch" else ctx.unknown("importlib.metadata.version")


def _resolved(name: str, package: Any, level: int) -> str | None:
    """The absolute name of a relative import (importlib._bootstrap._resolve_name), None where CPython
    raises (no package, beyond the top-level package)."""
    if level == 0:
        return name
    if not isinstance(package, str) or not package or package.count(".") < level - 1:
        return None
    base = package.rsplit(".", level - 1)[0]
    return f"{base}.{name}" if name else base


def _named(ctx: Ctx, name: Any, how: str) -> Any:
    """A module imported by a name not known: not known, from where the name came when it says."""
    origin = name.origin if isinstance(name, Unknown) and name.origin is not None else None
    what = f"{how} of a module name not known"
    return Unknown(what, None, Origin(ctx.span, f"{what}: {origin.what}") if origin is not None else Origin(ctx.span, what))


@model("importlib.import_module")
def import_module(ctx: Ctx, name: Any, package: Any = None) -> Any:
    if not isinstance(name, str) or not name:
        return _named(ctx, name, "importlib.import_module")
    level = len(name) - len(name.lstrip("."))
    dotted = _resolved(name[level:], package, level)
    return ctx.load_module(dotted) if dotted is not None else ctx.unknown("importlib.import_module: a relative name")


@model("builtins.__import__")
def dunder_import(ctx: Ctx, name: Any, globals: Any = None, locals: Any = None, fromlist: Any = (),
                  level: Any = 0) -> Any:
    """The top-level package of `name` (its module itself when `fromlist` names something), as CPython."""
    if not isinstance(name, str) or not name:
        return _named(ctx, name, "__import__")
    if level != 0:
        return ctx.unknown("__import__ with a level")
    mod = ctx.load_module(name)
    if isinstance(fromlist, (list, tuple)) and fromlist:
        return mod
    return ctx.load_module(name.partition(".")[0]) if "." in name else mod
@model("importlib.util.spec_from_file_location")
def spec_from_file_location(ctx: Ctx, name: Any, location: Any = None, *args: Any, **kwargs: Any) -> Any:
    """The spec of a temporary file (what it holds was written at run time): a spec of code made at run
    time; of any other file (one that exists before the run, a path not known): not known."""
    if not made_at_run_time(location, RUN_TIME_FILE):
        return ctx.unknown("importlib.util.spec_from_file_location")
    return run_time_code(ctx.span, f"spec of module {name!r} in a temporary file" if isinstance(name, str)
                         else "spec of a module in a temporary file")


@model("importlib.util.module_from_spec")
def module_from_spec(ctx: Ctx, spec: Any) -> Any:
    """A module of a spec of code made at run time is such code too (its `exec_module` runs it: not
    followed); of any other spec, not known."""
    if made_at_run_time(spec):
        return Unknown("module of code made at run time", None, spec.origin)
    return ctx.unknown("importlib.util.module_from_spec")
