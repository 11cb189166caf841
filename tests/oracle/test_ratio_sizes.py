"""Sizes computed through floats (`int((size - k + 2 * p) / s + 1)`, `int(dim * 4.0)`, `math.ceil(n / 3)`),
against CPython and torch for every value of a drawn size (models/ratios.py).

The program draws `s` from a small range, computes a size from it as real code does (a conv's output size,
an MLP's hidden width), and adds `torch.zeros(C)` to `torch.zeros(v)`: torch raises unless `v` is `C` or 1
(or for a negative `v`). The oracle runs CPython and torch for every value of the range, so the verdict is
exact: an error iff every value raises, a warning iff some does, nothing iff none. Formulas whose float
rounding may cross an integer (`s * 0.1`, `s / 3 * 3`) are not sizes for the analyzer: for them only
soundness is asserted (no error unless every value raises, no warning unless some does)."""

from __future__ import annotations

import math
import os

import pytest

from tests.oracle.harness import InProcess

torch = pytest.importorskip("torch")
hypothesis = pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SETTINGS = settings(max_examples=80, deadline=None, derandomize=not os.environ.get("PYTEA_PROPS_RANDOM"),
                    database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
_RUNNER = InProcess("ratios")

# formula -> whether the analyzer must know it exactly
EXACT = {
    "int(((s - {k} + 2 * {p}) / {d}) + 1)": True,  # a conv's output size
    "int((s + 2 * {p} - {k}) / {d} + 1)": True,
    "int(s * {f})": True,
    "int({f} * s)": True,
    "int(2 * s / 3)": True,  # llama's hidden width
    "math.ceil(s / {d})": True,
    "math.floor(s / {d})": True,
    "math.floor(s / {f})": True,
    "int(s / {d} - {k})": True,  # negative for small sizes: toward zero
    "math.floor((s - {k}) / {d})": True,
    "math.ceil((s - {k}) / {d} + {p})": True,
    "int(s / 2.0)": True,
    "int(s * 0.1)": False,  # 0.1 is not a small power-of-two fraction
    "int(s / 3 * 3)": False,  # two roundings: 1 / 49 * 49 is 0.9999999999999999
}
FLOATS = [0.5, 1.5, 2.0, 2.5, 4.0, 0.25, 0.75]


def _verdict(body: str, line: int) -> str:
    rules = {rule for ln, rule in _RUNNER.findings(body) if ln == line}
    return "error" if rules & {"PT001", "PT003"} else "warning" if "PT002" in rules else "none"


def _raises(v: int, c: int) -> bool:
    try:
        torch.zeros(c) + torch.zeros(v)
    except RuntimeError:
        return True
    return False


@SETTINGS
@given(formula=st.sampled_from(sorted(EXACT)), lo=st.integers(1, 40), width=st.integers(0, 9),
       k=st.integers(1, 7), p=st.integers(0, 3), d=st.integers(1, 4), f=st.sampled_from(FLOATS),
       hit=st.integers(-3, 9), c=st.integers(2, 60))
def test_sizes_through_floats_agree_with_cpython_and_torch(formula: str, lo: int, width: int, k: int, p: int, d: int,
                                                            f: float, hit: int, c: int) -> None:
    expr = formula.format(k=k, p=p, d=d, f=f)
    values = list(range(lo, lo + width + 1))
    sizes = [eval(expr, {"math": math, "s": s}) for s in values]  # noqa: S307  (CPython is the oracle)
    if hit >= 0 and sizes[hit % len(sizes)] >= 2:
        c = sizes[hit % len(sizes)]  # a size some drawn value gives: the warnings' territory
    body = (f"import math\nimport random\nimport torch\ns = random.randint({lo}, {lo + width})\nv = {expr}\n"
            f"y = torch.zeros({c}) + torch.zeros(v)\n")
    raised = [_raises(v, c) for v in sizes]
    want = "error" if all(raised) else "warning" if any(raised) else "none"
    got = _verdict(body, 6)
    if EXACT[formula]:
        assert got == want, (body, dict(zip(values, sizes)), raised)
    else:
        assert (got != "error" or all(raised)) and (got != "warning" or any(raised)), (body, raised)


def test_a_conv_output_size_computed_in_floats_sizes_the_next_layer() -> None:
    """vit/tnt-style `int((image_size - kernel_size + 2 * padding) / stride + 1)` sizing a Linear: the
    head sized without the `+ 1` is found for every drawn image size, the right one is not reported."""
    body = ("import random\nimport torch\nimport torch.nn as nn\nimage = random.randint(16, 64)\n"
            "n = int(((image - 4 + 2 * 1) / 2){})\nx = torch.randn(2, 3, image, image)\n"
            "y = nn.Conv2d(3, 8, 4, stride=2, padding=1)(x).flatten(1)\nz = nn.Linear(8 * n * n, 10)(y)\n")
    assert _verdict(body.format(" + 1"), 8) == "none"
    assert _verdict(body.format(""), 8) == "error"
