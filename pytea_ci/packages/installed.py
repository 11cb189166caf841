"""The one object the interpreter is handed for installed packages: `Packages` implements
`interp/installed.py`'s `Installed` protocol by calling the modules of this package, so the interpreter
names no package, registry or model hub."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.runtime import FunctionVal, ModuleVal, Scope
from pytea_ci.models.values import MISSING, ClassVal
from pytea_ci.packages import hub_configs, kept, lazy, registries, site
from pytea_ci.packages.disk import DiskCache

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter


class Packages:
    """The followed packages of one entry point's environment (`site`: None when there is none, and
    then only registries of the project's own packages are read), with the disk cache, if any."""

    def __init__(self, where: site.Site | None) -> None:
        self.site = where

    @classmethod
    def from_options(cls, options: dict[str, Any], disk: DiskCache | None = None) -> "Packages":
        """From the entry's `site` option."""
        return cls(site.Site.from_options(options, disk))

    def identity(self) -> str:
        return "" if self.site is None else self.site.identity()

    def find(self, dotted: str) -> str | None:
        return self.site.find(dotted) if self.site is not None else None

    def missing(self, interp: "Interpreter", dotted: str) -> Any:
        return site.not_found(interp, dotted)

    def importing(self, interp: "Interpreter", path: str) -> str | None:
        pkg = self.site.package_of(path) if self.site is not None else None
        return pkg if pkg is not None and not site.inside(interp, pkg) else None

    load = staticmethod(kept.enter_import)  # as a function: no extra frame on the analyzer's stack

    def module_attr(self, interp: "Interpreter", mod: ModuleVal, name: str) -> Any:
        if self.site is None:
            return None
        found = lazy.resolve_star(interp, mod, name)
        found = lazy.lazy_name(interp, mod, name) if found is None else found
        return lazy.indexed(interp, mod, name) if found is None else found

    def all_names(self, interp: "Interpreter", mod: ModuleVal) -> None:
        if self.site is not None:
            lazy.force(interp, mod)
            lazy.force_late(interp, mod)

    def deferred(self, interp: "Interpreter", node: ast.Import | ast.ImportFrom, scope: Scope) -> bool:
        return self.site is not None and (isinstance(node, ast.ImportFrom) and lazy.skip(interp, node, scope)
                                          or lazy.skip_late(interp, node, scope))

    def late_global(self, interp: "Interpreter", g: dict[str, Any], name: str) -> Any:
        return lazy.late_name(interp, g, name) if self.site is not None else None

    def late_names(self, interp: "Interpreter", mod: ModuleVal) -> frozenset[str]:
        found = lazy.late_table(interp, mod.path) if self.site is not None else None
        return frozenset(found.by_name) if found is not None else frozenset()

    def entered(self, interp: "Interpreter", callee: FunctionVal | ClassVal) -> str | None:
        if self.site is None:
            return None
        if isinstance(callee, FunctionVal):
            return site.call_package(interp, callee)
        return site.class_package(interp, callee.ns.get("__module__"))

    enter = staticmethod(site.enter)  # as a function: no extra frame on the analyzer's stack

    def overlay(self, interp: "Interpreter", fn: FunctionVal) -> Any:
        return site.overlay(interp, fn) if self.site is not None else None

    def class_method(self, interp: "Interpreter", cls: ClassVal, method: str, args: tuple, kwargs: dict) -> Any:
        if self.site is None or method not in hub_configs.METHODS:
            return MISSING
        return hub_configs.call(interp, cls, method, args, kwargs)

    # the rest are this package's functions as they are (no extra frame on the analyzer's stack)
    registered = staticmethod(registries.registered)

    def data_folder(self, path: str) -> str | None:
        return self.site.data_folder(path) if self.site is not None else None

    def absent(self, interp: "Interpreter", top: str) -> bool:
        return self.site is not None and site.absent(interp, self.site, top)
    tick = staticmethod(site.tick)
    relocate = staticmethod(site.relocate)
    guard_side = staticmethod(site.guard_side)
