"""Imports: project modules are found on disk and run by the interpreter (never by Python);
modeled libraries resolve to registry namespaces; anything else is Unknown."""

from __future__ import annotations

import ast
import os
import sys
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.runtime import MODULE_NOT_FOUND, BudgetExceeded, ModuleVal, Scope, UserException, raised_text
from pytea_ci.models.call_facets import of_tensor_library
from pytea_ci.models.registry import is_modeled_root, lookup
from pytea_ci.models.values import MISSING, Namespace, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import MACHINE, Sym

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter


class ImportMixin:
    def find_module_file(self: "Interpreter", dotted: str) -> "str | None":
        found = self._find_module_file(dotted)
        if self.shared.project_imports is not None:  # a kept project import holds only where lookups agree
            self.shared.project_imports.looked_up(dotted, found)
        return found

    def _find_module_file(self: "Interpreter", dotted: str) -> "str | None":
        parts = dotted.split(".")
        for root in self.config.search_roots:
            base = os.path.join(root, *parts)
            for cand in (base + ".py", os.path.join(base, "__init__.py")):
                if os.path.isfile(cand) and self.inside_project(cand):
                    return cand
        return self.shared.installed.find(dotted) if self.shared.installed is not None else None  # after the project

    def entry_package(self: "Interpreter") -> str:
        """The package of an entry point that sits in one (`pkg/sub/run.py` beside `pkg/sub/__init__.py`):
        it runs as under `python -m pkg.sub.run` (interp/search_path.py). "" for a script."""
        return self.config.package

    def import_module(self: "Interpreter", dotted: str, scope: Scope, node: ast.AST) -> Any:
        """Import `dotted` (running parent packages first); return the module value."""
        if dotted in self.modules:
            return self.modules[dotted]
        path = self.find_module_file(dotted)
        if path is None:
            if not is_modeled_root(dotted) and (space := self.namespace_package(dotted)) is not None:
                return space
            if is_modeled_root(dotted):
                if of_tensor_library(dotted + "."):  # nothing checked in a program that imports torch is worth a note
                    self.shared.coverage.library_used = True
                found = lookup(dotted)
                return found if found is not MISSING else self.unknown(dotted, api=True)
            return self.shared.installed.missing(self, dotted) if self.shared.installed is not None else self.not_found(dotted)
        installed = self.shared.installed
        pkg = installed.importing(self, path) if installed is not None else None
        if installed is not None and pkg is not None:  # an installed package's import: its budget and caches
            return installed.load(self, dotted, pkg, lambda: self.import_path(dotted, path, scope, node))
        kept = self.shared.project_imports
        if kept is not None and kept.applies(self, path):  # a package of the project: once per run
            return kept.load(self, dotted, lambda: self.import_path(dotted, path, scope, node))
        return self.import_path(dotted, path, scope, node)

    def namespace_package(self: "Interpreter", dotted: str) -> "ModuleVal | None":
        """A folder of the project without `__init__.py` that holds Python files (`models/` of a training
        script that imports `models.TextCNN`): CPython's namespace package, found when no module or
        regular package of that name is (the project's, an installed one's). Runs nothing."""
        parts = dotted.split(".")
        for root in self.config.search_roots:
            folder = os.path.join(root, *parts)
            if os.path.isdir(folder) and self.inside_project(folder) and _holds_python(folder):
                if "." in dotted:
                    parent = self.import_module(dotted.rsplit(".", 1)[0], Scope({}, {}), ast.Pass())
                    if not isinstance(parent, ModuleVal):
                        return None
                mod = ModuleVal(dotted, folder, {"__name__": dotted, "__package__": dotted, "__path__": [folder]})
                self.modules[dotted] = mod
                if "." in dotted:
                    parent.globals.setdefault(parts[-1], mod)
                return mod
        return None

    def load_module(self: "Interpreter", dotted: str) -> Any:
        """`import dotted` run by a model (`importlib.import_module`, `__import__`): the module itself."""
        return self.import_module(dotted, Scope({}, {}), ast.Pass())

    def not_found(self: "Interpreter", dotted: str, in_environment: bool = False) -> Any:
        """An import neither the project nor the models provide (nor an installed package). A
        third-party package imported where a handler catches its absence (`try: from xformers.ops import
        ...` / `except ImportError:`) is installed on some machines and not on others: a fact of the
        machine, one per package, so the program's fallback (pure torch, often) is followed too; unless
        the environment the user named has it (`in_environment`): the import finds it there."""
        top = dotted.split(".")[0]
        kind = "standard library module" if top in sys.stdlib_module_names else "third-party module"
        if kind == "third-party module" and self.catching_import and not in_environment:
            installed = Sym(f"installed_{top}", MACHINE, 0, 1, self.span, f"a fact about the machine: whether {top} "
                            f"is installed")
            if self.decide(P.eq(installed, 0)):  # first the machine without it: the fallback is the program's own
                raise UserException(MODULE_NOT_FOUND)
        return self.unknown(f"{kind} '{top}' (import {dotted})", api=True)

    def import_path(self: "Interpreter", dotted: str, path: str, scope: Scope, node: ast.AST) -> Any:
        if "." in dotted:
            self.import_module(dotted.rsplit(".", 1)[0], scope, node)
            if dotted in self.modules:  # the package's import loaded it (`from . import sub`): as CPython, not run again
                return self.modules[dotted]
        return self.run_module(dotted, path)

    def run_module(self: "Interpreter", dotted: str, path: str) -> ModuleVal:
        tree = self.parse_file(path)
        g: dict[str, Any] = {"__name__": dotted, "__file__": path}
        mod = ModuleVal(dotted, path, g)
        self.modules[dotted] = mod  # registered first: import cycles see the partial module
        if tree is None:
            return mod
        if "." in dotted:
            parent = self.modules.get(dotted.rsplit(".", 1)[0])
            if isinstance(parent, ModuleVal):
                parent.globals.setdefault(dotted.rsplit(".", 1)[1], mod)
        g["__package__"] = dotted if path.endswith("__init__.py") else dotted.rpartition(".")[0]
        saved = self.cur_path
        self.cur_path = path
        self.importing += 1
        try:
            self.exec_block(tree.body, Scope(g, g))
        except UserException as e:  # the module raised while importing; what it defined so far stays usable
            mod.stopped = f"its import stopped: {raised_text(e)}"
            where = e.span or self.span
            if self.project_span(where) == where:  # the project's own module: the rest of it is code not followed
                self.shared.coverage.end("import", where, f"the rest of {dotted} is not followed: {raised_text(e)} "
                                         "while importing it")
        except BudgetExceeded as b:
            b.module = b.module or dotted
            raise
        finally:
            self.cur_path = saved
            self.importing -= 1
        return mod

    def module_table(self: "Interpreter") -> dict[str, Any]:
        """`sys.modules`: the program's modules run so far (the entry as `__main__`); any other name
        may be there too (a library's), so a missing key is unknown, not a KeyError."""
        table = {k: v for k, v in self.modules.items() if isinstance(v, ModuleVal)}
        if self.program is not None:  # the module run, while its import prefix runs (`run_path`)
            table.setdefault(self.program.name, self.program)
        self.mark_inexact(table)
        self.escaped.add(id(table))
        return table

    def try_submodule(self: "Interpreter", mod: ModuleVal, name: str) -> Any:
        dotted = f"{mod.name}.{name}"
        if self.find_module_file(dotted):
            return self.import_module(dotted, Scope(mod.globals, mod.globals), ast.Pass())
        return None

    def resolve_relative(self: "Interpreter", node: ast.ImportFrom, scope: Scope) -> str:
        if not node.level:
            return node.module or ""
        pkg = scope.globals.get("__package__") or ""
        parts = pkg.split(".") if pkg else []
        if node.level > 1:
            parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join(parts)
        if node.module:
            return f"{base}.{node.module}" if base else node.module
        return base

    def import_from(self: "Interpreter", node: ast.ImportFrom, scope: Scope) -> None:
        dotted = self.resolve_relative(node, scope)
        if node.level and not dotted:
            # `from . import x` at the top of the project: x is a sibling module
            for alias in node.names:
                self.bind_name(alias.asname or alias.name, self.import_module(alias.name, scope, node), scope)
            return
        mod = self.import_module(dotted, scope, node)
        for alias in node.names:
            if alias.name == "*":
                self.star_import(mod, scope)
                continue
            value = self.getattr(mod, alias.name) if not isinstance(mod, Unknown) else self.derived(f"{dotted}.{alias.name}", mod)
            if isinstance(mod, ModuleVal) and alias.name not in mod.globals:
                sub = self.try_submodule(mod, alias.name)
                if sub is not None:
                    value = sub
            self.bind_name(alias.asname or alias.name, value, scope)

    def star_import(self: "Interpreter", mod: Any, scope: Scope) -> None:
        if isinstance(mod, ModuleVal):
            if self.shared.installed is not None:
                self.shared.installed.all_names(self, mod)  # a followed package's deferred re-exports, all of them
            names = mod.globals.get("__all__")
            if isinstance(names, (list, tuple)):
                for n in names:
                    if isinstance(n, str) and n in mod.globals:
                        self.bind_name(n, mod.globals[n], scope)
                return
            # keys are names, except where the module wrote `globals()[key]` / `globals().update(...)`
            # with keys the analyzer does not know: those names cannot be bound here
            for k, v in list(mod.globals.items()):
                if isinstance(k, str) and not k.startswith("_"):
                    self.bind_name(k, v, scope)
        elif isinstance(mod, Namespace):
            self.star_namespaces.setdefault(id(scope.globals), []).append(mod)


def _holds_python(folder: str) -> bool:
    try:
        return any(name.endswith(".py") for name in os.listdir(folder))
    except OSError:
        return False
