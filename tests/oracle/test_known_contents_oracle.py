"""torch.linspace / arange / tensor contents (models/contents.py) against torch: every element lies within
the bounds the analyzer gives it, and an element it claims exactly is exactly torch's."""
from __future__ import annotations

import random

import pytest

from pytea_ci.models import contents

torch = pytest.importorskip("torch")
DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16}


def _draw(rng: random.Random) -> float:
    return rng.choice([0.0, 1.0, -1.0, 0.1, 0.5, 2.0, 1e-3, 1e3]) * rng.choice([1, -1]) \
        if rng.random() < 0.4 else rng.uniform(-100, 100)


@pytest.mark.parametrize("dtype", sorted(DTYPES))
def test_linspace_elements_within_bounds(dtype: str) -> None:
    rng = random.Random(f"linspace {dtype}")
    for _ in range(300):
        start, end, steps = _draw(rng), _draw(rng), rng.randint(1, 70)
        if dtype == "float16" and max(abs(start), abs(end)) > 60000:
            continue
        got = contents.linspace(start, end, steps, dtype)
        assert got is not None and len(got) == steps
        real = torch.linspace(start, end, steps, dtype=DTYPES[dtype]).tolist()
        for i, ((lo, hi), v) in enumerate(zip(got, real)):
            assert lo <= v <= hi, (start, end, steps, dtype, i, v, lo, hi)
            if lo == hi:
                assert v == lo, (start, end, steps, dtype, i)


def test_arange_and_literals_exact() -> None:
    rng = random.Random("arange")
    for _ in range(200):
        a, b, s = rng.randint(-20, 20), rng.randint(-20, 40), rng.choice([1, 2, 3, -1, -2, 5])
        if (b - a) * s < 0:
            continue  # torch refuses a step whose sign does not lead from start to end (the shape model's check)
        got = contents.arange((a, b, s), "int64")
        assert got is not None
        assert [lo for lo, _ in got] == torch.arange(a, b, s).tolist()
    for data in ([0.1, 0.25, -3.0], [1, 2, 3], 0.3, [1e-8, 7.0]):
        for dtype in ("float32", "float64", "float16"):
            got = contents.literal(data, dtype)
            real = torch.tensor(data, dtype=DTYPES[dtype]).reshape(-1).tolist()
            assert got is not None and [lo for lo, _ in got] == real and all(lo == hi for lo, hi in got)
