"""Deterministic budgets (issue 24): budgets count interpreter steps and z3 resource units, so where an
analysis stops, and what it finds before, never depends on the machine's speed or load. Wall-clock time
is only a safety net, reported when hit and never cached."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytea_ci.diagnostics import Diagnostic, Severity, Span
from pytea_ci.diagnostics.budgets import RUN, SOLVER, STEPS_PER_ENTRY, WALL_CLOCK, rlimit_for, steps_for
from pytea_ci.diagnostics.result import EntryResult
from pytea_ci.driver.cache import cacheable
from pytea_ci.driver.config import from_table
from pytea_ci.driver.run import Options, RunMeter, run
from pytea_ci.interp.budget import Budget
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import INPUT, Sym
from pytea_ci.solver import Decider, Verdict
from pytea_ci.solver.decide import MemoryCache

# many paths (each `if` on an input forks), each reaching a tensor op: the step budget ends it midway
FORKING = "import random\nimport torch\nn = random.randint(1, 9)\n" + "".join(
    f"if n > {i}:\n    x = torch.randn(2, {i + 1})\n" for i in range(8)) + "y = torch.randn(3).view(4)\n"


def _notes(result_entries: list[EntryResult]) -> list[str]:
    return [d.message for e in result_entries for d in e.diagnostics if d.rule == "PT011"]


def _signature(entries: list[EntryResult]) -> str:
    """Everything a result says except timings."""
    return json.dumps([[e.entry, e.status, [(d.rule, d.span.line, d.message) for d in e.diagnostics],
                        e.stats.paths, e.stats.steps, e.stats.ops_reached, e.stats.ops_checked] for e in entries])


def test_the_entry_step_budget_ends_an_entry_point_the_same_way_every_time(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text(FORKING)
    small = Budget(entry_steps=400)
    first = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), budget=small))
    again = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), budget=small))
    assert any(STEPS_PER_ENTRY in m for m in _notes(first.entries))
    assert _signature(first.entries) == _signature(again.entries)
    whole = run([str(tmp_path / "main.py")], Options(root=str(tmp_path)))
    assert not _notes(whole.entries) and whole.entries[0].stats.paths > first.entries[0].stats.paths


def test_the_run_meter_admits_jobs_in_order() -> None:
    meter = RunMeter(limit=10)
    assert meter.admit(5, 4) == 3 and meter.exhausted and meter.admit(2, 1) == 0
    assert RunMeter(limit=None).admit(7, 10**9) == 7


def test_the_solver_budget_charges_cache_hits_as_much_as_the_first_answer() -> None:
    """A warm run (answers from the cache) must stop asking where the cold run did."""
    n = Sym("n", INPUT, lo=1)
    question = P.eq(n % 64, 0)
    cold = Decider(cache=MemoryCache())
    with cold.budgeted(rlimit_for(2000)) as spent:
        cold.check(question, [])
    cost = rlimit_for(2000) - spent.left
    assert cost > 0 and cold.stats.z3_calls >= 1
    warm = Decider(cache=cold.cache)
    with warm.budgeted(rlimit_for(2000)) as again:
        warm.check(question, [])
    assert warm.stats.z3_calls == 0 and rlimit_for(2000) - again.left == cost
    starved = Decider(cache=cold.cache)
    with starved.budgeted(0) as none_left:
        assert starved.check(question, []).verdict is Verdict.UNDECIDED
    assert none_left.reached == [SOLVER]


def test_seconds_style_options_map_to_units() -> None:
    cfg = from_table({"time-budget": 2, "library-time-budget": 1, "run-budget": 0, "wall-clock-limit": 30}, "t")
    assert (cfg.time_budget, cfg.run_budget, cfg.wall_clock_limit) == (2.0, 0.0, 30.0)
    assert steps_for(cfg.time_budget) == 2 * steps_for(1.0) and rlimit_for(2000) == 2 * rlimit_for(1000)
    assert Decider(timeout_ms=500).rlimit == rlimit_for(500)


@pytest.mark.parametrize("budget, cached", [(STEPS_PER_ENTRY, True), (SOLVER, True), (WALL_CLOCK, False)])
def test_only_the_wall_clock_safety_net_is_never_cached(budget: str, cached: bool) -> None:
    note = Diagnostic("PT011", Severity.NOTE, Span("m.py", 1, 0),
                      f"analysis incomplete: the {budget} budget was reached; findings so far are reported")
    assert cacheable(EntryResult("m.py", [note], status="incomplete")) is cached


def test_the_wall_clock_safety_net_names_the_entry_point(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("import torch\nwhile True:\n    x = torch.randn(2)\n")
    r = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), budget=Budget(wall_seconds=0.0)))
    notes = _notes(r.entries)
    assert any(WALL_CLOCK in m and "main.py" in m for m in notes), notes
    assert not cacheable(r.entries[0])


def test_symbolic_arithmetic_is_charged_as_steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A statement that builds a sum of 200 symbols costs more than one adding two ints: the step budget
    follows the work (a stdlib file spent 80 s of CPU within 250,000 uncharged steps)."""
    import pytea_ci.interp.interpreter as interpreter

    body = "".join("s = s + random.randint(1, 9)\n" for _ in range(200))
    (tmp_path / "main.py").write_text("import random\nimport torch\ns = 0\n" + body + "x = torch.randn(2, 3).view(s)\n")
    charged = run([str(tmp_path / "main.py")], Options(root=str(tmp_path))).entries[0]
    monkeypatch.setattr(interpreter, "WORK_PER_STEP", 10**9)
    uncharged = run([str(tmp_path / "main.py")], Options(root=str(tmp_path))).entries[0]
    assert charged.stats.steps > 2 * uncharged.stats.steps
    assert [d.rule for d in charged.diagnostics] == [d.rule for d in uncharged.diagnostics] == ["PT001"]


# a CLI with two subcommands: `prep` forks on an input many times (it alone could spend the entry
# point's budget), `train` has a shape bug
CLI = ("import argparse\nimport random\nimport torch\n"
       "p = argparse.ArgumentParser()\nsub = p.add_subparsers(dest='cmd', required=True)\n"
       "sub.add_parser('prep')\nsub.add_parser('train')\nargs = p.parse_args()\n"
       "if args.cmd == 'prep':\n    n = random.randint(1, 99)\n"
       + "".join(f"    if n > {i}:\n        x = torch.randn(2, {i + 1})\n" for i in range(10))
       + "else:\n    y = torch.randn(3).view(4)\n")


def test_each_subcommand_of_a_cli_has_budgets_of_its_own(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text(CLI)
    whole = run([str(tmp_path / "main.py")], Options(root=str(tmp_path)))
    prep_steps = whole.entries[0].stats.steps  # (the train path is short)
    assert [d.rule for d in whole.entries[0].diagnostics] == ["PT001"]
    small = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), budget=Budget(entry_steps=prep_steps // 3)))
    e = small.entries[0]
    # prep stops on its own budget, named in the note; train still runs on its own and is found
    assert any(STEPS_PER_ENTRY in m and "subcommand 'prep'" in m for m in _notes([e]))
    assert [d.rule for d in e.diagnostics if d.rule != "PT011"] == ["PT001"]
    paths = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), budget=Budget(paths=4)))
    assert any("paths per entry point (subcommand 'prep')" in m for m in _notes(paths.entries))
    assert [d.rule for d in paths.entries[0].diagnostics if d.rule != "PT011"] == ["PT001"]


# four commands that each fork on an input long enough to spend a whole entry's steps, then `train`
BUSY_CLI = ("import argparse\nimport random\nimport torch\n"
            "p = argparse.ArgumentParser()\nsub = p.add_subparsers(dest='cmd', required=True)\n"
            + "".join(f"sub.add_parser('c{k}')\n" for k in range(4)) + "sub.add_parser('train')\nargs = p.parse_args()\n"
            "if args.cmd == 'train':\n    y = torch.randn(3).view(4)\nelse:\n    n = random.randint(1, 99)\n"
            + "".join(f"    if n > {i}:\n        x = torch.randn(2, {i + 1})\n" for i in range(12)))


def test_the_commands_of_a_cli_share_the_entry_points_steps(tmp_path: Path) -> None:
    """torchtune's `tune` spent 3.2 whole-run budgets when each command had the entry's: the entry's
    commands together stay within its steps (its share of the run), each gets a part of them in turn —
    what the ones before it left, divided among it and the ones after it — so a later one still runs."""
    (tmp_path / "main.py").write_text(BUSY_CLI)
    limit = 6_000
    e = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), budget=Budget(entry_steps=limit))).entries[0]
    assert e.stats.steps <= limit + 5  # (each command's last path may pass its part by the step that ends it)
    notes = _notes([e])
    assert all(any(f"subcommand 'c{k}'" in m for m in notes) for k in range(4)), notes
    assert [d.rule for d in e.diagnostics if d.rule != "PT011"] == ["PT001"]  # `train`, the last, still ran
    alone = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), budget=Budget(entry_steps=limit // 5)))
    assert [d.rule for d in alone.entries[0].diagnostics if d.rule != "PT011"] == ["PT001"]


# yolov5's shape: decisions made before the command is chosen (here on `sys.argv`), so the commands' paths
# interleave (a, b, a, b, ...); each command loops until its budget ends it
INTERLEAVED = ("import sys\nimport fire\nflags = []\n" + "".join(f"if len(sys.argv) > {i + 1}:\n    flags.append({i})\n"
                                                                 for i in range(8))
               + "def a():\n    x = 0\n    while True:\n        x += 1\n"
               + "def b():\n    y = 0\n    while True:\n        y += 1\n"
               + "if __name__ == '__main__':\n    fire.Fire({'a': a, 'b': b})\n")


def test_commands_whose_paths_interleave_stay_within_the_entry_points_steps(tmp_path: Path) -> None:
    """A command given its part while another may still run paths does not count that one's unspent part as
    left over (yolov5's CLI ran 30 times its share on main; 1.12 times with parts fixed from what was spent)."""
    (tmp_path / "main.py").write_text(INTERLEAVED)
    limit = 20_000
    e = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), budget=Budget(entry_steps=limit))).entries[0]
    assert e.stats.steps <= limit + 5, e.stats.steps
    assert all(any(f"command '{c}'" in m for m in _notes([e])) for c in "ab"), _notes([e])


def test_a_library_module_cut_by_the_wall_clock_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytea_ci.library import verdict as library_verdict
    from pytea_ci.library.verdict import run_module, verdict
    from tests.library.helpers import targets

    (tmp_path / "net.py").write_text("import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n"
                                     "    def __init__(self):\n        super().__init__()\n"
                                     "        self.fc = nn.Linear(8, 4)\n\n    def forward(self, x):\n"
                                     "        return self.fc(x)\n")
    (t,) = targets(str(tmp_path / "net.py"), "Net")
    calm = verdict(run_module(t, str(tmp_path), Decider()), "net.py", str)
    assert not any(WALL_CLOCK in d.message for d in calm)
    monkeypatch.setattr(library_verdict, "LIBRARY_WALL_SECONDS", 0.0)  # as if the machine were very slow
    cut = verdict(run_module(t, str(tmp_path), Decider()), "net.py", str)
    notes = [d for d in cut if d.rule == "PT011" and WALL_CLOCK in d.message]
    assert notes and "depends on the machine" in notes[0].message
    assert not cacheable(EntryResult("net.py::Net", cut))


# a project with more work than a small run budget: two scripts, then three modules no script runs
SCRIPT = "import torch\n\nif __name__ == \"__main__\":\n    x = torch.randn(2, 3)\n    y = x.view(6)\n"
MODELS = "import torch\nfrom torch import nn\n\n" + "".join(
    f"class M{i}(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    f"        self.fc = nn.Linear({i + 4}, 8)\n\n    def forward(self, x):\n        return self.fc(x)\n\n"
    for i in range(3))


def _run_project(root: Path, run_budget: float) -> list[EntryResult]:
    from pytea_ci.driver.check import check
    from pytea_ci.driver.project import CheckRequest

    return check(CheckRequest(root=str(root), no_cache=True, overrides={"run_budget": run_budget})).result.entries


def test_a_run_with_more_work_than_its_budget_ends_within_it_and_says_what_stopped_each_entry(tmp_path: Path) -> None:
    """Every entry point and module gets its share (tests/driver/test_run_shares.py): none is left not
    analyzed by the steps, the run stays within them, and an entry its share stopped says so (PT011)."""
    for name in ("a", "b"):
        (tmp_path / f"train_{name}.py").write_text(SCRIPT)
    (tmp_path / "models.py").write_text(MODELS)
    whole = _run_project(tmp_path, 0)  # no limit: every entry point and module, with the steps it ran
    names = [e.entry for e in whole]
    assert names == ["train_a.py", "train_b.py", "models.py::M0", "models.py::M1", "models.py::M2"]
    assert not _notes(whole) and all(e.stats.steps > 0 for e in whole)
    total = sum(e.stats.steps for e in whole)
    for steps in (total // 2, total // 4):
        cut = _run_project(tmp_path, steps / steps_for(1.0))
        assert [e.entry for e in cut] == names
        assert sum(e.stats.steps for e in cut) <= steps + len(cut)
        for e, alone in zip(cut, whole):
            assert e.stats.steps > 0 and not any(m.startswith("not analyzed") for m in _notes([e]))
            assert _signature([e]) == _signature([alone]) or (e.status == "incomplete" and _notes([e]))
        assert any(_notes([e]) for e in cut)


def test_the_runs_wall_clock_safety_net_ends_a_run_on_a_machine_too_slow_for_its_steps(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text(SCRIPT)
    entries = [str(tmp_path / "a.py"), str(tmp_path / "b.py")]
    late = run(entries, Options(root=str(tmp_path), meter=RunMeter(limit=10**9, deadline=0.0)))
    assert [e.status for e in late.entries] == ["incomplete", "incomplete"]
    assert all(WALL_CLOCK in m and RUN not in m for m in _notes(late.entries))
    assert RunMeter(deadline=1.0).bounded(Budget()).run_deadline == 1.0
    assert RunMeter().bounded(Budget()).run_deadline is None
