"""Random small PyTorch programs for differential testing against real torch.

A program is a list of source chunks (one line each, but the prelude of classes): random tensors,
then a chain of layer constructions and tensor ops with random shapes and arguments, some of them
wrong, some written the way model code is (a dataclass or NamedTuple config, ModuleDict entries read
as attributes, a mixin whose super() reaches nn.Linear, shapes and chunks unpacked into names, loops
that grow a tensor, while loops on data, tensors unpacked into their rows).
`run_torch` executes it chunk by chunk with real torch (the test oracle) and returns the line that
raised a shape error (or the ValueError of an unpacking); `run_pytea` analyzes the same text with
pytea-ci and returns the lines of its PT001-PT004 findings.
"""

from __future__ import annotations

import os
import random
import tempfile
import traceback
from typing import Any

from pytea_ci.driver.run import Options, run
from pytea_ci.solver import Decider

PRELUDE = """from dataclasses import dataclass
from typing import NamedTuple


@dataclass
class Cfg:
    width: int
    out: int = 4


class Spec(NamedTuple):
    width: int
    out: int


class Bottle(nn.Module):
    def forward(self, x):
        if x.dim() <= 2:
            return super().forward(x)
        lead = x.shape[:-1]
        return super().forward(x.reshape(-1, x.shape[-1])).view(*lead, -1)


class BottledLinear(Bottle, nn.Linear):
    pass"""
HEADER = ["import torch", "import torch.nn as nn", "import torch.nn.functional as F", PRELUDE]
SHAPE_ERRORS = (RuntimeError, ValueError, IndexError, AssertionError)


EMPTY = 0.1  # the share of programs whose first tensor has a zero-size dimension


def _dims(rng: random.Random, n: int) -> list[int]:
    return [rng.choice([1, 2, 3, 4, 5, 6, 8, 12, 16]) for _ in range(n)]


def _op(rng: random.Random, rank: int, i: int) -> str:
    """One statement transforming x (current rank `rank`, sizes unknown to the generator)."""
    rank = max(rank, 1)  # a 0-d x: ops written for a vector (torch.randn() of no size is a TypeError)
    d = rng.randrange(-rank, rank) if rank else 0
    k = rng.choice([1, 2, 3, 4, 6, 8, 16])
    choices = [
        f"x = nn.Linear({k}, {rng.choice([2, 4, 8])})(x)",
        f"x = x.view(-1, {k})",
        f"x = x.reshape({k}, -1)",
        f"x = torch.flatten(x, {rng.randrange(0, max(rank, 1))})",
        f"x = x.unsqueeze({rng.randrange(-rank - 1, rank + 1)})",
        f"x = x.squeeze({d})",
        f"x = x.transpose({d}, {rng.randrange(-rank, rank) if rank else 0})",
        f"x = x.sum(dim={d}, keepdim={rng.choice([True, False])})",
        f"x = torch.cat([x, torch.randn({', '.join(map(str, _dims(rng, rank)))})], dim={d})",
        f"x = x @ torch.randn({k}, {rng.choice([2, 3, 4])})",
        f"x = x + torch.randn({', '.join(map(str, _dims(rng, rng.randint(1, max(rank, 1)))))})",
        f"x = F.relu(x).softmax(dim={d})",
        f"x = x.permute({', '.join(map(str, rng.sample(range(rank), rank)))})" if rank else "x = x.t()",
        f"x = nn.Conv2d({k}, 4, {rng.choice([1, 3, 5])}, stride={rng.choice([1, 2])}, padding={rng.choice([0, 1])})(x)",
        f"x = F.max_pool2d(x, {rng.choice([1, 2, 3])})",
        f"x = nn.BatchNorm1d({k})(x)",
        f"x = nn.LayerNorm({k})(x)",
        f"x = x[:, {rng.randrange(0, 4)}]",
        f"x = x.expand({', '.join(map(str, _dims(rng, rank)))})" if rank else "x = x.view(1)",
        f"x = torch.stack([x, torch.randn_like(x)], dim={rng.randrange(-rank - 1, rank + 1)})",
        *_data_model_ops(rng, k, rng.choice([2, 4, 8]), d),
    ]
    return rng.choice(choices)


def _data_model_ops(rng: random.Random, k: int, out: int, d: int) -> list[str]:
    """Ops written with the Python data model: configs, ModuleDict attributes, a mixin, unpacking."""
    return [
        f"x = nn.Linear(Cfg({k}).width, Cfg({k}, {out}).out)(x)",
        f"x = nn.Linear(Spec({k}, {out}).width, Spec(out={out}, width={k}).out)(x)",
        f"x = nn.ModuleDict(dict(fc=nn.Linear({k}, {out}))).fc(x)",
        f"x = BottledLinear({k}, {out})(x)",
        f"a, b = x.shape[-2:]; x = x.reshape(-1, a * b)",
        f"*lead, w = x.shape; x = x.reshape(-1, w)",
        f"p, q = x.chunk(2, dim={d}); x = torch.cat([p, q], dim={d})",
        f"p, q, r = x.split({rng.choice([1, 2, 3, 4])}, dim={d}); x = p + r",
    ]


def _fitting_op(rng: random.Random, shape: tuple[int, ...]) -> str:
    """An op chosen to fit the current shape (it may still fail, e.g. on strides): keeps programs
    long enough that most of them run, so false alarms have room to show."""
    r = len(shape)
    d = rng.randrange(-r, r)
    last = shape[-1]
    choices = [
        f"x = nn.Linear({last}, {rng.choice([2, 4, 8])})(x)",
        f"x = x.view(-1, {last})",
        f"x = x.reshape({shape[0]}, -1)",
        f"x = x.unsqueeze({rng.randrange(-r - 1, r + 1)})",
        f"x = x.transpose({d}, {rng.randrange(-r, r)})",
        f"x = x.sum(dim={d}, keepdim=True)",
        f"x = torch.cat([x, torch.randn({', '.join(map(str, shape))})], dim={d})",
        f"x = x + torch.randn({last})",
        f"x = x @ torch.randn({last}, 3)",
        f"x = nn.LayerNorm({last})(x)",
        f"x = F.relu(x).softmax(dim={d})",
        f"x = x.permute({', '.join(map(str, rng.sample(range(r), r)))})",
        f"x = torch.stack([x, torch.randn_like(x)], dim={rng.randrange(-r - 1, r + 1)})",
    ]
    if r == 4:
        choices += [f"x = nn.Conv2d({shape[1]}, 4, {rng.choice([1, 3])}, padding={rng.choice([0, 1])})(x)",
                    "x = F.max_pool2d(x, 2)"]
    if r in (2, 3):
        choices.append(f"x = nn.BatchNorm1d({shape[1]})(x)")
    if rng.random() < 0.3:
        return rng.choice(_data_model_ops(rng, last, rng.choice([2, 4, 8]), d))
    if rng.random() < 0.15:
        return rng.choice(_loop_ops(rng, shape))
    return rng.choice(choices)


def _loop_ops(rng: random.Random, shape: tuple[int, ...]) -> list[str]:
    """Loops and tensor unpacking: a sequence grown by a for loop (longer than the unroll bound too),
    a while loop on a data-dependent condition (summarised by the analyzer), rows unpacked."""
    n = rng.choice([2, 3, 20, 24])
    return [
        f"for _ in range({n}): x = torch.cat([x, x[:1]], dim=0)",
        f"for _ in range({n}): x = x.unsqueeze(0).squeeze(0)",
        f"steps = 0\nwhile steps < {n} and torch.rand(1).item() < 2:\n    steps += 1\n    x = torch.cat([x, x[:1]], dim=0)",
        f"rows = []\nwhile len(rows) < {n}:\n    if torch.rand(1).item() < 2:\n        rows.append(x[0])\nx = torch.stack(rows)",
        "a, b = x; x = a + b" if len(shape) > 1 else "a, b = x.unsqueeze(0); x = a + b",  # never a 0-d x
        "first, *rest = x; x = torch.stack([first] + rest) if rest else first.unsqueeze(0)",
        f"x = x.view({shape[0]}, -1); a, b = x.t()[:2] if x.shape[1] > 1 else (x.t(), x.t()); x = a + b",
    ]


def make_program(seed: int, length: int = 6) -> list[str]:
    """A random program; with torch at hand, most ops are chosen to fit the shapes torch computes."""
    rng = random.Random(seed)
    rank = rng.randint(1, 4)
    dims = _dims(rng, rank)
    edge = random.Random(seed * 31 + 7)  # (its own draws: the other programs stay as they were)
    if edge.random() < EMPTY:  # an empty tensor: the edge torch's rules treat apart (issue 31 item 4)
        dims[edge.randrange(rank)] = 0
    lines = list(HEADER) + [f"x = torch.randn({', '.join(map(str, dims))})"]
    env: dict[str, Any] = {}
    alive = _exec(lines, env)
    for i in range(length):
        shape = tuple(env["x"].shape) if alive and "x" in env else ()
        if shape and 0 not in shape and max(shape) < 10_000 and rng.random() < 0.8:
            line = _fitting_op(rng, shape)
        else:
            line = _op(rng, rank, i)
        lines.append(line)
        alive = alive and _exec([line], env)
        rank = len(env["x"].shape) if alive else max(1, min(5, rank + rng.choice([-1, 0, 1])))
    return lines


def _exec(lines: list[str], env: dict[str, Any]) -> bool:
    try:
        for line in lines:
            exec(line, env)  # noqa: S102  (the oracle runs real torch on purpose)
    except Exception:
        return False
    return True


def run_torch(lines: list[str]) -> int | None:
    """The 1-based line (of the program text) where real torch raises a shape error, or None when
    the program runs."""
    return run_torch_at(lines)[0]


def run_torch_at(lines: list[str]) -> tuple[int | None, int]:
    """(error line, first line of the chunk that was running). A chunk is compiled at its own line,
    so an error inside a method of the prelude is placed on that method's line, as the analyzer
    places it; the chunk's line says how far the program got."""
    env: dict[str, Any] = {}
    start = 1
    for chunk in lines:
        code = compile("\n" * (start - 1) + chunk, "<fuzz>", "exec")
        try:
            exec(code, env)  # noqa: S102  (the oracle runs real torch on purpose)
        except SHAPE_ERRORS as e:
            return [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<fuzz>"][-1], start
        start += chunk.count("\n") + 1
    return None, start


def run_pytea(lines: list[str], decider: Decider | None = None) -> set[int]:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "prog.py")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        result = run([path], Options(root=d, strict=True))
    return {x.span.line for x in result.diagnostics if x.rule in ("PT001", "PT002", "PT003", "PT004")}


def compare(seed: int) -> tuple[str, list[str], int | None, set[int]]:
    """('agree' | 'false-alarm' | 'missed', program, torch line, pytea lines). Findings after the line
    where torch stopped are not false alarms: torch never ran those lines (nor the prelude's methods
    called from them)."""
    lines = make_program(seed)
    want, reached = run_torch_at(lines)
    got = run_pytea(lines)
    if want is None:
        return ("agree" if not got else "false-alarm"), lines, want, got
    prelude_end = sum(chunk.count("\n") + 1 for chunk in HEADER)  # methods run when called, maybe after `want`
    if any(prelude_end < line < reached and line != want for line in got):
        return "false-alarm", lines, want, got  # a finding on a line torch ran without error
    return ("agree" if want in got else "missed"), lines, want, got
