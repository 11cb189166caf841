"""A guard whose body raises on every side of an `if`/`elif`/`else` ends the program as a bare `raise` does
(interp/machine.py `ends_program`): where a branch on a value not understood is not forked (library mode's
construction, import-time code), the side taken is the one that goes on. peft's tuners (29 zero-check entries at
stop 40) end their construction with such a guard ("No modules were targeted...", three messages): built with
a base model and a configuration library mode cannot give, every construction ended there on main."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap

import pytest

from pytea_ci.interp.machine import ends_program, side_going_on

TUNER = """
    import torch
    from torch import nn


    class Tuner(nn.Module):
        def __init__(self, model, config):
            super().__init__()
            self.model = model
            dummy = config.target == "dummy"
            if not dummy and config.strict:
                if config.verbose:
                    raise ValueError("no module matched: " + str(config.target))
                elif config.quiet:
                    raise ValueError("no module matched")
                else:
                    raise ValueError("nothing targeted")
            self.fc = nn.Linear(4, 3)

        def forward(self, x):
            return self.fc(x) @ torch.zeros(3, 2)
"""


def test_an_if_chain_raising_on_every_side_ends_the_program() -> None:
    chain = ast.parse("if a:\n    raise E\nelif b:\n    raise F\nelse:\n    sys.exit(1)\n").body
    assert ends_program(chain)
    assert not ends_program(ast.parse("if a:\n    raise E\nelif b:\n    raise F\n").body)  # no else: goes on
    guard = ast.parse("if x:\n    if a:\n        raise E\n    else:\n        raise F\ny = 1\n").body[0]
    assert side_going_on(guard) is False


def test_cpython_builds_the_module_on_the_side_that_goes_on(tmp_path) -> None:
    pytest.importorskip("torch")
    (tmp_path / "tuner.py").write_text(textwrap.dedent(TUNER))
    code = ("from types import SimpleNamespace as NS; import torch; from tuner import Tuner; "
            "t = Tuner(None, NS(target='q', strict=False)); print(tuple(t(torch.zeros(5, 4)).shape))")
    run = subprocess.run([sys.executable, "-c", code], cwd=str(tmp_path), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "(5, 2)", run.stderr


def test_a_construction_past_a_guard_chain_is_checked(tmp_path) -> None:
    (tmp_path / "tuner.py").write_text(textwrap.dedent(TUNER))
    out = subprocess.run([sys.executable, "-m", "pytea_ci", "check", "tuner.py", "--library-mode", "only", "--no-cache",
                          "--jobs", "1", "--format", "json"], cwd=str(tmp_path), capture_output=True, text=True,
                         timeout=300)
    doc = json.loads(out.stdout)
    entry = next(e for e in doc["entries"] if e["entry"] == "tuner.py::Tuner")
    assert entry["coverage"]["checked"] >= 2, entry  # main: the construction ended at the guard, nothing checked
    assert not [d for d in doc["diagnostics"] if d["severity"] == "error"]
