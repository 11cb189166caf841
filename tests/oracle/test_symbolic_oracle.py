"""Oracle tests for verdicts over symbols and value ranges (DESIGN §3), against real torch.

Property: for a random small program whose size comes from `random.randint` / `random.choice`, the
verdict is an error iff torch raises for every value of the symbol, a warning iff it raises for some,
nothing iff for none. The oracle runs torch for *every* value of the (small) range, so it is exact.

For index ranges the values are drawn: every element may take every value of the range, so the runs
are exactly the tensors of those values. The oracle runs torch with all elements at each value in
turn (a run the generator can make, however unlikely): an error iff every such run raises (no draw
can pass), a warning iff some does (a draw is never certain to miss), nothing iff none does.
"""

from __future__ import annotations

import os
import textwrap

import pytest

from tests.oracle.harness import InProcess

torch = pytest.importorskip("torch")
hypothesis = pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SETTINGS = settings(max_examples=60, deadline=None, derandomize=not os.environ.get("PYTEA_PROPS_RANDOM"),
                    database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
_RUNNER = InProcess("symbols")
_ERRORS = {"PT001", "PT003"}


def _verdict(body: str, line: int) -> str:
    rules = {rule for ln, rule in _RUNNER.findings(body) if ln == line}
    return "error" if rules & _ERRORS else "warning" if "PT002" in rules else "none"


def _torch_raises(code: str, env: dict[str, object]) -> bool:
    try:
        exec(code, dict(env))  # noqa: S102  (the oracle runs real torch on purpose)
    except (RuntimeError, IndexError, ValueError):
        return True
    return False


def _expected(raised: list[bool]) -> str:
    return "error" if all(raised) else "warning" if any(raised) else "none"


# ----- sizes drawn at run time ------------------------------------------------------------------------------
OPS = {
    "view": "x.view(-1, {k})",
    "linear": "nn.Linear({k}, 3)(x)",
    "reshape": "x.reshape({k}, -1)",
    "view2": "x.view({b}, {k})",
    "matmul": "x @ torch.randn({k}, 2)",
}


@SETTINGS
@given(lo=st.integers(1, 12), width=st.integers(0, 8), m=st.integers(1, 3), c=st.integers(0, 3),
       b=st.integers(1, 3), k=st.integers(1, 12), op=st.sampled_from(sorted(OPS)), hit=st.integers(-9, 8),
       choice=st.one_of(st.none(), st.lists(st.integers(1, 16), min_size=2, max_size=4, unique=True)))
def test_drawn_size_verdicts(lo: int, width: int, m: int, c: int, b: int, k: int, op: str, hit: int,
                             choice: list[int] | None) -> None:
    draw = f"random.choice({choice!r})" if choice else f"random.randint({lo}, {lo + width})"
    values = choice if choice else list(range(lo, lo + width + 1))
    if hit >= 0:  # a size some drawn value gives (the warnings' territory)
        v = values[hit % len(values)]
        k = m * v + c if op in ("linear", "matmul") else max(1, (m * v + c) * (b if op == "reshape" else 1) // b)
    expr = OPS[op].format(k=k, b=b)
    setup = f"x = torch.randn({b}, {m} * s + {c})\n"
    body = f"import random\nimport torch\nimport torch.nn as nn\ns = {draw}\n{setup}y = {expr}\n"
    raised = [_torch_raises("import torch\nimport torch.nn as nn\n" + setup + f"y = {expr}\n", {"s": v})
              for v in values]
    assert _verdict(body, 6) == _expected(raised), (body, dict(zip(values, raised)))


@SETTINGS
@given(lo=st.integers(0, 12), width=st.integers(0, 6), m=st.integers(1, 3), c=st.integers(0, 3), k=st.integers(1, 5),
       use=st.sampled_from(["parts[0] + parts[-1]", "torch.cat(parts, 1)"]))
def test_chunk_of_a_drawn_size(lo: int, width: int, m: int, c: int, k: int, use: str) -> None:
    """`chunk(k)` of a size drawn at run time, against torch for every value: where every value gives
    k pieces the verdict on them is torch's; where some value may give fewer (5 into 4 is 2, 2, 1), the
    model's unknown value must not turn into a guess: an error only if torch raises for every value, a
    warning only if it raises for some."""
    values = list(range(lo, lo + width + 1))
    setup = f"x = torch.randn({m} * s + {c}, 2)\nparts = x.chunk({k})\n"
    body = f"import random\nimport torch\ns = random.randint({lo}, {lo + width})\n{setup}y = {use}\n"
    raised = [_torch_raises("import torch\n" + setup + f"y = {use}\n", {"s": v}) for v in values]
    got, want = _verdict(body, 6), _expected(raised)
    if all(len(torch.empty(m * v + c).chunk(k)) == k for v in values):
        assert got == want, (body, dict(zip(values, raised)))
    else:
        assert (got != "error" or all(raised)) and (got != "warning" or any(raised)), (body, dict(zip(values, raised)))


def test_first_paragraph_examples() -> None:
    """The issue's examples: a Linear hard-wired for 32x32 inputs with a random size (fails for some
    sizes), and `28 * s // s` against 32 features for a size read from the environment (fails for all)."""
    random_size = textwrap.dedent("""\
        import random
        import torch
        import torch.nn as nn
        size = random.randint(16, 64)
        x = torch.randn(2, 3, size, size)
        y = nn.Linear(3 * 32 * 32, 10)(x.view(2, -1))
        """)
    raised = [_torch_raises(random_size.replace("random.randint(16, 64)", str(v)), {}) for v in range(16, 65)]
    assert _expected(raised) == "warning" == _verdict(random_size, 6)
    env_size = textwrap.dedent("""\
        import os
        import torch
        import torch.nn as nn
        s = int(os.environ.get("N", "27"))
        x = torch.randn(4, 28 * s // s)
        y = nn.Linear(32, 8)(x)
        """)
    raised = [_torch_raises(env_size.replace('int(os.environ.get("N", "27"))', str(v)), {}) for v in range(1, 40)]
    assert _expected(raised) == "error" == _verdict(env_size, 6)


# ----- value ranges of integer tensors ----------------------------------------------------------------------
INDEX_OPS = {
    "embedding": "nn.Embedding({rows}, 2)(ids)",
    "cross_entropy": "F.cross_entropy(torch.randn({n}, {rows}), ids)",
    "one_hot": "F.one_hot(ids, num_classes={rows})",
    "gather": "torch.randn({n}, {rows}).gather(1, ids.unsqueeze(1))",
    "index_select": "torch.randn(2, {rows}).index_select(1, ids)",
    "indexing": "torch.randn({rows}, 2)[ids]",
}


@SETTINGS
@given(lo=st.integers(0, 6), width=st.integers(1, 12), n=st.one_of(st.integers(1, 4), st.integers(1, 64)),
       rows=st.integers(1, 16),
       shift=st.integers(-1, 1), op=st.sampled_from(sorted(INDEX_OPS)))
def test_index_range_verdicts(lo: int, width: int, n: int, rows: int, shift: int, op: str) -> None:
    hi = lo + width  # randint's high is exclusive: values lo..hi-1, then shifted
    expr = INDEX_OPS[op].format(rows=rows, n=n)
    head = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
    body = head + f"ids = torch.randint({lo}, {hi}, ({n},)) + {shift}\n" + f"y = {expr}\n"
    raised = [_torch_raises(head + f"ids = torch.full(({n},), {v}) + {shift}\ny = {expr}\n", {})
              for v in range(lo, hi)]
    assert _verdict(body, 5) == _expected(raised), (body, raised)


# ----- custom datasets of variable-length items -------------------------------------------------------------
VARLEN = '''import random
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset


class Sequences(Dataset):
    def __init__(self, n):
        self.items = []
        for _ in range(n):
            length = random.randint({lo}, {hi})
            self.items.append(torch.randint(1, 100, (length,)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def pad(batch):
    return pad_sequence(batch, batch_first=True)


for x in DataLoader(Sequences(40), batch_size={bs}{collate}):
    pass
'''


@pytest.mark.parametrize("lo, hi, bs, collate", [
    (5, 30, 8, ""), (5, 30, 8, ", collate_fn=pad"), (5, 30, 1, ""), (12, 12, 8, ""), (3, 4, 4, ""),
])
def test_varlen_items_and_default_collate(lo: int, hi: int, bs: int, collate: str) -> None:
    """A warning at the loop iff torch's default collate fails for some draws of the lengths."""
    body = VARLEN.format(lo=lo, hi=hi, bs=bs, collate=collate)
    raised = []
    for seed in range(20):
        import random

        random.seed(seed)
        raised.append(_torch_raises(body, {"__name__": "varlen"}))
    line = body.splitlines().index(next(ln for ln in body.splitlines() if ln.startswith("for x in"))) + 1
    assert _verdict(body, line) == ("warning" if any(raised) else "none"), (lo, hi, bs, collate, sum(raised))


SOURCES = {
    "arange": "torch.arange({a}, {b})",
    "randperm": "torch.randperm({n})",
    "literal": "torch.tensor({lst})",
    "argsort": "torch.randn(3, {n}).argsort(1).flatten()",
    "clamp": "torch.arange({a}, {b}).clamp(0, {c})",
    "shifted": "(torch.arange({a}, {b}) + {c}) % {k}",
}


@SETTINGS
@given(source=st.sampled_from(sorted(SOURCES)), op=st.sampled_from(sorted(INDEX_OPS)), rows=st.integers(1, 12),
       a=st.integers(-3, 6), width=st.integers(1, 10), n=st.integers(1, 14), c=st.integers(0, 12),
       k=st.integers(1, 14), lst=st.lists(st.integers(-3, 14), min_size=1, max_size=6))
def test_index_sources_whose_values_all_occur(source: str, op: str, rows: int, a: int, width: int, n: int, c: int,
                                              k: int, lst: list[int]) -> None:
    """Sources whose values are known to occur (arange, randperm, literals, argsort, clamped): pytea-ci's
    verdict is torch's, error iff it raises; after `% k` (bounds only) an error only if torch raises
    and silence only if it does not."""
    ids = SOURCES[source].format(a=a, b=a + width, n=n, c=c, k=k, lst=lst)
    expr = INDEX_OPS[op].format(rows=rows, n="ids.shape[0]")
    body = f"import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nids = {ids}\ny = {expr}\n"
    raised = _torch_raises(body, {})
    got = _verdict(body, 5)
    if source == "shifted":  # `% k` keeps bounds only (values between them need not occur)
        assert (got == "error") <= raised and (got == "none") <= (not raised), (body, raised, got)
    else:
        assert got == ("error" if raised else "none"), (body, raised)
