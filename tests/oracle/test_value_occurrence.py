"""Oracle tests for what a value range claims to occur (issue 20), against real torch.

- A fixed selection of rows (`Subset(ds, range(0, n, step))`) of labels `arange(n) % c` keeps bounds
  that may never be met: pytea-ci may say nothing, and may say "error" only when torch raises.
- A random selection (`random_split`) meets each bound in some run: a warning means some seed raises.
- bincount and one_hot without num_classes want non-negative values: exact per-value oracle over draws.
- `%` / `//` of an integer tensor by 0 raises.
"""

from __future__ import annotations

import pytest

from tests.oracle.harness import InProcess

torch = pytest.importorskip("torch")
hypothesis = pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
_RUNNER = InProcess("occurrence")
HEAD = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
        "from torch.utils.data import DataLoader, Subset, TensorDataset, random_split\n")


def _verdict(body: str, line: int) -> str:
    rules = {rule for ln, rule in _RUNNER.findings(body) if ln == line}
    return "error" if rules & {"PT001", "PT003"} else "warning" if "PT002" in rules else "none"


def _raises(code: str, seed: int = 0) -> bool:
    torch.manual_seed(seed)
    try:
        exec(code, {"__name__": "oracle"})  # noqa: S102  (the oracle runs real torch on purpose)
    except (RuntimeError, IndexError, ValueError):
        return True
    return False


@SETTINGS
@given(n=st.integers(4, 40), c=st.integers(2, 8), step=st.integers(1, 4), k=st.integers(1, 9))
def test_fixed_subset_claims_nothing_it_cannot_show(n: int, c: int, step: int, k: int) -> None:
    body = HEAD + (f"y = torch.arange({n}) % {c}\npart = Subset(TensorDataset(y), range(0, {n}, {step}))\n"
                   f"for (yb,) in DataLoader(part, batch_size=4):\n    nn.Embedding({k}, 2)(yb)\n")
    got, raised = _verdict(body, 8), _raises(body)
    assert got != "warning", body
    assert got != "error" or raised, body  # an error only where torch fails


@pytest.mark.parametrize("n, c, k, keep", [(32, 4, 3, 24), (32, 4, 4, 24), (12, 6, 5, 3), (30, 5, 2, 20)])
def test_random_split_reaches_its_bounds(n: int, c: int, k: int, keep: int) -> None:
    body = HEAD + (f"y = torch.arange({n}) % {c}\npart, rest = random_split(TensorDataset(y), [{keep}, {n - keep}])\n"
                   f"for (yb,) in DataLoader(part, batch_size=4):\n    nn.Embedding({k}, 2)(yb)\n")
    got = _verdict(body, 8)
    raised = [_raises(body, seed) for seed in range(40)]
    assert got == ("warning" if any(raised) else "none"), (body, sum(raised))


@SETTINGS
@given(lo=st.integers(0, 5), width=st.integers(1, 6), n=st.integers(1, 20), shift=st.integers(-3, 1),
       op=st.sampled_from(["torch.bincount(ids)", "F.one_hot(ids)", "torch.bincount(ids, minlength=3)"]))
def test_non_negative_values(lo: int, width: int, n: int, shift: int, op: str) -> None:
    """Every element may take every drawn value: an error iff each value raises, a warning iff some does."""
    body = HEAD + f"ids = torch.randint({lo}, {lo + width}, ({n},)) + {shift}\ny = {op}\n"
    per_value = [_raises(HEAD + f"ids = torch.full(({n},), {v}) + {shift}\ny = {op}\n") for v in range(lo, lo + width)]
    want = "error" if all(per_value) else "warning" if any(per_value) else "none"
    assert _verdict(body, 6) == want, (body, per_value)


@pytest.mark.parametrize("expr, divisor", [("x % {d}", 0), ("x % {d}", 3), ("x // {d}", 0), ("x // {d}", -2),
                                           ("torch.fmod(x, {d})", 0), ("x.float() % {d}", 0)])
def test_integer_division_by_zero(expr: str, divisor: int) -> None:
    body = HEAD + "x = torch.arange(10)\ny = " + expr.format(d=divisor) + "\n"
    want = "error" if _raises(body) else "none"
    assert _verdict(body, 6) == want, body


@pytest.mark.parametrize("c", [0, 1, 2, 5])
def test_bin_count_of_values_not_known_to_occur(c: int) -> None:
    """bincount(labels in {0, 1}, minlength=c).view(c + 1) passes for c = 0 (all labels 0) or c = 1 (some
    label 1): with c read at run time no error may be said; with c a literal, torch's every-run verdict."""
    body = HEAD + "import os\nc = int(os.environ.get('C', '3')) - 1\ny = (torch.randn(16) > 0).long()\n" \
        "z = torch.bincount(y, minlength=c).view(c + 1)\n"
    assert _verdict(body, 9) != "error"
    literal = HEAD + f"y = (torch.randn(16) > 0).long()\nz = torch.bincount(y, minlength={c}).view({c + 1})\n"
    every = all(_raises(literal.replace("torch.randn(16)", f"torch.full((16,), {s})")) for s in (-1.0, 1.0)) \
        and all(_raises(literal, seed) for seed in range(20))
    assert (_verdict(literal, 6) == "error") <= every, literal
