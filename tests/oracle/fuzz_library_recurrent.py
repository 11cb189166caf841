"""Random recurrent modules with a state helper (issue 37, item 3), for differential testing of library
mode against real torch.

A module is the classic tutorial shape: an input layer (`nn.Embedding` of token ids or `nn.Linear` of
features), an `nn.RNN`/`nn.GRU`/`nn.LSTM` of random width, layers and `batch_first`, an output layer,
`forward(self, input, hidden)` reshaping the input the way tutorials do (`.view(seq_len, 1, -1)`, one
step `.view(1, 1, -1)`, or as it is) and an `init_hidden()` helper returning the state the module wants
(a tuple for an LSTM). With probability `MUTATE` one size is changed in one place (an embedding width,
the RNN's input or hidden size, the output layer's width, the layers `init_hidden` builds), which may or
may not break the module.

Torch decides, as in tests/oracle/fuzz_library.py: the module is *rejected* when it raises on every
sampled pair of a non-degenerate input and a state — the state `init_hidden()` returns, and states of
rank 2 and 3 built from the module's own sizes and from other sizes. A rejected module must be a finding
of library mode (the module checked alone); a finding on a module torch ran some pair through is a false
finding: "fails for every input" ranges over every rank of the state and what the module's own helper
gives.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tests.oracle.fuzz_library import HEADER, SIZES, analyze

MUTATE = 0.5


@dataclass
class Recurrent:
    source: str
    sizes: dict[str, int]  # vocab V, features F, hidden H, layers L, outputs O
    kind: str  # RNN | GRU | LSTM
    embed: bool  # token ids (else features)
    mutated: str = ""


def _source(s: dict[str, int], kind: str, embed: bool, batch_first: bool, shape: str) -> str:
    inp = (f"nn.Embedding({s['V']}, {s['E']})" if embed else f"nn.Linear({s['F']}, {s['E']})")
    first = ", batch_first=True" if batch_first else ""
    view = {"seq": ".view(seq_len, 1, -1)", "step": ".view(1, 1, -1)", "as_is": ""}[shape]
    state = f"torch.zeros(self.n_layers, 1, {s['HS']})"
    init = f"return ({state}, {state})" if kind == "LSTM" else f"return {state}"
    return (HEADER + "class Net(nn.Module):\n"
            f"    def __init__(self, hidden_size={s['H']}, n_layers={s['L']}):\n"
            "        super().__init__()\n"
            "        self.hidden_size = hidden_size\n"
            f"        self.n_layers = {s['LS']}\n"
            f"        self.inp = {inp}\n"
            f"        self.rnn = nn.{kind}({s['RI']}, hidden_size, n_layers{first})\n"
            f"        self.out = nn.Linear({s['OI']}, {s['O']})\n\n"
            "    def forward(self, input, hidden):\n"
            "        seq_len = len(input)\n"
            f"        x = self.inp(input){view}\n"
            "        output, hidden = self.rnn(x, hidden)\n"
            "        return self.out(output), hidden\n\n"
            "    def init_hidden(self):\n"
            f"        {init}\n")


def make_module(seed: int) -> Recurrent:
    rng = random.Random(seed)
    h = rng.choice([4, 8, 12, 16])
    s = {"V": rng.choice([10, 20, 50]), "F": rng.choice([3, 5, 8]), "H": h, "L": rng.choice([1, 2, 3]),
         "O": rng.choice([2, 5, 10])}
    s |= {"E": h, "RI": h, "HS": h, "OI": h, "LS": s["L"]}  # the places a size is written
    kind, embed = rng.choice(["RNN", "GRU", "LSTM"]), rng.random() < 0.7
    batch_first, shape = rng.random() < 0.2, rng.choice(["seq", "seq", "step", "as_is"])
    mutated = ""
    if rng.random() < MUTATE:
        key = rng.choice(["E", "RI", "HS", "OI", "LS"])
        old = s[key]
        s[key] = rng.choice([v for v in (old + 1, old - 1, old * 2, old + 3) if v >= 1 and v != old])
        mutated = f"{key}: {old} -> {s[key]}"
    return Recurrent(_source(s, kind, embed, batch_first, shape), s, kind, embed, mutated)


def _load(source: str) -> Any:
    env: dict[str, Any] = {"__name__": "fuzz_library_recurrent"}
    exec(compile(source, "<fuzz_library_recurrent>", "exec"), env)  # noqa: S102  (the oracle runs torch)
    import torch

    torch.manual_seed(0)
    return env["Net"]()


def _state(kind: str, shape: list[int]) -> Any:
    import torch

    return (torch.zeros(*shape), torch.zeros(*shape)) if kind == "LSTM" else torch.zeros(*shape)


def pairs(m: Recurrent, rng: random.Random) -> list[tuple[list[int], list[int] | None]]:
    """(input shape, state shape) pairs; a state None is `init_hidden()`'s. Inputs of rank 1 to 3, sizes
    at least 2 but a leading batch and one token (a decoder run one step at a time: `.view(1, 1, -1)`
    fixes a sequence of one, a narrow contract that library mode keeps, never a finding); states of rank 2 and 3 from the module's own
    sizes (layers, width, a batch of 1 or more) and from random ones."""
    s = m.sizes
    feat = [] if m.embed else [s["F"]]
    inputs = [[t] + feat for t in (1, 2, 5, 7)] + [[1, t] + feat for t in (2, 5)] + [[b, t] + feat for b in (2, 3)
                                                                                  for t in (2, 4)]
    inputs += [[rng.choice(SIZES) for _ in range(rng.randint(1, 3))] for _ in range(6)]
    states: list[list[int] | None] = [None]
    for layers in {s["L"], s["LS"], 1}:
        for width in {s["H"], s["HS"]}:
            states += [[layers, b, width] for b in (1, 2, 3, 5, 7)] + [[layers, width]]
    states += [[rng.choice(SIZES) for _ in range(rng.randint(2, 3))] for _ in range(6)]
    return [(i, st) for i in inputs for st in states]


def runs(net: Any, m: Recurrent, x: list[int], state: list[int] | None) -> bool:
    import torch

    if net is None:
        return False
    try:
        with torch.no_grad():
            inp = torch.randint(0, m.sizes["V"], tuple(x)) if m.embed else torch.randn(*x)
            net(inp, net.init_hidden() if state is None else _state(m.kind, state))
    except Exception:
        return False
    return True


@dataclass
class Outcome:
    seed: int
    module: Recurrent
    accepted_by_torch: tuple[list[int], list[int] | None] | None  # one pair torch ran
    findings: list[str]

    @property
    def rejected(self) -> bool:
        return self.accepted_by_torch is None

    @property
    def verdict(self) -> str:
        if self.findings and not self.rejected:
            return "false-finding"
        if self.rejected:
            return "found" if self.findings else "missed"
        return "accepted"


def compare(seed: int) -> Outcome:
    import torch

    torch.set_num_threads(1)
    m = make_module(seed)
    try:
        net = _load(m.source)
    except Exception:  # the construction raises: every input fails
        net = None
    rng = random.Random(seed * 7919 + 3)
    ok = next(((x, st) for x, st in pairs(m, rng) if runs(net, m, x, st)), None)
    _, findings = analyze(m.source)
    return Outcome(seed, m, ok, findings)
