"""Configuration: `[tool.pytea-ci]` of the nearest pyproject.toml (or `--config FILE`), validated.

Every key is declared once in `KEYS` with its type; an unknown key or a wrong type raises
`ConfigError` naming the key, which the CLI turns into exit code 2. CLI flags are applied on top
by the caller (`Config.override`). `analysis_options(entry)` gives what one entry point is
analyzed with, which is also what its result-cache key is built from.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pytea_ci.diagnostics import Severity, rule_by_id
from pytea_ci.driver import DEFAULT_CACHE_DIR, fs
from pytea_ci.driver.symranges import parse_range

SECTION = "tool.pytea-ci"
FAIL_ON = ("error", "warning", "never")


class ConfigError(Exception):
    """An invalid configuration file or value; the message names the file and the key."""


@dataclass
class Config:
    """The effective configuration. Attribute names are the keys with `-` turned into `_`."""

    entry_points: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    args: dict[str, Any] = field(default_factory=dict)
    symbolic: dict[str, Any] = field(default_factory=dict)
    solver_timeout: int = 2000
    time_budget: float = 20.0  # reference seconds per entry point (mapped to steps: diagnostics/budgets.py)
    max_paths: int = 64
    max_steps: int = 400_000
    loop_unroll: int = 16
    cache_dir: str = DEFAULT_CACHE_DIR
    fail_on: str = "error"
    severity: dict[str, str] = field(default_factory=dict)
    disable: list[str] = field(default_factory=list)
    jobs: int = 0  # 0: number of CPUs
    library_mode: str = "auto"  # auto | always | only | never (library/run.py)
    library_time_budget: float = 5.0  # reference seconds per module in library mode (mapped to steps)
    library_tests: bool = False  # whether a whole-project run checks the modules of test files alone too
    run_budget: float = 240.0  # reference seconds per invocation (steps; twice it in real seconds: the safety net)
    wall_clock_limit: float = 600.0  # the safety net per entry point, in real seconds
    min_coverage: float | None = None  # percent of tensor operations checked per entry point; None: no gate
    python: str | None = None  # the interpreter whose installed packages are read (packages/environment.py)
    follow_packages: list[str] | None = None  # installed packages followed (None: environment.DEFAULT_FOLLOW)
    skip_packages: list[str] = field(default_factory=list)  # installed packages never followed
    package_budget: float = 6.0  # reference seconds per installed package per path (mapped to steps)
    source: str = ""  # the file it came from ("" when none)

    def override(self, **values: Any) -> None:
        """Apply CLI flags: every value that is not None replaces the file's."""
        for name, value in values.items():
            if name == "symbolic" and value is not None:
                value = {**self.symbolic, **value}  # --symbolic adds to the configured table
            if value is not None:
                setattr(self, name, value)

    def per_entry(self, table: dict[str, Any], entry: str) -> dict[str, Any]:
        """Global values of `table` (non-table values) updated by those of matching entry patterns."""
        out = {k: v for k, v in table.items() if not isinstance(v, dict)}
        for pattern, sub in table.items():
            if isinstance(sub, dict) and _matches(entry, pattern):
                out.update(sub)
        return out

    def analysis_options(self, entry: str) -> dict[str, Any]:
        """The interpreter options of one entry point (path relative to the project root)."""
        symbolic = {k: parse_range(v) for k, v in self.per_entry(self.symbolic, entry).items()}
        return {"args": self.per_entry(self.args, entry), "symbolic_args": symbolic}


def _matches(entry: str, pattern: str) -> bool:
    entry = entry.replace(os.sep, "/")
    return entry == pattern.rstrip("/") or fnmatch.fnmatch(entry, pattern) or entry.startswith(pattern.rstrip("/") + "/")


def _is_range(v: Any) -> bool:
    try:
        parse_range(v)
    except ValueError:
        return False
    return True


# ----- validation ----------------------------------------------------------------------------------
def _is_str_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_args(v: Any) -> bool:
    return isinstance(v, dict) and all(not isinstance(x, dict) or all(not isinstance(y, dict) for y in x.values())
                                       for x in v.values())


def _is_symbolic(v: Any) -> bool:
    if not isinstance(v, dict):
        return False
    return all(_is_range(x) or (isinstance(x, dict) and all(_is_range(y) for y in x.values())) for x in v.values())


def _is_severity(v: Any) -> bool:
    return isinstance(v, dict) and all(
        rule_by_id(k) is not None and v2 in ("error", "warning", "note") for k, v2 in v.items())


KEYS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "entry-points": (_is_str_list, "a list of paths or globs"),
    "exclude": (_is_str_list, "a list of globs"),
    "args": (_is_args, "a table of argument = value, or of entry-point pattern = {argument = value}"),
    "symbolic": (_is_symbolic, "a table of name = range (\"1..1024\", \"0..\", [\"224\", \"256..512 step 32\"]) "
                 "for argparse options, Dataset classes or file:line (or entry-point pattern = {...})"),
    "solver-timeout": (lambda v: _is_int(v) and v > 0, "a positive integer (milliseconds)"),
    "time-budget": (lambda v: (_is_int(v) or isinstance(v, float)) and v > 0, "a positive number (seconds)"),
    "max-paths": (lambda v: _is_int(v) and v > 0, "a positive integer"),
    "max-steps": (lambda v: _is_int(v) and v > 0, "a positive integer"),
    "loop-unroll": (lambda v: _is_int(v) and v >= 0, "a non-negative integer"),
    "cache-dir": (lambda v: isinstance(v, str) and v != "", "a path"),
    "fail-on": (lambda v: v in FAIL_ON, "one of error, warning, never"),
    "severity": (_is_severity, "a table of rule id or slug = error | warning | note"),
    "disable": (lambda v: _is_str_list(v) and all(rule_by_id(x) for x in v), "a list of rule ids or slugs"),
    "jobs": (lambda v: _is_int(v) and v >= 0, "a non-negative integer (0: number of CPUs)"),
    "library-mode": (lambda v: v in ("auto", "always", "only", "never"), "one of auto, always, only, never"),
    "library-tests": (lambda v: isinstance(v, bool), "true or false"),
    "library-time-budget": (lambda v: (_is_int(v) or isinstance(v, float)) and v > 0, "a positive number (seconds)"),
    "run-budget": (lambda v: (_is_int(v) or isinstance(v, float)) and v >= 0, "a number >= 0 (seconds; 0: no limit)"),
    "wall-clock-limit": (lambda v: (_is_int(v) or isinstance(v, float)) and v > 0, "a positive number (seconds)"),
    "min-coverage": (lambda v: (_is_int(v) or isinstance(v, float)) and 0 <= v <= 100,
                     "a percentage from 0 to 100 (tensor operations checked per entry point)"),
    "python": (lambda v: isinstance(v, str) and v != "", "a path to a Python interpreter or a virtualenv folder"),
    "follow-packages": (_is_str_list, "a list of top-level import names of installed packages (\"*\": all)"),
    "skip-packages": (_is_str_list, "a list of top-level import names of installed packages"),
    "package-budget": (lambda v: (_is_int(v) or isinstance(v, float)) and v > 0, "a positive number (seconds)"),
}


def from_table(table: dict[str, Any], source: str) -> Config:
    """Validate a `[tool.pytea-ci]` table and build the configuration."""
    cfg = Config(source=source)
    for key, value in table.items():
        if key not in KEYS:
            known = ", ".join(sorted(KEYS))
            raise ConfigError(f"{source}: unknown key {key!r} in [{SECTION}] (known keys: {known})")
        check, expected = KEYS[key]
        if not check(value):
            raise ConfigError(f"{source}: [{SECTION}] {key} must be {expected}, got {value!r}")
        if key in ("time-budget", "library-time-budget", "run-budget", "wall-clock-limit", "package-budget"):
            value = float(value)
        if key == "severity":
            value = {rule_by_id(k).id: v for k, v in value.items()}  # type: ignore[union-attr]
        if key == "disable":
            value = [rule_by_id(k).id for k in value]  # type: ignore[union-attr]
        setattr(cfg, key.replace("-", "_"), value)
    return cfg


def toml_module() -> Any:
    """tomllib (tomli before 3.11), imported when a pyproject.toml is read: a run without one skips it."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    return tomllib


def _read(path: str) -> dict[str, Any]:
    tomllib = toml_module()
    try:
        return tomllib.loads(fs.read(path).decode("utf-8"))
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text: {e.reason} at byte {e.start}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: invalid TOML: {e}") from None


def _section(doc: dict[str, Any], path: str, required: bool) -> dict[str, Any] | None:
    tool = doc.get("tool", {})
    table = tool.get("pytea-ci") if isinstance(tool, dict) else None
    if table is None:
        if required:
            # a dedicated file may hold the keys at its top level
            return doc if not path.endswith("pyproject.toml") else {}
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [{SECTION}] must be a table")
    return table


def find_pyproject(start: str) -> str | None:
    """The nearest pyproject.toml with a [tool.pytea-ci] table, from `start` upwards."""
    for here in fs.ancestors(start):
        cand = os.path.join(here, "pyproject.toml")
        if fs.isfile(cand) and _section(_read(cand), cand, False) is not None:
            return cand
    return None


def load(start: str, explicit: str | None = None) -> Config:
    """The configuration of `explicit` (must exist), else of the nearest pyproject.toml, else defaults."""
    path = explicit if explicit is not None else find_pyproject(start)
    if path is None:
        return Config()
    if explicit is not None and not fs.isfile(explicit):
        raise ConfigError(f"{explicit}: no such configuration file")
    table = _section(_read(path), path, explicit is not None) or {}
    return from_table(table, os.path.abspath(path))


def replace(cfg: Config, **changes: Any) -> Config:
    return dataclasses.replace(cfg, **changes)


def severity_of(cfg: Config, rule: str, default: Severity) -> Severity | None:
    """The configured level of `rule` (None: disabled)."""
    if rule in cfg.disable:
        return None
    level = cfg.severity.get(rule)
    return Severity(level) if level else default
