"""The seam between the interpreter and installed packages read from source (DESIGN §3, "installed
packages are source"; issue 35, item 2).

The interpreter knows that some modules belong to an installed package the driver chose to follow,
and nothing else of them: where such a package lives, its step budget, its caches, lazy re-exports,
registries and model-hub configs are `pytea_ci/packages/`, which implements `Installed` and is handed
to the interpreter by the driver (through `Shared.installed`). Without it (no environment, library
mode), every import the project and the models do not provide is unknown, as before.

The interpreter calls it at import time (`find`, `importing` and `load`, `missing`, `absent`), when a module
attribute is not there (`module_attr`, `all_names`, `deferred`, `late_global`, `late_names`), and when a call enters code of a
package (`entered` and `enter`, `overlay`, `class_method`); `tick`, `relocate` and `guard_side` keep a package's budget and its
read-only lines. The per-path state (`interp/config.PackagePath`: `stack`, `used`, `entry`) stays on the interpreter,
which copies it with the path.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from pytea_ci.diagnostics import Span

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter
    from pytea_ci.interp.runtime import FunctionVal, ModuleVal, Scope
    from pytea_ci.models.values import ClassVal


class PackageBudget(Exception):
    """A package's step budget was reached; caught where the path entered the package."""

    def __init__(self, package: str) -> None:
        super().__init__(package)
        self.package = package


class Installed(Protocol):
    """What the interpreter asks of the installed packages it may read."""

    def identity(self) -> str:
        """What the packages an import may read depend on (folders, packages followed, their versions and
        budget): part of the key of a kept project import (`project_imports.py`)."""

    def find(self, dotted: str) -> str | None:
        """The source file of module `dotted` in a followed package (searched after the project)."""

    def missing(self, interp: "Interpreter", dotted: str) -> Any:
        """The value of an import nothing provides (an unknown naming why)."""

    def importing(self, interp: "Interpreter", path: str) -> str | None:
        """The package an import of the file `path` enters (None: project code, or already inside it)."""

    def load(self, interp: "Interpreter", dotted: str, package: str, run: Callable[[], Any]) -> Any:
        """Import `dotted`, entering `package` (`run()` runs the import): under its budget and caches."""

    def module_attr(self, interp: "Interpreter", mod: "ModuleVal", name: str) -> Any:
        """A name a package module exports lazily (None: it says nothing of `name`)."""

    def all_names(self, interp: "Interpreter", mod: "ModuleVal") -> None:
        """Bind every name `mod` exports lazily (`from mod import *`, `mod.__dict__`)."""

    def deferred(self, interp: "Interpreter", node: "ast.Import | ast.ImportFrom", scope: "Scope") -> bool:
        """Whether the import statement being run is left for when one of its names is used."""

    def late_global(self, interp: "Interpreter", g: dict[str, Any], name: str) -> Any:
        """`name` of the module whose globals are `g`, bound now by its import left for this first read
        (None: not such a name)."""

    def late_names(self, interp: "Interpreter", mod: "ModuleVal") -> frozenset[str]:
        """The names of `mod` its imports left for their first read bind."""

    def entered(self, interp: "Interpreter", callee: "FunctionVal | ClassVal") -> str | None:
        """The package a call of `callee` enters (None: project code, or already inside it)."""

    def enter(self, interp: "Interpreter", package: str, run: Callable[[], Any], handed: tuple[Any, ...]) -> Any:
        """Run `run` inside `package` under its budget (`handed`: what the call was given)."""

    def overlay(self, interp: "Interpreter", fn: "FunctionVal") -> Any:
        """The model standing for a package's function (None: its own code runs)."""

    def class_method(self, interp: "Interpreter", cls: "ClassVal", method: str, args: tuple, kwargs: dict) -> Any:
        """What a package's class method gives where its source cannot (MISSING: run its code)."""

    def absent(self, interp: "Interpreter", top: str) -> bool:
        """Whether the environment the user named has no top-level module `top` (nor the project, the
        standard library or the models): an import of it raises ModuleNotFoundError."""

    def registered(self, interp: "Interpreter", package: str, decorator: str, key: str) -> Any:
        """The function registered under `key` by `@decorator` in `package`, read from source, or None."""

    def data_folder(self, path: str) -> str | None:
        """The folder of the followed package the file `path` belongs to (its data files are read as data:
        `Path(__file__).parent / "configs"`), None for the project's files and packages not followed."""

    def tick(self, interp: "Interpreter") -> None:
        """One step inside a package: raise PackageBudget when its budget is spent."""

    def relocate(self, interp: "Interpreter", span: Span, message: str) -> tuple[Span, str]:
        """Where a finding made on a package's (read-only) line is reported, and how."""

    def guard_side(self, node: ast.If) -> bool | None:
        """The side of a package's `if <not understood>: raise` that goes on (None: fork)."""
