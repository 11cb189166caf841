"""Oracle harness: compare a shape rule with real torch on accepted and rejected inputs.

A case is a few lines of setup and one expression. The test runs it with real torch (this is the
test, not the analyzer), then analyzes the same program with pytea-ci:
- when torch accepts it, the program also asserts the result shape torch computed, so a wrong
  shape rule shows up as a PT004 finding, and any finding fails the case;
- when torch raises a shape error, pytea-ci must report PT001/PT003 on the expression's line.
Tests using it skip cleanly when torch is not installed.
"""

from __future__ import annotations

import os
import tempfile
import textwrap
from typing import Any

import pytest

from pytea_ci.driver.run import Options, run

torch = pytest.importorskip("torch")

PRELUDE = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"


def torch_outcome(setup: str, expr: str) -> tuple[str, Any]:
    env: dict[str, Any] = {}
    exec(PRELUDE + textwrap.dedent(setup), env)  # noqa: S102  (the oracle runs real torch on purpose)
    try:
        y = eval(expr, env)  # noqa: S307
    except (RuntimeError, ValueError, IndexError, AssertionError) as e:
        return "error", str(e)
    if isinstance(y, (tuple, list)):
        y = y[0]
    return "ok", tuple(y.shape)


class InProcess:
    """Analyze many small programs in this process with one shared decider (fast oracle loops)."""

    def __init__(self, label: str) -> None:
        from pytea_ci.solver import Decider

        self.decider = Decider(timeout_ms=2000, salt=f"pytea-ci {label}")
        self.folder = tempfile.mkdtemp(prefix=f"pytea-{label}-")
        self.opts = Options(root=self.folder, strict=True)

    def findings(self, body: str) -> set[tuple[int, str]]:
        """(line, rule) of every finding of the program `body`."""
        from pytea_ci.driver.run import run_one

        path = os.path.join(self.folder, "case.py")
        with open(path, "w") as f:
            f.write(body)
        return {(d.span.line, d.rule) for d in run_one(path, self.opts, self.decider).diagnostics}


def analyze_case(setup: str, expr: str, shape: tuple[int, ...] | None) -> tuple[int, set[tuple[int, str]]]:
    body = PRELUDE + textwrap.dedent(setup) + f"y = {expr}\n"
    line = body.count("\n")
    if shape is not None:
        body += "if isinstance(y, (tuple, list)):\n    y = y[0]\n"
        body += f"assert tuple(y.shape) == {shape!r}\n"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "case.py")
        with open(path, "w") as f:
            f.write(body)
        result = run([path], Options(root=d, strict=True))
    return line, {(x.span.line, x.rule) for x in result.diagnostics}


def check_against_torch(setup: str, expr: str) -> None:
    status, info = torch_outcome(setup, expr)
    line, found = analyze_case(setup, expr, info if status == "ok" else None)
    if status == "ok":
        assert not found, f"torch accepts `{expr}` giving {info}, but pytea-ci reported {sorted(found)}"
    else:
        assert found & {(line, "PT001"), (line, "PT003")}, (
            f"torch rejects `{expr}` ({info}), but pytea-ci reported {sorted(found) or 'nothing'}")
