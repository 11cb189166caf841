"""Random `nn.Module` classes for differential testing of library mode against real torch (issue 19).

A module is a random stack of blocks — convolutions, linear layers, norms, pools, reshapes (to a
sequence, to a vector), attention (`nn.MultiheadAttention` or written out), residual blocks — with
random widths, built for an intended input (an image, a sequence or a vector) and kept only while
torch runs that input through it; with probability `MUTATE` one size of one block is then changed
(a width, a kernel, a head count), which may or may not break the module. Library mode checks the
class alone (`library/verdict.run_module`, no entry point). Torch decides:

* **ground truth**: the module is *rejected* when torch raises on every sampled non-degenerate input
  and on every input drawn from library mode's contracts (torch is the judge, the samples a guess), and
  *narrow* when torch runs only inputs with a size 1 the module fixes (`BatchNorm1d(1)`: a narrow
  contract, docs/shapes.md, neither counted as rejected nor as accepted)
  (every size at least 2 but a leading batch of a rank >= 2 input: docs/shapes.md "Plausible
  inputs"): the intended input with each size varied, equal spatial sizes, and random inputs of
  ranks 1 to 5. A rejected module must be a finding; a finding on a module torch ran some sampled
  input through is a false finding.
* **contracts**: inputs drawn from each accepted rank combination's contract (the solver's smallest
  inputs above random lower bounds) must run under torch and give the predicted output shape; inputs
  violating one condition of the contract while the others hold (non-degenerate, every completed
  path of the combination falsified), and inputs of a rank library mode rejected, must raise.
"""

from __future__ import annotations

import os
import random
import tempfile
from dataclasses import dataclass, field
from typing import Any

from pytea_ci.diagnostics import Severity
from pytea_ci.library import targets as lib
from pytea_ci.library.interpreter import PathOutcome
from pytea_ci.library.inputs import is_own
from pytea_ci.library.results import evaluate, holds
from pytea_ci.library.verdict import LibraryRun, run_module, verdict
from pytea_ci.shapes.dim import Sym, symbols
from pytea_ci.shapes.pred import Cond, Pred, ge, lt, not_
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.solver import Decider
from pytea_ci.solver.example import smallest

HEADER = "import math\n\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
MUTATE = 0.5
SIZES = (2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 24, 32, 33)
SECONDS = 5.0


@dataclass
class Block:
    init: list[str]  # `self.lN = ...` lines, with {fields}
    fwd: list[str]  # forward lines, with {fields}
    sizes: dict[str, int]

    def text(self, part: list[str]) -> list[str]:
        return [line.format(**self.sizes) for line in part]


@dataclass
class Module:
    source: str
    intended: list[int]
    mutated: str = ""  # "lN.field: a -> b"


def _conv_blocks(rng: random.Random, i: int, c: int) -> list[Block]:
    c2, k = rng.choice([4, 8, 16]), rng.choice([1, 3, 5])
    g = rng.choice([g for g in (1, 2, 4) if c % g == 0])
    return [
        Block([f"self.l{i} = nn.Conv2d({{c}}, {{c2}}, {{k}}, stride={{s}}, padding={{p}})"], [f"x = self.l{i}(x)"],
              {"c": c, "c2": c2, "k": k, "s": rng.choice([1, 2]), "p": rng.choice([0, k // 2])}),
        Block([f"self.l{i} = nn.Sequential(nn.Conv2d({{c}}, {{c2}}, 3, padding=1), nn.BatchNorm2d({{c3}}), nn.ReLU())"],
              [f"x = self.l{i}(x)"], {"c": c, "c2": c2, "c3": c2}),
        Block([], ["x = F.max_pool2d(x, {k})"], {"k": rng.choice([2, 3])}),
        Block([f"self.l{i} = nn.AvgPool2d({{k}})"], [f"x = self.l{i}(x)"], {"k": 2}),
        Block([f"self.l{i} = nn.AdaptiveAvgPool2d({{s}})"], [f"x = self.l{i}(x)"], {"s": rng.choice([1, 2, 4])}),
        Block([f"self.l{i} = nn.BatchNorm2d({{c}})"], [f"x = self.l{i}(x)"], {"c": c}),
        Block([f"self.l{i} = nn.GroupNorm({{g}}, {{c}})"], [f"x = self.l{i}(x)"], {"g": g, "c": c}),
        Block([f"self.l{i} = nn.Conv2d({{c}}, {{c2}}, 3, padding={{p}})"], [f"x = x + self.l{i}(x)"],
              {"c": c, "c2": c, "p": 1}),
        Block([f"self.l{i} = nn.Conv2d({{c}}, {{c2}}, 3, stride={{s}}, padding=1)",
               f"self.l{i}s = nn.Conv2d({{c}}, {{c2}}, 1, stride={{s2}})"], [f"x = self.l{i}(x) + self.l{i}s(x)"],
              {"c": c, "c2": c2, "s": 2, "s2": 2}),
        Block([], ["x = x.flatten(2).transpose(1, 2)"], {}),
        Block([], ["x = x.mean((2, 3))"], {}),
        Block([f"self.l{i} = nn.AdaptiveAvgPool2d({{s}})"], [f"x = torch.flatten(self.l{i}(x), 1)"], {"s": 2}),
        Block([], ["x = x.view(x.size(0), -1)"], {}),
    ]


def _seq_blocks(rng: random.Random, i: int, d: int) -> list[Block]:
    d2 = rng.choice([8, 16, 24, 32])
    h = rng.choice([h for h in (1, 2, 4, 8) if d % h == 0])
    return [
        Block([f"self.l{i} = nn.Linear({{d}}, {{d2}})"], [f"x = self.l{i}(x)"], {"d": d, "d2": d2}),
        Block([f"self.l{i} = nn.LayerNorm({{d}})"], [f"x = self.l{i}(x)"], {"d": d}),
        Block([f"self.l{i} = nn.MultiheadAttention({{d}}, {{h}}, batch_first=True)"],
              [f"x = self.l{i}(x, x, x)[0]"], {"d": d, "h": h}),
        Block([f"self.l{i} = nn.Linear({{d}}, {{d3}})"],
              [f"q, k, v = self.l{i}(x).chunk(3, dim=-1)",
               "x = F.softmax(q @ k.transpose(-2, -1) / math.sqrt({d}), dim=-1) @ v"], {"d": d, "d3": 3 * d}),
        Block([], ["b, t, _ = x.shape", "x = x.view(b, t, {h}, {d} // {h}).transpose(1, 2).reshape(b, t, {d})"],
              {"h": h, "d": d}),
        Block([f"self.l{i} = nn.Sequential(nn.LayerNorm({{d}}), nn.Linear({{d}}, {{d2}}), nn.GELU(), "
               f"nn.Linear({{d2}}, {{d3}}))"], [f"x = x + self.l{i}(x)"], {"d": d, "d2": d2, "d3": d}),
        Block([f"self.l{i} = nn.Conv1d({{d}}, {{d2}}, {{k}}, padding={{p}})"],
              [f"x = self.l{i}(x.transpose(1, 2)).transpose(1, 2)"], {"d": d, "d2": d2, "k": 3, "p": 1}),
        Block([], ["x = x.mean(1)"], {}),
        Block([], ["x = x[:, 0]"], {}),
        Block([], ["x = x.flatten(1)"], {}),
    ]


def _vec_blocks(rng: random.Random, i: int, d: int) -> list[Block]:
    d2 = rng.choice([4, 8, 16, 32])
    t = rng.choice([t for t in (2, 4) if d % t == 0] or [1])
    return [
        Block([f"self.l{i} = nn.Linear({{d}}, {{d2}})"], [f"x = self.l{i}(x)"], {"d": d, "d2": d2}),
        Block([f"self.l{i} = nn.Sequential(nn.Linear({{d}}, {{d2}}), nn.ReLU(), nn.Dropout(0.1))"],
              [f"x = self.l{i}(x)"], {"d": d, "d2": d2}),
        Block([f"self.l{i} = nn.BatchNorm1d({{d}})"], [f"x = self.l{i}(x)"], {"d": d}),
        Block([f"self.l{i} = nn.LayerNorm({{d}})"], [f"x = self.l{i}(x)"], {"d": d}),
        Block([f"self.l{i} = nn.Linear({{d}}, {{d2}})"], [f"x = x + self.l{i}(x)"], {"d": d, "d2": d}),
        Block([], ["x = x.view(x.size(0), {t}, -1)"], {"t": t}),
    ]


def _blocks(rng: random.Random, i: int, shape: tuple[int, ...]) -> list[Block]:
    if len(shape) == 4:
        return _conv_blocks(rng, i, shape[1])
    if len(shape) == 3:
        return _seq_blocks(rng, i, shape[2])
    return _vec_blocks(rng, i, shape[-1])


def _source(blocks: list[Block]) -> str:
    init = [line for b in blocks for line in b.text(b.init)] or ["pass"]
    fwd = [line for b in blocks for line in b.text(b.fwd)]
    return (HEADER + "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            + "".join(f"        {line}\n" for line in init)
            + "\n    def forward(self, x):\n" + "".join(f"        {line}\n" for line in fwd) + "        return x\n")


def make_module(seed: int, length: int | None = None) -> Module:
    """A random module that runs its intended input under torch, then maybe one size mutated."""
    import torch

    rng = random.Random(seed)
    kind = rng.choice(["image", "image", "seq", "vec"])
    shape = {"image": [2, rng.choice([1, 3, 4]), rng.choice([8, 12, 16, 32]), rng.choice([8, 16, 32])],
             "seq": [2, rng.choice([4, 6, 8, 12]), rng.choice([8, 16, 32])], "vec": [2, rng.choice([4, 8, 16, 24])]}[kind]
    if kind == "image" and rng.random() < 0.5:
        shape[3] = shape[2]
    blocks: list[Block] = []
    x = torch.randn(*shape)
    for i in range(length or rng.randint(2, 6)):
        for _ in range(8):
            b = rng.choice(_blocks(rng, i, tuple(x.shape)))
            y = _try(_source(blocks + [b]), x0=torch.randn(*shape))
            if y is not None and 0 < y.dim() <= 4 and y.numel() > 0:
                blocks.append(b)
                x = y
                break
    mutated = ""
    sized = [(j, k) for j, b in enumerate(blocks) for k in b.sizes]
    if sized and rng.random() < MUTATE:
        j, k = rng.choice(sized)
        old = blocks[j].sizes[k]
        new = rng.choice([v for v in (old + 1, old - 1, old * 2, old + 3, max(1, old // 2)) if v != old and v >= 1]
                         or [old + 1])
        blocks[j].sizes[k] = new
        mutated = f"block {j}: {k} {old} -> {new}"
    return Module(_source(blocks), shape, mutated)


def _try(source: str, x0: Any) -> Any:
    import torch

    try:
        net = _load(source)
        with torch.no_grad():
            out = net(x0)
        return out if isinstance(out, torch.Tensor) else None
    except Exception:
        return None


def _load(source: str) -> Any:
    env: dict[str, Any] = {"__name__": "fuzz_library"}
    exec(compile(source, "<fuzz_library>", "exec"), env)  # noqa: S102  (the oracle runs real torch on purpose)
    import torch

    torch.manual_seed(0)
    return env["Net"]()


def runs(net: Any, shape: list[int]) -> tuple[bool, list[int] | None]:
    """(whether torch runs an input of this shape, the output shape)."""
    import torch

    if net is None:
        return False, None
    try:
        with torch.no_grad():
            out = net(torch.randn(*shape))
    except Exception:
        return False, None
    return True, list(out.shape) if isinstance(out, torch.Tensor) else None


def samples(intended: list[int], rng: random.Random) -> list[list[int]]:
    """Non-degenerate inputs: the intended one with each size varied, equal trailing sizes, and random
    ones of ranks 1 to 5 (a leading batch of rank >= 2 may be 1, and so may a size the intended input
    has as 1: a 1-channel image is what `Conv2d(1, ...)` asks for, a narrow contract, not a degenerate one)."""
    out = [list(intended)]
    for i in range(len(intended)):
        for v in SIZES:
            s = list(intended)
            s[i] = v
            out.append(s)
    if len(intended) >= 3:
        for v in SIZES:
            out.append(intended[:-2] + [v, v])
    for _ in range(2):  # the intended input without its batch, with one more leading dim
        out += [intended[1:], [2] + intended, [1] + intended[1:]]
    for rank in range(1, 6):
        for _ in range(12):
            s = [rng.choice(SIZES) for _ in range(rank)]
            if rank >= 2 and rng.random() < 0.5:
                s[0] = 1
            out.append(s)
    return [s for s in out if plausible(s, intended)]


def plausible(shape: list[int], intended: list[int]) -> bool:
    """Every size at least 2 but a leading batch (rank >= 2) and a size the intended input has as 1."""
    return all(d >= 2 or (len(shape) == len(intended) and intended[i] == 1)
               for i, d in enumerate(shape) if i > 0 or len(shape) < 2)


@dataclass
class Outcome:
    seed: int
    module: Module
    rejected: bool  # by torch, for every sampled non-degenerate input
    accepted_by_torch: list[int] | None  # one sampled input torch ran
    findings: list[str]
    status: str
    drawn: int = 0  # inputs drawn from contracts
    drawn_bad: list[str] = field(default_factory=list)  # ... on which torch disagreed
    violating: int = 0  # inputs violating a contract
    violating_bad: list[str] = field(default_factory=list)
    narrow: list[int] | None = None  # an input torch runs with a size 1 the module fixes (not sampled)

    @property
    def verdict(self) -> str:
        if self.findings and not self.rejected:
            return "false-finding"
        if self.narrow is not None:
            return "narrow" if not self.findings else "found-narrow"
        if self.rejected:
            return "found" if self.findings else "missed"
        return "accepted"


def analyze(source: str, seconds: float = SECONDS) -> tuple[LibraryRun, list[str]]:
    """Library mode on the module alone: its run and its errors ("line: message")."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "net.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        (t,) = lib.targets([path], [path], d).targets
        run = run_module(t, d, Decider(), seconds, strict=True)
        diags = verdict(run, "net.py", lambda ranks: str(ranks))
    return run, [f"{x.span.line}: {x.rule} {x.message}" for x in diags if x.severity is Severity.ERROR]


def compare(seed: int, draws: int = 2) -> Outcome:
    import torch

    torch.set_num_threads(1)
    m = make_module(seed)
    rng = random.Random(seed * 7919 + 1)
    try:
        net = _load(m.source)
    except Exception:  # the construction raises (a GroupNorm whose groups do not divide): every input fails
        net = None
    ok = next((s for s in samples(m.intended, rng) if runs(net, s)[0]), None)
    run, findings = analyze(m.source)
    status = "accepted" if run.accepted else "incomplete" if run.out_of_budget or any(
        c.incomplete for c in run.combos) else "rejected"
    out = Outcome(seed, m, ok is None, ok, findings, status)
    if run.accepted:
        ran = _check_contracts(run, net, rng, out, draws)
        # torch is the judge, the samples only a guess: an input drawn from the contract that torch runs
        # shows the module is not rejected (a Linear(12544) after a flatten wants 29x29 images)
        out.accepted_by_torch = ok or next((s for s in ran if plausible(s, m.intended)), None)
        out.rejected = out.accepted_by_torch is None
        # torch runs only inputs with a size 1 that the module itself fixes (`BatchNorm1d(1)` after a mean,
        # `GroupNorm(1, 1)` on a 3-D input): a narrow contract, not a degenerate one (docs/shapes.md)
        out.narrow = next((s for s in ran if out.rejected), None)
    return out


def _own(path: PathOutcome) -> list[Cond]:
    return [c for c in path.pc if isinstance(c, Pred) and all(is_own(x) for x in symbols(c))]


def _input(path: PathOutcome) -> tuple[Tensor, list[Sym]] | None:
    x = path.inputs[0] if path.inputs else None
    if not isinstance(x, Tensor) or x.shape is None:
        return None
    return x, sorted({s for d in x.shape for s in symbols(d)}, key=lambda s: s.name)


def _plausible(x: Tensor, pinned: frozenset[Sym] = frozenset()) -> list[Cond]:
    shape = list(x.shape or ())
    return [ge(d, 2) for i, d in enumerate(shape)
            if isinstance(d, Sym) and (i > 0 or len(shape) < 2) and d not in pinned]


def _pinned(contract: list[Cond]) -> frozenset[Sym]:
    """The sizes a contract fixes to a literal (`C == 1`)."""
    return frozenset(a for c in contract if isinstance(c, Pred) and c.op == "eq"
                     for a, b in (c.args, c.args[::-1]) if isinstance(a, Sym) and isinstance(b, int))


def _check_contracts(run: LibraryRun, net: Any, rng: random.Random, out: Outcome, draws: int) -> list[list[int]]:
    """Inputs drawn from and violating the contracts, run under torch; returns the drawn inputs torch ran."""
    ran_inputs: list[list[int]] = []
    for combo in run.accepted:
        for path in combo.completed[:2]:
            found = _input(path)
            if found is None:
                continue
            x, syms = found
            contract = _own(path)
            for j in range(draws + 1):  # the smallest non-degenerate input first, then random lower bounds
                lows = _plausible(x, _pinned(contract)) if j == 0 else [ge(s, rng.choice([1, 2, 3, 5, 9, 17]))
                                                                         for s in syms]
                m = smallest(contract + lows, syms, timeout_ms=500) or smallest(contract, syms, timeout_ms=500)
                if m is None:
                    continue
                shape = [evaluate(d, m) or 0 for d in x.shape or ()]
                ran, got = runs(net, shape)
                want = [evaluate(d, m) for d in path.output.shape or ()] if isinstance(path.output, Tensor) \
                    and path.output.shape is not None else None
                out.drawn += 1
                if ran:
                    ran_inputs.append(shape)
                if not ran or (want is not None and got != want):
                    out.drawn_bad.append(f"{shape}: torch {'ran, ' + str(got) if ran else 'raised'}, predicted {want}")
        _check_violations(combo.completed, net, out)
    for combo in run.combos:
        if not combo.completed and not combo.incomplete:
            shape = [rng.choice(SIZES) for _ in range(combo.ranks[0])]
            out.violating += 1
            if runs(net, shape)[0]:
                out.violating_bad.append(f"rank {combo.ranks[0]} {shape}: torch ran, library mode rejects the rank")
    return ran_inputs


def _check_violations(paths: list[PathOutcome], net: Any, out: Outcome) -> None:
    """One condition of the first path's contract falsified, the others held, sizes non-degenerate:
    kept when every completed path of the combination is falsified; torch must raise."""
    found = _input(paths[0])
    if found is None:
        return
    x, syms = found
    contract = _own(paths[0])
    for i, c in enumerate(contract):
        if not set(symbols(c)) & set(syms):
            continue
        for negation in ([lt(c.args[0], c.args[1]), lt(c.args[1], c.args[0])] if c.op == "eq" else [not_(c)]):
            m = smallest(contract[:i] + contract[i + 1:] + _plausible(x) + [negation], syms, timeout_ms=500)
            if m is None or not all(any(holds(k, m) is False for k in _own(p)) for p in paths):
                continue
            shape = [evaluate(d, m) or 0 for d in x.shape or ()]
            out.violating += 1
            if runs(net, shape)[0]:
                out.violating_bad.append(f"{shape} violates {c!r}: torch ran it")
