"""Comprehensions over plain data run at once (`interp/bulk.py`) and `X | Y` unions of classes
(`models/type_union.py`), against CPython (issue 36, item 3: transformers 5's import built its auto classes'
docstrings step by step, past the package's step budget, and `isinstance(v, list | tuple)` forked).

Each program ends its values in probes `p_NAME = torch.zeros(...)` (see test_python_values.py): the
analyzer's value must be CPython's. The cost test counts steps: a comprehension over thousands of plain
items is charged a fraction of a step per item."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytea_ci.driver.run import Options, run
from tests.oracle.fuzz_python import Analyzer
from tests.test_python_values import exact


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def test_comprehensions_over_plain_tables_are_cpythons(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        from collections import OrderedDict
        import torch

        CONF = OrderedDict([("a", "AConfig"), ("b", "BConfig"), ("c", "CConfig")])
        MODELS = OrderedDict([("a", "AModel"), ("b", ("BModel", None, "BModel2")), ("z", "ZModel")])

        def name(m):
            if isinstance(m, list | tuple):
                return " or ".join([f"[`{c}`]" for c in m if c is not None])
            return f"[`{m}`]"

        def enc(s):
            return torch.zeros(*[ord(c) for c in s])

        rev = {v: k for k, v in CONF.items()}
        p_rev = enc("".join(f"{k}={v};" for k, v in rev.items()))
        named = {CONF[k]: name(v) for k, v in MODELS.items() if k in CONF}
        p_named = enc("|".join(named[k] for k in sorted(named.keys())))
        indent = "  "
        lines = [f"{indent}- **{k}** -- {CONF[k]!r:>10} ({k} model)" for k in sorted(CONF.keys()) if k != "b" or k is None]
        p_lines = enc("\\n".join(lines))
        pairs = [(k, (v, k)) for k, v in CONF.items() if not (k == "a" and v == "AConfig")]
        shown = [f"{t!r}" for t in pairs if t[1][1] in "bc" and t[0] >= "b"]
        p_pairs = enc(pairs[0][0] + pairs[0][1][0] + shown[-1])
        p_chars = enc([c if c < "n" else "-" for c in "configuration"])
        acc = []
        def seen(x):
            acc.append(x)
            return x * 2
        doubled = [seen(k) for k in "abc" if k != "b"]
        p_calls = enc("".join(acc + doubled))
        try:
            [MODELS[k] for k in ("a", "q")]
            p_missing = torch.zeros(1)
        except KeyError:
            p_missing = torch.zeros(2)
    ''')


def test_unions_of_classes_are_tested_as_cpython_tests_them(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import torch

        class A:
            pass

        class B(A):
            pass

        def kind(m):
            if isinstance(m, list | tuple):
                return 1
            if isinstance(m, int | None):
                return 2
            if isinstance(m, str | A):
                return 3
            return 4

        p_kinds = torch.zeros(kind([1]), kind((1,)), kind(None), kind(3), kind(True), kind("s"), kind(B()), kind(2.5))
        p_none = torch.zeros(2 if isinstance(None, type(None)) else 3, 2 if isinstance(0, type(None)) else 3)
        p_nested = torch.zeros(2 if isinstance(1.5, (str | None) | float) else 3)
    ''')


def test_a_comprehension_over_a_large_plain_table_costs_a_fraction_of_a_step_per_item(tmp_path: Path) -> None:
    """transformers 5 reverses its 500-entry config table in each of some sixty mappings at import."""
    (tmp_path / "main.py").write_text(
        "import torch\n"
        "TEXT = 'abcdefghij' * 400\n"
        "for _ in range(3):\n"
        "    table = [(c, c + '!') for c in TEXT]\n"
        "    rev = {v: k for k, v in table}\n"
        "    names = [f'[`{k}`]' for k, v in table if k in 'aeiou' and rev[v] == k]\n"
        "x = torch.zeros(len(names)).view(7, -1)  # 1200 is no multiple of 7\n")
    entry = run([str(tmp_path / "main.py")], Options(root=str(tmp_path))).entries[0]
    assert [d.rule for d in entry.diagnostics] == ["PT001"]
    assert entry.stats.steps < 12_000, entry.stats.steps  # step by step: more than 3 x 3 x 4000


def test_delattr_removes_the_attribute_as_cpython_does(analyzer: Analyzer) -> None:
    """`delattr(obj, name)` is `del obj.name` (transformers 5's `get_text_config` renames the attributes of a
    copied encoder-decoder config so): it was not modeled, so the object was handed to code not followed and
    every later `hasattr` on it was not known (BART's cache forked per layer into the step budget)."""
    exact(analyzer, '''
        import copy
        import torch

        class Config:
            def __init__(self, **kwargs):
                for k, v in kwargs.items():
                    setattr(self, k, v)

        c = copy.deepcopy(Config(decoder_layers=2, d_model=8))
        delattr(c, "decoder_layers")
        setattr(c, "num_hidden_layers", 2)
        p_gone = torch.zeros(2 if hasattr(c, "decoder_layers") else 3, 2 if hasattr(c, "zzz") else 3)
        p_kept = torch.zeros(c.d_model, c.num_hidden_layers)
        try:
            delattr(c, "missing")
            p_raise = torch.zeros(1)
        except AttributeError:
            p_raise = torch.zeros(2)
    ''')
