"""In-process oracle check for the API table: run a case with the real library, then analyze it with one
shared Decider (like tests/oracle/test_properties.py). numpy's broadcast errors are ValueErrors; an augmented
assignment (`a += b`) is a statement whose result is its target."""

from __future__ import annotations

import re
import textwrap
from typing import Any

from tests.oracle.harness import InProcess


PRELUDE = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nimport numpy as np\n"
           "import einops\n")
AUG = re.compile(r"^(\w+) (\S+)= ")
_RUNNER = InProcess("api")


def statement(expr: str) -> tuple[str, str]:
    """The program line for a case and the variable holding its result."""
    m = AUG.match(expr)
    return (expr, m.group(1)) if m else (f"y = {expr}", "y")


def library_outcome(setup: str, expr: str) -> tuple[str, Any]:
    env: dict[str, Any] = {}
    exec(PRELUDE + textwrap.dedent(setup), env)  # noqa: S102  (the oracle runs the real library on purpose)
    line, var = statement(expr)
    try:
        exec(line, env)  # noqa: S102
    except (RuntimeError, ValueError, IndexError, AssertionError, KeyError) as e:  # einops layers: KeyError
        return "error", str(e)
    except TypeError as e:
        if "0-d tensor" not in str(e):  # iterating or taking len() of a 0-d tensor; other TypeErrors are bugs
            raise
        return "error", str(e)
    y = env[var]
    if isinstance(y, (tuple, list)) and y and hasattr(y[0], "shape"):
        y = y[0]
    if hasattr(y, "shape"):
        return "ok", tuple(y.shape)
    return "ok", None


def analyze(setup: str, expr: str, shape: tuple[int, ...] | None, ok: bool) -> tuple[int, set[tuple[int, str]]]:
    line_text, var = statement(expr)
    body = PRELUDE + textwrap.dedent(setup) + line_text + "\n"
    line = body.count("\n")
    if ok and shape is not None:
        body += f"y = {var}\nif isinstance(y, (tuple, list)):\n    y = y[0]\n"
        body += f"assert tuple(y.shape) == {shape!r}\n"
    return line, _RUNNER.findings(body)


def agree(setup: str, expr: str, expected: Any = None) -> None:
    """expected None: ask the real library; else a recorded shape tuple, "ok" (no shape), or "error"."""
    if expected is None:
        status, info = library_outcome(setup, expr)
    else:
        status, info = ("error", "recorded") if expected == "error" else ("ok", expected if expected != "ok" else None)
    line, found = analyze(setup, expr, info if status == "ok" else None, status == "ok")
    if status == "ok":
        assert not found, f"library accepts `{expr}` after {setup!r} giving {info}, but pytea-ci reported {sorted(found)}"
    else:
        assert found & {(line, "PT001"), (line, "PT003")}, (
            f"library rejects `{expr}` after {setup!r} ({info}), but pytea-ci reported {sorted(found) or 'nothing'}")
