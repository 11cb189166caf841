"""The one fixed run that every reporter test renders: a small repository and hand-built diagnostics.

It covers every level, a severity override, a level equal to its rule's default, related locations,
a trace, a counterexample, notes, characters that need escaping (`%`, newlines, `:`, `,`, brackets,
pipes), non-ASCII text before a span (byte, character and UTF-16 columns differ), a file that cannot
be read, and entry points that are cached, incomplete or failed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from pytea_ci.diagnostics import Diagnostic, Frame, Related, Severity, Span
from pytea_ci.diagnostics.result import EntryResult, EntryStats, RunResult

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("PYTEA_UPDATE_SNAPSHOTS") == "1"  # rewrite snapshots after a deliberate change

FILES = {
    "train.py": (
        "import torch\n"
        "from pkg.model import Net\n"
        "\n"
        "net = Net()\n"
        "x = torch.randn(64, 500)\n"
        'tag = "données 🚀"; y = net(x)\n'
        "loader = make_loader(batch_size=64)\n"
        "for batch in loader:\n"
        "    z = batch.view(64, -1)\n"
    ),
    "pkg/model.py": (
        "import torch.nn as nn\n"
        "\n"
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(320, 50)\n"
        "\n"
        "    def forward(self, x):\n"
        "        return self.fc(x)\n"
    ),
    "pkg/odd name.py": "x: int = 1\r\ny = [1, 2]\r\nassert len(y) == 3\r\n",
}

TRAIN, MODEL, ODD = "train.py", "pkg/model.py", "pkg/odd name.py"
# byte columns of `net(x)` on train.py:6 — after "données 🚀" (é is 2 bytes, 🚀 is 4 bytes)
NET_COL = len('tag = "données 🚀"; y = '.encode())
NET_END = NET_COL + len(b"net(x)")

DIAGNOSTICS = [
    Diagnostic(
        "PT001", Severity.ERROR, Span(MODEL, 9, 15, 9, 25),
        "Linear: the input has 500 features [64, 500], the layer expects 320",
        notes=("in_features=320 comes from nn.Linear(320, 50)",),
        related=(Related(Span(MODEL, 6, 18, 6, 36), "in_features=320 [set here]"),
                 Related(Span(TRAIN, 5, 4, 5, 24), "x: [64, 500]")),
        trace=(Frame(Span(TRAIN, 6, NET_COL, 6, NET_END), "net(x) calls Net.forward"),
               Frame(Span(MODEL, 9, 15, 9, 25), "self.fc(x) calls Linear")),
        entry=TRAIN,
    ),
    Diagnostic(
        "PT002", Severity.WARNING, Span(TRAIN, 9, 8, 9, 26),
        "view(64, -1): fails when the last batch is shorter: 100% of runs with n=1000, file:line, a,b\n"
        "second line | with a pipe",
        trace=(Frame(Span(TRAIN, 8, 0, 9, 26), "for batch in loader"),),
        counterexample={"n": 1000, "batch_size": 64},
        entry=TRAIN,
    ),
    Diagnostic(  # an error rule lowered to a warning by configuration: the level must still be emitted
        "PT003", Severity.WARNING, Span(TRAIN, 6, NET_COL, 6, NET_END), "dim=2 is out of range for [8, 3]",
        entry=TRAIN,
    ),
    Diagnostic("PT004", Severity.ERROR, Span(ODD, 3, 0, 3, 18), "assert: the condition can never hold",
               entry=ODD),
    Diagnostic("PT010", Severity.NOTE, Span("gen/missing.py", 4, 2), "undecided: n * m // k == 3",
               entry=TRAIN),
    Diagnostic("PT011", Severity.NOTE, Span(ODD, 1, 0), "path budget (1000) reached", entry=ODD),
]


def make_root(root: Path) -> None:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())


def make_result() -> RunResult:
    d = DIAGNOSTICS
    return RunResult(
        entries=[
            EntryResult(TRAIN, [d[0], d[1], d[2], d[4]],
                        EntryStats(paths=3, steps=120, unknowns=1, unmodeled={"make_loader": 1},
                                   concrete_checks=9, z3_calls=2, cache_hits=1, undecided=1,
                                   seconds=1.23456, z3_seconds=0.5),
                        status="findings"),
            EntryResult(ODD, [d[3], d[5]], EntryStats(paths=1, steps=7, seconds=0.25), status="incomplete"),
            EntryResult("eval.py", [], EntryStats(seconds=0.0), status="ok", cached=True),
            EntryResult("tools/crash.py", [], status="internal-error", error="RecursionError: too deep\nat line 3"),
        ],
        seconds=2.5,
        tool_version="1.2.3",
    )


@pytest.fixture
def root(tmp_path: Path) -> str:
    make_root(tmp_path)
    return str(tmp_path)


@pytest.fixture
def result() -> RunResult:
    return make_result()


@pytest.fixture
def diagnostics() -> list[Diagnostic]:
    return list(DIAGNOSTICS)


@pytest.fixture
def snapshot() -> Callable[[str, str], None]:
    return check_snapshot


def check_snapshot(name: str, text: str) -> None:
    """Compare `text` with tests/report/snapshots/NAME; PYTEA_UPDATE_SNAPSHOTS=1 rewrites it."""
    path = SNAPSHOTS / name
    if UPDATE or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
        if not UPDATE:
            pytest.fail(f"snapshot {name} did not exist and was written; check it and run again")
    with open(path, encoding="utf-8", newline="") as f:
        assert text == f.read(), f"snapshot {name} differs (see {path}; PYTEA_UPDATE_SNAPSHOTS=1 rewrites it)"
