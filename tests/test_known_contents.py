"""Small tensors of known contents and floats known within bounds (models/contents.py).

Each program in tests/data/known_contents/ (also `tuple(m.parameters())` of modeled layers, `dir()` of a
modeled library) holds probes `p_NAME = torch.zeros(...)` whose sizes are
values read out of tensors, with the shape CPython gives written after `# ->` (`?`: the values were
changed in a way the analyzer does not follow, so it must not claim a shape). The analyzer must give
exactly that shape, and with torch installed the programs run to check the comments themselves.
"""
from __future__ import annotations

import ast
import os
import re
import runpy

import pytest

from tests.oracle.fuzz_python import Analyzer, parse_shape

HERE = os.path.join(os.path.dirname(__file__), "data", "known_contents")
PROGRAMS = sorted(f for f in os.listdir(HERE) if f.endswith(".py"))
_PROBE = re.compile(r"^(p_\w+) = .*# -> (\?|\[[0-9, ]*\])")


def expectations(name: str) -> dict[str, str]:
    with open(os.path.join(HERE, name)) as f:
        return {m.group(1): m.group(2) for line in f if (m := _PROBE.match(line))}


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize("name", PROGRAMS)
def test_analyzer_reads_the_values(name: str, analyzer: Analyzer) -> None:
    with open(os.path.join(HERE, name)) as f:
        got = analyzer.analyze(f.read())
    assert got.crash is None and not got.errors, (got.crash, got.errors)
    want = expectations(name)
    assert want, "a program without probes checks nothing"
    for probe, shape in want.items():
        texts = got.shapes.get(probe)
        assert texts, f"{probe} not reached"
        exact = {parse_shape(t) for t in texts}
        if shape == "?":
            assert exact == {None}, f"{probe}: values that changed were still read as known: {texts}"
        else:
            assert exact == {tuple(ast.literal_eval(shape))}, f"{probe}: {texts}, CPython gives {shape}"


@pytest.mark.parametrize("name", PROGRAMS)
def test_comments_are_what_torch_gives(name: str) -> None:
    torch = pytest.importorskip("torch")
    values = runpy.run_path(os.path.join(HERE, name))
    for probe, shape in expectations(name).items():
        if shape != "?":
            assert tuple(values[probe].shape) == tuple(ast.literal_eval(shape)), probe
        assert isinstance(values[probe], torch.Tensor)
