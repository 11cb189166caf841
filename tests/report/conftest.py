"""The one fixed run that every reporter test renders: a small repository and hand-built diagnostics.

It covers what issue 5 lists for the snapshot tests, each diagnostic named by its role:
- an error with related locations (where each dim was born) and a multi-step path (PT001);
- a warning with a counterexample (PT002), and an error rule lowered to a warning (PT003);
- an undecided note (PT010) in a file that cannot be read, and a budget note (PT011);
- a parse error (PT012) from an entry point whose status is `parse-error`;
- an internal-error entry point (a tool execution notification in SARIF);
- a file name with spaces, commas, colons and non-ASCII letters and emoji, CRLF line ends;
- a message with markdown characters (`*_`#<>|~[]()`), and messages with an ANSI escape, newlines,
  `%`, `:` and `,` that every format must escape its own way;
- non-ASCII text before a span (byte, character and UTF-16 columns differ), and a tab before one;
- entry points that are cached, incomplete or failed;
- coverage figures: an entry point with unknown origins (one after non-ASCII text) and a path ended by
  an exception of the program, one that checked nothing (PT013), one with findings and a budget note.
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
    "data/run 2, v1: ñandú 🚀.py": (
        "import torch\n"
        "\n"
        "def f(x):\n"
        "\treturn x.sum(dim=2)\n"
    ),
    "broken.py": "import torch\ndef f(:\n    pass\n",
}

TRAIN, MODEL, ODD = "train.py", "pkg/model.py", "pkg/odd name.py"
WEIRD, BROKEN = "data/run 2, v1: ñandú 🚀.py", "broken.py"
MARKDOWN = "`x.sum(dim=2)` on **[8, 3]**: _dim_ 2 is out of range # see <b>docs</b> ~~or~~ [here](x) | \\n"
ANSI = "\x1b[31mred\x1b[0m text: 50% of runs\r\nwith a CR LF"
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
        trace=(Frame(Span(TRAIN, 5, 0, 5, 24), "x: [64, 500]"),
               Frame(Span(TRAIN, 6, NET_COL, 6, NET_END), "net(x) calls Net.forward with x: [64, 500]"),
               Frame(Span(MODEL, 9, 15, 9, 25), "self.fc(x) calls Linear(320, 50) with x: [64, 500]")),
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
    Diagnostic("PT004", Severity.ERROR, Span(ODD, 3, 0, 3, 18), "assert: the condition can never hold\n" + ANSI,
               entry=ODD),
    Diagnostic("PT010", Severity.NOTE, Span("gen/missing.py", 4, 2), "undecided: n * m // k == 3",
               entry=TRAIN),
    Diagnostic("PT011", Severity.NOTE, Span(ODD, 1, 0), "path budget (1000) reached", entry=ODD),
    Diagnostic(  # a markdown-laden message in a file whose name needs escaping, after a tab
        "PT003", Severity.ERROR, Span(WEIRD, 4, 8, 4, 20), MARKDOWN,
        related=(Related(Span(WEIRD, 3, 6, 3, 7), "x: [8, 3] (a parameter, from f's caller)"),),
        entry=WEIRD,
    ),
    Diagnostic("PT012", Severity.ERROR, Span(BROKEN, 2, 5, 2, 6), "invalid syntax: '(' was never closed",
               entry=BROKEN),
    Diagnostic("PT013", Severity.NOTE, Span("eval.py", 1, 0),
               "nothing checked: no tensor operation of eval.py could be checked; every path ended early; "
               "the first at eval.py:1: AssertionError raised by `assert torch.cuda.is_available()`",
               entry="eval.py"),
]

TRAIN_STATS = EntryStats(
    paths=3, steps=120, unknowns=2, unmodeled={"make_loader": 1}, ops_reached=20, ops_checked=18,
    checks_decided=9, checks_skipped=1,
    unknown_origins=[{"location": [TRAIN, 6, NET_COL], "what": "third-party module 'timm' (import timm)", "ops": 1},
                     {"location": [TRAIN, 7, 0], "what": "name make_loader", "ops": 1}],
    ended_paths=[{"kind": "exception", "location": [TRAIN, 8, 0], "reason": "ValueError raised by `raise ValueError()`",
                  "module": None, "paths": 1}],
    concrete_checks=9, z3_calls=2, cache_hits=1, undecided=1, seconds=1.23456, z3_seconds=0.5)


def make_root(root: Path) -> None:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())


def make_result() -> RunResult:
    d = DIAGNOSTICS
    return RunResult(
        entries=[
            EntryResult(TRAIN, [d[0], d[1], d[2], d[4]], TRAIN_STATS, status="findings"),
            EntryResult(ODD, [d[3], d[5]], EntryStats(paths=1, steps=7, seconds=0.25, ops_reached=1, ops_checked=1),
                        status="findings"),  # findings and a budget: counted as incomplete
            EntryResult(WEIRD, [d[6]], EntryStats(paths=1, steps=12, seconds=0.01, ops_reached=3, ops_checked=3),
                        status="findings"),
            EntryResult(BROKEN, [d[7]], status="parse-error"),
            EntryResult("eval.py", [d[8]], EntryStats(
                seconds=0.0, ended_paths=[{"kind": "exception", "location": ["eval.py", 1, 0], "paths": 1,
                                           "reason": "AssertionError raised by `assert torch.cuda.is_available()`",
                                           "module": None}]), status="ok", cached=True),
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


# ----- the acceptance corpus (../shared/acceptance), analyzed once per session -------------------------
CORPUS = Path(__file__).resolve().parent.parent.parent.parent / "shared" / "acceptance"


@pytest.fixture(scope="session")
def acceptance_sarif() -> list[tuple[str, str]]:
    """(case id, SARIF text) for every 'error' case of the corpus, analyzed in-process with each case's
    folder as the repository root and a category of its own; skips when the corpus is absent."""
    if not (CORPUS / "cases.json").exists():
        pytest.skip("acceptance corpus not present")
    import json

    from pytea_ci.driver.run import Options, run
    from pytea_ci.report import sarif

    out = []
    for case in json.loads((CORPUS / "cases.json").read_text(encoding="utf-8")):
        if case["verdict"] != "error":
            continue
        folder = CORPUS / case["id"]
        result = run([str(folder / case["entry"])], Options(root=str(folder)))
        out.append((case["id"], sarif.render(result, str(folder), category=f"acceptance-{case['id']}/")))
    return out
