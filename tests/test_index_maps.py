"""Tables numbered by their own length (interp/index_maps.py), with CPython and torch as the oracle.

The fixture tests/fixtures/data/vocabulary_numbered.py is analyzed by test_fixtures.py (its `# E:` lines are
the findings); here it runs under torch on small corpora: mode 0 (every line without a marker) passes, and
each marked mode raises torch's index error, so the findings are real and the silence elsewhere is right.
Small programs check what the analyzer claims of the tables themselves.
"""
from __future__ import annotations

import os
import re
import runpy
import sys

import pytest

from tests.oracle.fuzz_python import Analyzer

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "data", "vocabulary_numbered.py")
CORPORA = [("the cat sat\non the mat\n", "a dog sat\n"), ("x\n", "x y\n"), ("b a b\na\n", "c c\nb\n")]


def _modes() -> list[int]:
    with open(FIXTURE) as f:
        return sorted({int(m) for m in re.findall(r"mode == (\d+):", f.read())})


def _run(tmp_path: str, corpus: tuple[str, str], mode: int) -> BaseException | None:
    for name, text in zip(("train.txt", "valid.txt"), corpus):
        with open(os.path.join(tmp_path, name), "w") as f:
            f.write(text)
    cwd, argv = os.getcwd(), sys.argv
    os.chdir(tmp_path)
    sys.argv = [FIXTURE, str(mode)]
    try:
        runpy.run_path(FIXTURE, run_name="__main__")
    except (IndexError, RuntimeError) as e:
        return e
    finally:
        os.chdir(cwd)
        sys.argv = argv
    return None


@pytest.mark.parametrize("corpus", CORPORA)
def test_fixture_modes_under_torch(corpus: tuple[str, str], tmp_path: str) -> None:
    pytest.importorskip("torch")
    assert _run(str(tmp_path), corpus, 0) is None  # the lines without a marker: torch accepts them
    for mode in _modes():
        assert _run(str(tmp_path), corpus, mode) is not None, f"mode {mode} passed under torch"


_NOT_NUMBERED = [
    # a word seen again is stored again: its id is the length, past the end
    "for w in words:\n    d[w] = len(d)\n",
    # the other side changes the table
    "for w in words:\n    if w not in d:\n        d[w] = len(d)\n    else:\n        d[w] = 0\n",
    # numbered by a length that does not follow the table's
    "n = 0\nfor w in words:\n    if w not in d:\n        d[w] = n\n        n += 2\n",
]


@pytest.mark.parametrize("loop", _NOT_NUMBERED)
def test_no_claim_without_the_invariant(loop: str) -> None:
    """Tables that are not numbered by their length claim no range: a table one row short is not flagged
    (each of these programs may index past the end, which is no finding of this mechanism either)."""
    src = ("import torch\nimport torch.nn as nn\nwords = open('w.txt').read().split()\nd = {}\n" + loop +
           "ids = torch.tensor([d[w] for w in words])\n"
           "nn.Embedding(len(d) - 1, 4)(ids)\n")
    got = Analyzer().analyze(src)
    assert got.crash is None
    assert not got.errors and not got.warnings, (got.errors, got.warnings)


def test_numbered_table_under_the_oracle() -> None:
    """CPython: the ids of a guarded table are exactly 0..len-1, which is what the analyzer assumes."""
    words = "b a b c a d".split()
    d: dict[str, int] = {}
    for w in words:
        if w not in d:
            d[w] = len(d)
    assert sorted(d.values()) == list(range(len(d)))
    e: dict[str, int] = {}
    for w in words:
        e.setdefault(w, len(e))
    assert e == d
