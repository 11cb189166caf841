"""Steps follow real cost (issue 31 item 9): work outside the interpreter's statements is charged in steps in
proportion to its size, so the deterministic step budget, not the wall-clock safety net, decides where a big
project's run stops. Charged: parsing a file (by its bytes, once per entry point, whether or not the process
had parsed it already), copying a path's state (a checkpoint restored or taken, by the objects copied), and
library mode's target selection (by the bytes of the files it reads)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from pytea_ci.diagnostics.budgets import RUN, SELECTION_BYTES_PER_STEP, SOURCE_BYTES_PER_STEP, STEPS_PER_ENTRY
from pytea_ci.diagnostics.result import EntryResult
from pytea_ci.driver.check import check
from pytea_ci.driver.project import CheckRequest
from pytea_ci.driver.run import Options, RunMeter, run
from pytea_ci.interp import snapshot

# a module that is mostly text: a few statements, 200 kB of source to parse
BIG = "import torch\n\n" + "".join(f"# {'a comment line ' * 6}{i}\n" for i in range(2_000)) + "WIDTH = 3\n"
ENTRY = "import torch\nfrom big import WIDTH\nx = torch.randn(2, WIDTH)\ny = x.view(6)\n"


def _signature(entries: list[EntryResult]) -> str:
    return json.dumps([[e.entry, e.status, [(d.rule, d.span.line, d.message) for d in e.diagnostics],
                        e.stats.paths, e.stats.steps, e.stats.ops_checked] for e in entries])


def _project(root: Path, entries: int, big: str = BIG) -> list[str]:
    (root / "big.py").write_text(big)
    for i in range(entries):
        (root / f"e{i}.py").write_text(ENTRY)
    return [str(root / f"e{i}.py") for i in range(entries)]


def test_parsing_a_file_is_charged_by_its_size_once_per_entry_point(tmp_path: Path) -> None:
    small, large = tmp_path / "small", tmp_path / "large"
    small.mkdir()
    large.mkdir()
    (plain,) = run(_project(small, 1, "import torch\nWIDTH = 3\n"), Options(root=str(small))).entries
    (heavy,) = run(_project(large, 1), Options(root=str(large))).entries
    assert plain.stats.ops_checked == heavy.stats.ops_checked > 0
    extra = heavy.stats.steps - plain.stats.steps
    grown = (len(BIG) - len("import torch\nWIDTH = 3\n")) // SOURCE_BYTES_PER_STEP
    assert abs(extra - grown) <= 2, (extra, grown)  # the comments run no statement: only their parse costs
    # every entry point pays for the files it reads, though the process parsed them for the first one
    twice = run(_project(large, 2), Options(root=str(large))).entries
    assert [e.stats.steps for e in twice] == [heavy.stats.steps] * 2


def test_the_step_budget_stops_a_run_whose_cost_is_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three entry points that each read 200 kB: a run budget below their parses stops each inside its import,
    by steps (on the old code each ran to its end in a few dozen steps and only the wall clock could stop it),
    with the same verdicts whatever `jobs` is and however fast the clock goes."""
    entries = _project(tmp_path, 3)
    limit = 3 * (len(BIG) // SOURCE_BYTES_PER_STEP) // 2
    sigs = []
    for jobs in (1, 2):
        r = run(entries, Options(root=str(tmp_path), jobs=jobs, meter=RunMeter(limit=limit)))
        assert [e.status for e in r.entries] == ["incomplete"] * 3 and not any(e.stats.ops_checked for e in r.entries)
        assert any(STEPS_PER_ENTRY in d.message for d in r.entries[0].diagnostics)  # stopped in its import
        assert any(RUN in d.message for d in r.entries[-1].diagnostics)  # the parses took the run's steps
        sigs.append(_signature(r.entries))
    clock = [0.0]

    def frozen() -> float:  # a clock that never moves: whatever stops the run is not the time
        return clock[0]

    monkeypatch.setattr(time, "monotonic", frozen)
    r = run(entries, Options(root=str(tmp_path), meter=RunMeter(limit=limit, deadline=1e9)))
    assert sigs == [sigs[0], _signature(r.entries)]


def test_a_restored_state_is_charged_by_what_it_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    """The import-prefix fixture's later paths start from a copy of the state after its imports: the copy is
    charged (its objects), the paths and findings stay the same."""
    import os

    fixture = os.path.join(os.path.dirname(__file__), "..", "fixtures", "imports", "import_prefix.py")

    def analyze() -> EntryResult:
        return run([fixture], Options(root=os.path.dirname(fixture), strict=True)).entries[0]

    charged = analyze()
    monkeypatch.setattr(snapshot, "copy_steps", lambda objects: 0)
    free = analyze()
    assert (charged.stats.paths, [d.message for d in charged.diagnostics]) == \
        (free.stats.paths, [d.message for d in free.diagnostics])
    assert charged.stats.steps > free.stats.steps


def test_library_target_selection_is_charged_to_the_run(tmp_path: Path) -> None:
    """The files library mode reads to find its modules and their callers are work of the run: the run's meter
    is charged for them (so the modules' shares are what is left), in proportion to their sizes."""
    (tmp_path / "models.py").write_text("import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n"
                                        "    def forward(self, x):\n        return x.view(-1)\n")
    base = check(CheckRequest(root=str(tmp_path), no_cache=True)).result
    (tmp_path / "notes.py").write_text(BIG.replace("WIDTH = 3\n", "from models import M\n"))
    more = check(CheckRequest(root=str(tmp_path), no_cache=True)).result
    assert [e.entry for e in base.entries] == [e.entry for e in more.entries if "::" in e.entry]
    meter = RunMeter()
    from pytea_ci.driver.imports_graph import ImportCache, ImportGraph
    from pytea_ci.library.run import files_for, select_targets

    graph = ImportGraph(str(tmp_path), ImportCache(None))
    files = files_for([], None, str(tmp_path), [], graph)
    select_targets("auto", files, str(tmp_path), [], [], graph, True, meter)
    assert meter.used >= len(BIG) // SELECTION_BYTES_PER_STEP  # notes.py, read for call sites of M


def test_a_parse_does_not_cut_an_import_in_library_mode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Library mode cuts an imported module's top-level code after IMPORT_STEPS steps of its statements: the
    steps charged for parsing its files (or copying state) are the budgets', not the cut's, so a package
    whose files are long but quick to run is imported whole."""
    from pytea_ci.library import interpreter as lib_interp

    monkeypatch.setattr(lib_interp, "IMPORT_STEPS", len(BIG) // SOURCE_BYTES_PER_STEP // 2)
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(BIG)
    (pkg / "layers.py").write_text("import torch\nfrom torch import nn\nfrom pkg import WIDTH\n\n\n"
                                   "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                   "        self.fc = nn.Linear(WIDTH, 8)\n\n    def forward(self, x):\n"
                                   "        return self.fc(x)\n")
    (entry,) = check(CheckRequest(root=str(tmp_path), no_cache=True)).result.entries
    assert entry.entry == "pkg/layers.py::M"
    assert not [w for w in entry.stats.unmodeled if "cut after" in w], entry.stats.unmodeled
    assert entry.stats.ops_checked > 0
