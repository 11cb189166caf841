"""`eval(text)` of a text known here (interp/eval_text.py), with CPython as the oracle: each program ends its
values in probes (`p_NAME = torch.zeros(...)`, tests/test_python_values.py); CPython runs it for the truth and
the analyzer's probe shapes must be exactly CPython's, or (where CPython's eval would not see a name) not a
wrong concrete value. A layer named in a string option is then checked like one named in the code."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pytea_ci.driver.run import Options, run
from tests.oracle.fuzz_python import Analyzer
from tests.test_python_values import cpython_probes, exact, verdicts


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def test_eval_of_known_texts_is_cpythons_value(analyzer: Analyzer) -> None:
    exact(analyzer, """\
        import torch
        sizes = eval("[16, 32, 16, 8]")
        p_sizes = torch.zeros(*sizes)
        p_sum = torch.zeros(eval(" 2 * len(sizes) + 1"))
        width = 3
        p_scope = torch.zeros(eval("width * 2"), eval("[w for w in sizes if w > 8][-1]"))
        def f(k):
            n = k + 1
            return eval("n * k + len(sizes)")
        p_local = torch.zeros(f(3))
        p_lambda = torch.zeros(eval("(lambda a, b=2: a * b)(5)"))
        p_dict = torch.zeros(eval("{'h': 4, 'w': 6}")["w"])
    """)


def test_a_name_cpythons_eval_does_not_see_is_not_read(analyzer: Analyzer) -> None:
    """In a nested function, eval reads the function's own locals and the globals: an enclosing function's
    variable the nested one does not use is a NameError in CPython, so no value is taken from it."""
    source = """\
        import torch
        def outer():
            hidden = 7
            def inner():
                try:
                    return eval("hidden")
                except NameError:
                    return 3
            return inner()
        p_v = torch.zeros(outer())
    """
    assert cpython_probes(textwrap.dedent(source)) == {"p_v": (3,)}
    assert verdicts(analyzer, source)["p_v"] != "wrong"


def test_a_layer_named_in_a_string_option_is_checked(tmp_path: Path) -> None:
    """`eval(args.unit)` of an option's default names the layer: its input check is made."""
    (tmp_path / "main.py").write_text(textwrap.dedent("""\
        import argparse
        import torch
        import torch.nn as nn
        p = argparse.ArgumentParser()
        p.add_argument("--unit", default="nn.GRU")
        p.add_argument("--layers", default="[16,32,8]")
        args = p.parse_args()
        sizes = eval(args.layers)
        mlp = nn.Sequential(*[nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])
        h = mlp(torch.randn(4, 16))
        rnn = eval(args.unit)(input_size=8, hidden_size=8, batch_first=True)
        out, _ = rnn(torch.randn(2, 7, 5))
    """))
    (res,) = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), strict=True)).entries
    assert [(d.rule, d.span.line) for d in res.diagnostics if d.severity.name == "ERROR"] == [("PT001", 12)]
