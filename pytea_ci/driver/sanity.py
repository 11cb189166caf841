"""Runs that would check less than the user asked for, said in one line each instead of silently.

* `--arg NAME=VALUE` / `[tool.pytea-ci.args]` whose value argparse would reject under the option's
  `type=` (an error, exit 2, before any analysis: the run would check another program);
* `--arg NAME=...` / `[tool.pytea-ci.args]` naming an argparse argument that no selected entry point
  defines (read from the `add_argument` calls of each entry point's import closure, as `pysource.py`
  reads them);
* a `[tool.pytea_ci]` or `[tool.pytea]` table, which pytea-ci does not read (the table is `pytea-ci`);
* a `# pytea: ignore[...]` comment in an analyzed file that names no rule (it suppresses nothing);

The caller prints them as warnings (and SARIF carries them as notifications); the run goes on.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from pytea_ci.diagnostics.suppress import unknown_in_file
from pytea_ci.driver import fs
from pytea_ci.driver.config import toml_module
from pytea_ci.driver.imports_graph import ImportGraph
from pytea_ci.driver.pysource import Declarations, declarations
from pytea_ci.diagnostics import grammar

MISNAMED = ("pytea_ci", "pytea", "pyteaci", "pytea-CI")


# ----- argparse names ------------------------------------------------------------------------------
class Declared:
    """The argparse declarations of the files the entry points import (`pysource.declarations`), each
    file read and parsed once per run however many entry points import it."""

    def __init__(self, graph: ImportGraph) -> None:
        self.graph = graph
        self.files: dict[str, Declarations | None] = {}

    def _file(self, path: str) -> Declarations | None:
        if path not in self.files:
            try:
                self.files[path] = declarations(grammar.parse(fs.read(path)))
            except (OSError, SyntaxError, ValueError):
                self.files[path] = None
        return self.files[path]

    def dests(self, entry: str) -> set[str] | None:
        """Every option the entry point's import closure defines; None when one cannot be known."""
        out: set[str] = set()
        for d in filter(None, map(self._file, self.graph.closure(entry).files)):
            if d.dests is None:
                return None
            out |= d.dests
        return out

    def types(self, entry: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for d in filter(None, map(self._file, self.graph.closure(entry).files)):
            for dest, kinds in d.types.items():
                out.setdefault(dest, set()).update(kinds)
        return out


def unknown_args(wanted: dict[str, set[str]], cli_names: set[str], declared: Declared) -> list[str]:
    """One warning per override name that none of the entry points it applies to defines.
    `wanted`: entry point -> the names overridden for it; `cli_names`: those given with --arg."""
    defined: dict[str, bool] = {}
    for entry, names in wanted.items():
        if not names:
            continue
        found = declared.dests(entry)
        if found is None:
            return []  # a computed argument name: anything may exist
        for name in names:
            defined[name] = defined.get(name, False) or name in found
    out = []
    for name, ok in sorted(defined.items()):
        if not ok:
            origin = "--arg" if name in cli_names else "[tool.pytea-ci.args]"
            out.append(f"{origin} {name}: no analyzed entry point defines an argparse argument {name!r}; "
                       "the override has no effect")
    return out


_CONVERT = {"int": int, "float": float}


def _rejected(value: object, kind: str) -> bool:
    """Whether argparse's `type=kind` would reject `value` given on the command line."""
    if isinstance(value, bool) or isinstance(value, (list, tuple, dict)):
        return True
    if kind == "float" and isinstance(value, (int, float)) or kind == "int" and isinstance(value, int):
        return False
    try:
        _CONVERT[kind](str(value))
    except ValueError:
        return True
    return False


def typed_args(wanted: dict[str, dict[str, object]], cli_names: set[str], declared: Declared) -> list[str]:
    """Apply argparse's `type=` to the override values, as the program's parser would (`--arg lr=1` for
    `type=float` is 1.0, `batch_size='16'` for `type=int` is 16), in place; the usage errors for values
    it would reject (`--arg batch_size=abc` for `type=int`). `wanted`: entry point -> its overrides."""
    out: dict[str, str] = {}
    for entry, values in wanted.items():
        if not values:
            continue
        types = declared.types(entry)
        for name, value in values.items():
            kinds = types.get(name, set())
            if len(kinds) != 1 or (kind := next(iter(kinds))) not in _CONVERT:
                continue
            if _rejected(value, kind):
                origin = "--arg" if name in cli_names else "[tool.pytea-ci.args]"
                out[name] = (f"{origin} {name}={value}: the program declares {name} with type={kind}, which "
                             f"rejects {str(value)!r}")
            else:
                values[name] = _CONVERT[kind](value if isinstance(value, (int, float)) else str(value))
    return [out[k] for k in sorted(out)]


# ----- configuration tables ------------------------------------------------------------------------
def misnamed_sections(start: str) -> list[str]:
    """`[tool.pytea_ci]`-like tables in the pyproject.toml files from `start` upwards."""
    out = []
    for here in fs.ancestors(start):
        path = os.path.join(here, "pyproject.toml")
        if not fs.isfile(path):
            continue
        tomllib = toml_module()
        try:
            tool = tomllib.loads(fs.read(path).decode("utf-8")).get("tool", {})
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        if isinstance(tool, dict):
            out += [f"{path}: [tool.{name}] is not read by pytea-ci; the table is [tool.pytea-ci]"
                    for name in MISNAMED if name in tool]
    return out



# ----- suppression comments ------------------------------------------------------------------------
def unknown_suppressions(entries: Iterable[str], graph: ImportGraph, root: str) -> list[str]:
    """Suppression comments naming no rule, in the files the entry points import (each file once)."""
    files: set[str] = set()
    for entry in entries:
        files.update(graph.closure(entry).files)
    out = []
    for path in sorted(files):
        try:
            data = fs.read(path)
        except OSError:
            continue
        if b"pytea" in data:
            out += unknown_in_file(os.path.relpath(path, root), data.decode("utf-8", errors="replace"))
    return out
