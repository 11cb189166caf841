"""Random small programs about dtypes and devices, for differential testing against real torch.

Shapes are fixed and always fit (x is [4, 3] with values 0..2, so it is a valid class target, index
and mask once cast), so every error torch raises is a dtype or device error: casts (`.float()`,
`.to(torch.X)`, `.type(torch.XTensor)`, `dtype=`), promotion with numbers and tensors of other
dtypes, in-place ops that cannot cast back, and consumers (Linear, matmul, Embedding, one_hot,
gather, index_select, masked_fill, class-index and BCE losses). With `device="meta"` some statements
move tensors or modules to a second device, emulated with `meta` (see test_dtype_device_findings
for the equivalence relied on: element-wise ops and `Linear`, never matrix products).
`compare` runs the program under torch statement by statement and analyzes it with pytea-ci.
"""

from __future__ import annotations

import os
import random
import tempfile
import traceback
from typing import Any

from pytea_ci.driver.run import Options, run

HEADER = ["import torch", "import torch.nn as nn", "import torch.nn.functional as F"]
ERRORS = (RuntimeError, ValueError, IndexError, TypeError, NotImplementedError)
DTYPES = ["float32", "float64", "float16", "int64", "int32", "uint8", "bool"]
_LEGACY = {"float32": "FloatTensor", "float64": "DoubleTensor", "int64": "LongTensor", "int32": "IntTensor",
           "uint8": "ByteTensor", "bool": "BoolTensor", "float16": "HalfTensor"}
_METHOD = {"float32": "float", "float64": "double", "float16": "half", "int64": "long", "int32": "int",
           "uint8": "byte", "bool": "bool"}


def _cast(rng: random.Random, var: str) -> str:
    dt = rng.choice(DTYPES)
    form = rng.randrange(4)
    if form == 0:
        return f"{var} = {var}.{_METHOD[dt]}()"
    if form == 1:
        return f"{var} = {var}.to(torch.{dt})"
    if form == 2:
        return f"{var} = {var}.type(torch.{_LEGACY[dt]})"
    return f"{var} = torch.zeros(4, 3, dtype=torch.{dt}) + {var}.to(torch.{dt})"


def _arith(rng: random.Random) -> str:
    other = rng.choice(["2", "0.5", "True", "torch.randn(4, 3)", "torch.randint(1, 3, (4, 3))",
                        "torch.tensor(2.0)", "torch.tensor(2)", f"torch.ones(3, dtype=torch.{rng.choice(DTYPES)})"])
    op = rng.choice(["+", "-", "*", "/", "//", "%"])
    if rng.random() < 0.4:
        return f"x {op}= {other}"  # in place: may not cast back
    return f"x = x {op} {other}"


def _consumer(rng: random.Random) -> str:
    dt = rng.choice(DTYPES[:3])
    return rng.choice([
        "y = nn.Linear(3, 2)(x)",
        f"y = nn.Linear(3, 2).to(torch.{dt})(x)",
        f"y = x @ torch.randn(3, 2).to(torch.{dt})",
        "y = x @ torch.randint(0, 3, (3, 2))",
        "y = nn.Embedding(5, 2)(x)",
        "y = F.one_hot(x, 3)",
        "y = torch.randn(4, 3).gather(1, x)",
        "y = torch.randn(4, 3).index_select(1, x[0])",
        "y = torch.randn(4, 3).masked_fill(x, 0.0)",
        "y = F.cross_entropy(torch.randn(4, 3), x[:, 0])",
        "y = F.nll_loss(torch.randn(4, 3).log_softmax(1), x[:, 0])",
        "y = F.binary_cross_entropy_with_logits(torch.randn(4, 3), x)",
        f"y = F.binary_cross_entropy(torch.rand(4, 3).to(torch.{dt}), (x > 0).to(x.dtype))",  # targets in [0, 1]
        "y = nn.CrossEntropyLoss()(torch.randn(4, 3), x)",
    ])


def _device_op(rng: random.Random, dev: str) -> str:
    """Statements whose device errors `meta` reproduces (meta kernels skip dtype checks and accept CPU
    operands in place, in indexing and in matrix products, so nothing else follows a move there)."""
    return rng.choice([
        f"x = x.to('{dev}')",
        f"x = x.float() + torch.ones(4, 3, device='{dev}')",
        f"y = nn.Linear(3, 2).to('{dev}')(x.float())",
        f"y = nn.Linear(3, 2, device='{dev}')(x.float())",
        f"x = x.float() * torch.tensor(3.0, device='{dev}')",
        "x = x.float() + torch.ones(4, 3, device=x.device)",
        "x = x.float() + torch.zeros_like(x)",
        "x = x.float() * torch.randn(4, 3)",
        "y = nn.Linear(3, 2)(x.float())",
    ])


def make_program(seed: int, device: str | None = None, length: int = 5) -> list[str]:
    """`length` dtype statements on the CPU; with `device`, then three statements moving and mixing
    tensors and modules between the CPU and `device`."""
    rng = random.Random(seed)
    lines = list(HEADER) + [f"x = torch.randint(0, 3, (4, 3)).to(torch.{rng.choice(DTYPES)})"]
    for _ in range(length if device is None else 1):  # with moves: mostly about devices
        r = rng.random()
        if r < 0.4:
            lines.append(_cast(rng, "x"))
        elif r < 0.65:
            lines.append(_arith(rng))
        else:
            lines.append(_consumer(rng))
    if device:
        lines.extend(_device_op(rng, device) for _ in range(3))
    return lines


# errors about values, not dtypes or devices (an index out of range after arithmetic grew the values)
_VALUE_ERRORS = ("out of range", "out of DATA bounds", "out of bounds", "between 0 and 1", "Class values must be", "index_select(): index")


def run_torch(lines: list[str]) -> tuple[int | None, bool]:
    """(the 1-based line where real torch raises or None, whether that error is about values)."""
    env: dict[str, Any] = {}
    for i, line in enumerate(lines, 1):
        try:
            exec(compile("\n" * (i - 1) + line, "<fuzz>", "exec"), env)  # noqa: S102  (the oracle runs torch)
        except ERRORS as e:
            at = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<fuzz>"][-1]
            return at, any(v in str(e) for v in _VALUE_ERRORS)
    return None, False


def run_pytea(lines: list[str]) -> dict[int, set[str]]:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "prog.py")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        result = run([path], Options(root=d, strict=True))
    out: dict[int, set[str]] = {}
    for x in result.diagnostics:
        if x.rule not in ("PT010", "PT011", "PT013"):
            out.setdefault(x.span.line, set()).add(x.rule)
    return out


def compare(seed: int, device: str | None = None) -> tuple[str, list[str], int | None, dict[int, set[str]]]:
    """('agree' | 'false-alarm' | 'missed' | 'value-error', program, torch's error line, pytea-ci's
    findings by line). A finding on a line torch ran without error is a false alarm; torch's dtype or
    device error must be found on its line (with any rule: a dtype error may surface as the shape rule
    of the same call); an error about values (an index grown out of range) is only counted."""
    lines = make_program(seed, device)
    want, about_values = run_torch(lines)
    got = run_pytea(lines)
    last = want if want is not None else len(lines) + 1
    if any(line < last for line in got):
        return "false-alarm", lines, want, got
    if want is None:
        return "agree", lines, want, got
    if about_values:
        return "value-error", lines, want, got
    return ("agree" if want in got else "missed"), lines, want, got
