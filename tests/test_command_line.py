"""The analyzed program's command line (`check --argv`, models/argparse_.py): `sys.argv` holds it, and an
argparse parser reads it as CPython's argparse does — short options, positionals, flags, `type` — where
before only `--arg NAME=VALUE` overrides of long options could be given. The program is also run by CPython
(torch the oracle): the analyzer's error is at the line CPython raises at."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[1]

PROGRAM = """\
    import argparse
    import json
    import sys
    import torch
    import torch.nn as nn
    p = argparse.ArgumentParser()
    p.add_argument("-c", "--config", required=True)
    p.add_argument("-b", type=int, default=8, dest="batch")
    p.add_argument("data")
    p.add_argument("--flag", action="store_true")
    a = p.parse_args()
    cfg = json.load(open(a.config))
    x = torch.zeros(a.batch, cfg["dim"])
    y = nn.Linear(cfg["dim"], 2)(x).view(a.batch * 2)
    if a.flag:
        x.view(5, 5)
    with open(sys.argv[2 if sys.argv[1] == "-c" else 1]) as f:
        n = len(f.readlines())
    torch.zeros(n).view(7, 7)
"""


def _both(tmp_path: Path, source: str, argv: str) -> tuple[list[tuple[str, int]], int | None]:
    """(rule, line) of the analyzer's non-note findings with `--argv argv`, and the line CPython raises at."""
    (tmp_path / "train.py").write_text(textwrap.dedent(source))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-m", "pytea_ci", "check", "train.py", "--no-cache", "--root", ".",
                        "--format", "json", "--fail-on", "never", "--library-mode", "never", f"--argv={argv}"],
                       cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    doc = json.loads(p.stdout)
    found = [(d["rule"], d["line"]) for d in doc["diagnostics"] if d["severity"] != "note"]
    run = subprocess.run([sys.executable, "train.py", *shlex.split(argv)], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    lines = [int(x.split(", line ")[1].split(",")[0]) for x in run.stderr.splitlines()
             if 'train.py", line ' in x]
    return found, (lines[-1] if lines else -1) if run.returncode else None  # -1: an exit, no traceback


@pytest.mark.parametrize("argv, line", [
    ("-c cfg.json d.txt -b 4", 19),  # the data file named by a positional: 3 lines
    ("--config=cfg.json data.txt --flag", 16),  # a flag: the branch it opens
    ("d.txt -c cfg.json -b 3", 19),  # the positional first: sys.argv[1] is the data file
])
def test_a_command_line_is_parsed_as_cpython_parses_it(tmp_path: Path, argv: str, line: int) -> None:
    (tmp_path / "cfg.json").write_text('{"dim": 16}')
    (tmp_path / "d.txt").write_text("a\nb\nc\n")
    (tmp_path / "data.txt").write_text("".join(f"{i}\n" for i in range(49)))
    found, raised = _both(tmp_path, PROGRAM, argv)
    assert raised == line and found == [("PT001", line)], (found, raised)


def test_a_rejected_command_line_ends_the_path(tmp_path: Path) -> None:
    """A required option missing: CPython's `parse_args` exits (no traceback), and so does the analyzed
    path: nothing after it (the data file `sys.argv` names) is a finding."""
    (tmp_path / "cfg.json").write_text('{"dim": 16}')
    (tmp_path / "d.txt").write_text("a\n")
    found, raised = _both(tmp_path, PROGRAM, "d.txt -b 4")
    assert raised == -1 and [f for f in found if f[0] == "PT001"] == [], found


def test_a_script_reading_sys_argv_gets_the_words(tmp_path: Path) -> None:
    (tmp_path / "words.txt").write_text("a b c\nd e\n")
    found, raised = _both(tmp_path, """\
        import sys
        import torch
        if len(sys.argv) != 3:
            sys.exit("usage: train.py DATA EPOCHS")
        lines = open(sys.argv[1]).read().splitlines()
        for epoch in range(int(sys.argv[2])):
            x = torch.zeros(len(lines), 4)
            x.view(3, 4)
    """, "words.txt 2")
    assert raised == 8 and found == [("PT001", 8)], (found, raised)


def test_a_program_setting_sys_argv_parses_its_own_list(tmp_path: Path) -> None:
    found, raised = _both(tmp_path, """\
        import argparse
        import sys
        import torch
        sys.argv = ["train.py", "--n", "3"]
        p = argparse.ArgumentParser()
        p.add_argument("--n", type=int, default=5)
        a = p.parse_args()
        torch.zeros(a.n, len(sys.argv)).view(9, 1)
    """, "--n 4")
    assert raised is None and found == [], (found, raised)  # 3 x 3 elements: the list the program set


def test_a_type_of_the_program_converts_the_word(tmp_path: Path) -> None:
    found, raised = _both(tmp_path, """\
        import argparse
        import torch
        def str2bool(v):
            return v.lower() in ("yes", "true", "1")
        p = argparse.ArgumentParser(description="x")
        p.add_argument("--wide", type=str2bool, default=False)
        p.add_argument("--version", action="version", version="1")
        a = p.parse_args()
        x = torch.zeros(4, 8 if a.wide else 6)
        x.view(-1, 6)
    """, "--wide yes")
    assert raised == 10 and found == [("PT001", 10)], (found, raised)
