"""Oracle for the core fixtures of the semantics (machine, dtypes, launchers, data scalars, loop
summaries, numpy draws, decided conditionals, attention layouts): run under real torch (on this CPU
machine, with no LOCAL_RANK), with `len(sys.argv) == k` each program dies at its k-th line marked
`# E:` (the innermost frame in the fixture), and nowhere else; a fixture without markers runs to
its end."""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

pytest.importorskip("torch")

CORE = Path(__file__).resolve().parents[1] / "fixtures" / "core"
FIXTURES = ["machine_env.py", "dtypes.py", "data_scalars.py", "loop_summaries.py", "numpy_draws.py",
            "decided_conditionals.py", "attention_layout.py", "identity_values.py", "module_table.py",
            "locals_configs.py", "constructor_loops.py", "value_classes.py", "symbolic_split.py", "class_attributes.py",
            "eager_mode.py", "complex_parts.py", "unknown_numbers.py", "drop_path_blocks.py", "parameter_tuples.py",
            "long_loop_lengths.py", "module_queries.py"]
SUBPROCESS = ["launchers_run.py"]  # torch.multiprocessing.spawn needs a real __main__ module


def _marked(path: Path) -> list[int]:
    return [i for i, line in enumerate(path.read_text().splitlines(), 1) if re.search(r"#\s*E:", line)]


def _cases(names: list[str]) -> list[tuple[str, int]]:
    out = []
    for name in names:
        n = len(_marked(CORE / name))
        out += [(name, k) for k in range(1, n + 1)] or [(name, 0)]
    return out


@pytest.mark.parametrize(("name", "mode"), _cases(FIXTURES))
def test_fixture_fails_exactly_at_its_marked_line(name: str, mode: int, monkeypatch: pytest.MonkeyPatch) -> None:
    path = CORE / name
    monkeypatch.delenv("LOCAL_RANK", raising=False)
    monkeypatch.setattr(sys, "argv", [name, *["x"] * (mode - 1)])
    monkeypatch.syspath_prepend(str(CORE))
    if mode == 0:
        runpy.run_path(str(path), run_name="__main__")
        return
    with pytest.raises((RuntimeError, IndexError, ValueError, AssertionError)) as info:
        runpy.run_path(str(path), run_name="__main__")
    lines = [f.lineno for f in traceback.extract_tb(info.value.__traceback__) if f.filename == str(path)]
    assert lines[-1] == _marked(path)[mode - 1]


@pytest.mark.parametrize(("name", "mode"), _cases(SUBPROCESS))
def test_launched_fixture_fails_at_its_marked_line(name: str, mode: int) -> None:
    """The innermost frame in the fixture of the traceback printed (spawn re-raises a process's)."""
    path = CORE / name
    env = {k: v for k, v in os.environ.items() if k != "LOCAL_RANK"}
    run = subprocess.run([sys.executable, str(path), *["x"] * (mode - 1)], capture_output=True, text=True,
                         timeout=300, env=env, cwd=str(CORE))
    assert run.returncode != 0
    lines = [int(n) for n in re.findall(re.escape(name) + r'", line (\d+)', run.stderr)]
    assert lines and lines[-1] == _marked(path)[mode - 1], run.stderr[-2000:]
