"""Where a followed package's modules are, its step budget, and where findings made inside it go
(issue 21, items 1 and 2).

The driver says which folders hold the environment's packages and which top-level packages to follow
(`packages/environment.py`, the entry's `site` option). A followed package is searched after the
project, read and interpreted like project code — never imported — and is *read-only*: a finding made
on one of its lines is reported at the project's call that led there. Modeled libraries (torch,
numpy, einops, ...) are never followed: their models stand. A compiled extension stays unknown with
the package named.

Budgets (deterministic, in interpreter steps): every entry into a package from outside it (an
import, a call of one of its functions or classes) runs under the package's budget, `package-budget`
per path in total for its imports and as much again for its calls: what an import runs (registries,
docstrings rewritten at import time) does not take the budget of the model the program then builds, and
a kept import (`kept.py`) is charged to the imports as its cold run was. Past it the entry is cut: an import leaves the package unknown, a call returns an
unknown value naming the package (what it was handed may have been changed there), and later
entries on the path are unknown at once. The cut is a PT011 note naming the package.

What an import leaves is paid once (`kept.py`, in the process; `disk.py`, in the cache folder).
"""

from __future__ import annotations

import ast
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytea_ci.diagnostics import Span
from pytea_ci.interp.escape import escape
from pytea_ci.interp.installed import PackageBudget
from pytea_ci.interp.runtime import MODULE_NOT_FOUND, UserException
from pytea_ci.models.registry import get as registry_get
from pytea_ci.models.registry import is_modeled_root
from pytea_ci.models.stdlib import SYS_PATH_CHANGED
from pytea_ci.models.values import Unknown
from pytea_ci.packages.disk import DiskCache
from pytea_ci.shapes.tensor import Origin

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter
    from pytea_ci.interp.runtime import FunctionVal

PACKAGE_STEPS = "steps per installed package"
_COMPILED = (".so", ".pyd")


@dataclass
class Site:
    """The environment's package folders and the packages followed there (from the `site` option)."""

    folders: tuple[str, ...]
    follow: frozenset[str]
    skip: frozenset[str]
    steps: int
    versions: dict[str, Any] = field(default_factory=dict)
    disk: DiskCache | None = None  # where kept imports are written (None: in the process only)
    present: frozenset[str] | None = None  # top-level names the environment has (None: not known to be all)
    _of_path: dict[str, str | None] = field(default_factory=dict)

    @classmethod
    def from_options(cls, options: dict[str, Any], disk: DiskCache | None = None) -> "Site | None":
        site = options.get("site")
        if not isinstance(site, dict) or not site.get("folders"):
            return None
        return cls(tuple(os.path.realpath(f) for f in site["folders"]), frozenset(site.get("follow", ())),
                   frozenset(site.get("skip", ())), int(site.get("package_steps", 200_000)),
                   dict(site.get("packages", {})), disk,
                   frozenset(site["present"]) if isinstance(site.get("present"), list) else None)

    def identity(self) -> str:
        """The folders, the packages followed and skipped with their versions, the budget and what is present."""
        return json.dumps([self.folders, sorted(self.follow), sorted(self.skip), self.steps, self.versions,
                           None if self.present is None else sorted(self.present)], sort_keys=True, default=repr)

    def follows(self, top: str) -> bool:
        if top in self.skip or is_modeled_root(top):
            return False
        return "*" in self.follow or top in self.follow

    def find(self, dotted: str) -> str | None:
        """The source file of module `dotted` in a followed package, if there is one."""
        parts = dotted.split(".")
        if not self.follows(parts[0]):
            return None
        for folder in self.folders:
            base = os.path.join(folder, *parts)
            for cand in (base + ".py", os.path.join(base, "__init__.py")):
                if os.path.isfile(cand):
                    return cand
        return None

    def compiled(self, dotted: str) -> bool:
        """Whether `dotted` is a compiled extension module in one of the folders."""
        parts = dotted.split(".")
        for folder in self.folders:
            where = os.path.join(folder, *parts[:-1])
            if os.path.isdir(where) and any(n.startswith(parts[-1] + ".") and n.endswith(_COMPILED)
                                            for n in os.listdir(where)):
                return True
        return False

    def package_of(self, path: str) -> str | None:
        """The top-level package a file of the folders belongs to (None for the project's files)."""
        if path not in self._of_path:
            found = None
            for real in dict.fromkeys((os.path.abspath(path), os.path.realpath(path))):
                folder = next((f for f in self.folders if real.startswith(f + os.sep)), None)
                if folder is not None:
                    found = real[len(folder) + 1:].split(os.sep, 1)[0]
                    found = found[:-3] if found.endswith(".py") else found
                    break
            self._of_path[path] = found
        return self._of_path[path]

    def data_folder(self, path: str) -> str | None:
        """The folder of the followed top-level package holding the file `path` (None: none)."""
        top = self.package_of(path)
        if top is None or not self.follows(top):
            return None
        real = os.path.realpath(path)
        folder = next((f for f in self.folders if real.startswith(f + os.sep)), None)
        where = os.path.join(folder, top) if folder is not None else None
        return where if where is not None and os.path.isdir(where) else None


def site_of(interp: "Interpreter") -> Site | None:
    """The site of the packages the driver handed the interpreter (None: no installed package is read)."""
    site = getattr(interp.shared.installed, "site", None)
    return site if isinstance(site, Site) else None


def overlay(interp: "Interpreter", fn: "FunctionVal") -> Any:
    """The model of a function of a followed package, by the name it is defined under
    (`timm.models._registry.is_model`), or None: the package's own code runs. Like pytype's overlays,
    a model stands for just the names it knows (`models/timm_.py`)."""
    site = site_of(interp)
    if site is None or site.package_of(fn.path) is None:
        return None
    module = fn.globals.get("__name__")
    return registry_get(f"{module}.{fn.qualname or fn.name}") if isinstance(module, str) else None


def inside(interp: "Interpreter", package: str) -> bool:
    return bool(interp.pkg.stack) and interp.pkg.stack[-1][0] == package


def package_origin(interp: "Interpreter", package: str, what: str) -> Unknown:
    site = site_of(interp)
    version = site.versions.get(package) if site is not None else None
    named = f"installed package '{package}'" + (f" {version[0]}" if version else "")
    return Unknown(f"{named}: {what}", None, Origin(interp.span, f"{named}: {what}"))


def not_found(interp: "Interpreter", dotted: str) -> Unknown:
    """An import neither the project, the models nor a followed package provide. In an environment the
    user named, a top-level name found nowhere raises ModuleNotFoundError, as CPython does there: a
    `try: import apex ... except ImportError:` takes its handler; and a name it has (a package or module
    of its folders, not followed) is found there: the import does not raise, so timm's `try: from
    huggingface_hub import ...` in an environment that has huggingface_hub is no fork of the machine."""
    top = dotted.split(".")[0]
    site = site_of(interp)
    if site is not None and site.follows(top) and site.compiled(dotted):
        return package_origin(interp, top, f"compiled extension {dotted} (not read)")
    if site is not None and absent(interp, site, top):
        raise UserException(MODULE_NOT_FOUND)
    return interp.not_found(dotted, in_environment=site is not None and installed(site, dotted))


def installed(site: Site, dotted: str) -> bool:
    """Whether the named environment has the module `dotted` in one of its folders (a package folder,
    `a/b.py`, or a compiled `a/b.<tag>.so`), its top-level name among those it lists as present
    (`site.present` is part of the kept imports' key: what is installed there is what the import was kept
    under). A submodule not there as a file (`six.moves`, a module a package makes) is not known to be."""
    parts = dotted.split(".")
    if site.present is None or parts[0] not in site.present:
        return False
    for root in site.folders:
        base = os.path.join(root, *parts)
        folder, last = os.path.split(base)
        if os.path.isdir(base) or os.path.isfile(base + ".py") \
                or any(n.startswith(last + ".") and n.endswith((".so", ".pyd")) for n in _listing(folder)):
            return True
    return False


def _listing(folder: str) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


# standard modules of the Pythons 3.8-3.14 that `sys.stdlib_module_names` of a newer one lacks
_OLD_STDLIB = frozenset(("asynchat", "asyncore", "distutils", "imp", "smtpd", "audioop", "cgi", "cgitb", "chunk",
                         "crypt", "imghdr", "mailcap", "msilib", "nis", "nntplib", "ossaudiodev", "pipes", "sndhdr",
                         "spwd", "sunau", "telnetlib", "uu", "xdrlib", "lib2to3", "formatter", "parser", "symbol",
                         "binhex", "macpath", "dummy_threading", "_dummy_thread", "_bootlocale", "__main__"))


def absent(interp: "Interpreter", site: Site, top: str) -> bool:
    """Whether CPython finds no module `top` in the environment: it is not among the names the named
    environment has, not standard, not the project's, and the program changed no `sys.path` (then
    anything may be found)."""
    if site.present is None or top in site.present or top in _OLD_STDLIB or interp.facts.get(SYS_PATH_CHANGED) \
            or is_modeled_root(top):
        return False
    if top in sys.stdlib_module_names or top in sys.builtin_module_names:
        return False
    return not any(os.path.isdir(os.path.join(root, top)) or os.path.isfile(os.path.join(root, top + ".py"))
                   for root in interp.config.search_roots)


def call_package(interp: "Interpreter", fn: "FunctionVal") -> str | None:
    """The package a call of `fn` enters (None: project code, or already inside that package)."""
    site = site_of(interp)
    if site is None:
        return None
    pkg = site.package_of(fn.path)
    return None if pkg is None or inside(interp, pkg) else pkg


def class_package(interp: "Interpreter", module: Any) -> str | None:
    """The package a class defined in module `module` (its `__module__`) belongs to, when entering it."""
    site = site_of(interp)
    if site is None or not isinstance(module, str):
        return None
    mod = interp.modules.get(module)
    path = getattr(mod, "path", None)
    pkg = site.package_of(path) if isinstance(path, str) else None
    return None if pkg is None or inside(interp, pkg) else pkg


def charged(package: str, importing: str | None) -> str:
    """The step counter an entry into `package` is charged to: its imports share one, its calls another."""
    return package if importing is None else f"{package} imports"


def enter(interp: "Interpreter", package: str, run: Callable[[], Any], handed: tuple[Any, ...] = (),
          importing: str | None = None) -> Any:
    """Run `run` inside `package` under its budget; the unknown result of a cut entry otherwise."""
    site = site_of(interp)
    assert site is not None
    key = charged(package, importing)
    if interp.pkg.used.get(key, 0) >= site.steps:
        return _cut(interp, package, handed, importing)
    if not interp.pkg.stack:
        interp.pkg.entry = interp.span
    interp.pkg.stack.append((package, interp.steps, key))
    try:
        return run()
    except PackageBudget as e:
        if e.package != package:
            raise
        interp.pkg.used[key] = site.steps
        return _cut(interp, package, handed, importing)
    finally:
        _, start, _ = interp.pkg.stack.pop()
        interp.pkg.used[key] = interp.pkg.used.get(key, 0) + interp.steps - start


def _cut(interp: "Interpreter", package: str, handed: tuple[Any, ...], importing: str | None) -> Unknown:
    site = site_of(interp)
    interp.soft_budget(f"{PACKAGE_STEPS} ({package}: {site.steps if site else 0} steps, "
                       "`package-budget`)")
    out = package_origin(interp, package, "past its step budget")
    if importing is not None:  # what the cut import left half-built stands for nothing
        for name in [n for n in interp.modules if n == package or n.startswith(package + ".")]:
            interp.modules[name] = out
    elif handed:
        escape(interp, handed, out.origin.what if out.origin is not None else package)
    return out


def tick(interp: "Interpreter") -> None:
    """Called on every step inside a package: raise when its budget is spent."""
    package, start, key = interp.pkg.stack[-1]
    site = site_of(interp)
    if site is not None and interp.pkg.used.get(key, 0) + interp.steps - start > site.steps:
        raise PackageBudget(package)


def relocate(interp: "Interpreter", span: Span, message: str) -> tuple[Span, str]:
    """A finding (or a budget note) made on a line of an installed package is reported at the project's
    call that led there (the package is read-only), naming the package line. Once the frames are
    unwound (a path ended there), the project's last call into a package is that call."""
    site = site_of(interp)
    if site is None or site.package_of(_abs(interp, span.path)) is None:
        return span, message
    for call, _fn, _ in reversed(interp.frames):
        if site.package_of(_abs(interp, call.path)) is None:
            return call, f"{message} (in {_short(interp, span)})"
    if interp.pkg.entry is not None:
        return interp.pkg.entry, f"{message} (in {_short(interp, span)})"
    return span, message


def project_span(interp: "Interpreter", span: Span) -> Span:
    """Where to place a note made at `span`: the project's call into a package when `span` is in one."""
    return relocate(interp, span, "")[0]


def _abs(interp: "Interpreter", path: str) -> str:
    return path if os.path.isabs(path) else os.path.join(interp.shared.display_root, path)


def _short(interp: "Interpreter", span: Span) -> str:
    site = site_of(interp)
    real = os.path.realpath(_abs(interp, span.path))
    for folder in site.folders if site is not None else ():
        if real.startswith(folder + os.sep):
            return f"{real[len(folder) + 1:]}:{span.line}"
    return f"{span.path}:{span.line}"


def guard_side(node: ast.If) -> bool | None:
    """The side of `if <not understood>: raise ...` that goes on (None when neither or both raise).
    Inside an installed package such a branch is an argument or configuration check: as asserts not
    about shapes are, it is assumed to pass (forking would spend the path budget on the package's
    error paths)."""
    body, other = _raises(node.body), _raises(node.orelse)
    if body == other:
        return None
    return not body


def _raises(block: list[ast.stmt]) -> bool:
    return bool(block) and isinstance(block[-1], ast.Raise)
