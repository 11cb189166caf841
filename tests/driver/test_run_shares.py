"""The run budget (`run-budget`) is shared, not first come first served (issue 31 item 9): every entry
point and library-mode module gets a part of what is left in proportion to what it asks for, decided by
steps alone, so an expensive first entry no longer leaves the others not analyzed, the whole run stays
within the budget's steps, and which entries were analyzed never depends on the machine's speed; the
wall-clock safety net stays a net, its cut-offs counted and named."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from pytea_ci.diagnostics.budgets import RUN, STEPS_PER_ENTRY, WALL_CLOCK, steps_for
from pytea_ci.diagnostics.result import EntryResult
from pytea_ci.driver.check import check
from pytea_ci.driver.project import CheckRequest
from pytea_ci.driver.run import WALL_SHARE_FLOOR, Options, RunMeter, Share, run

# a module whose `forward` forks on its input's last size eight times (32 paths per rank: thousands of
# steps), then three modules that need a few dozen steps each
SLOW = ("class Slow(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 8)\n\n"
        "    def forward(self, x):\n        n = x.shape[-1]\n        for k in (2, 3, 5, 7, 11, 13, 17, 19):\n"
        "            if n % k == 0:\n                x = x * 2\n        return self.fc(x)\n\n\n")
CHEAP = "".join(f"class M{i}(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                f"        self.fc = nn.Linear({i + 4}, 8)\n\n    def forward(self, x):\n        return self.fc(x)\n\n\n"
                for i in range(3))
MODELS = "import torch\nfrom torch import nn\n\n\n" + SLOW + CHEAP
# an entry point that forks on a random size (each fork reaching a tensor op), then two small ones
FORKING = "import random\nimport torch\nn = random.randint(1, 9)\n" + "".join(
    f"if n > {i}:\n    x = torch.randn(2, {i + 1})\n" for i in range(8)) + "y = torch.randn(3).view(3)\n"
SMALL = "import torch\nx = torch.randn(2, 3)\ny = x.view(6)\n"


def _run(root: Path, run_budget: float) -> list[EntryResult]:
    return check(CheckRequest(root=str(root), no_cache=True, overrides={"run_budget": run_budget})).result.entries


def _notes(e: EntryResult) -> list[str]:
    return [d.message for d in e.diagnostics if d.rule == "PT011"]


def _signature(entries: list[EntryResult]) -> str:
    """Everything a result says except timings."""
    return json.dumps([[e.entry, e.status, [(d.rule, d.span.line, d.message) for d in e.diagnostics],
                        e.stats.paths, e.stats.steps, e.stats.ops_reached, e.stats.ops_checked] for e in entries])


def test_an_expensive_first_module_leaves_every_later_one_its_share(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text(MODELS)
    whole = _run(tmp_path, 0)  # no limit
    assert [e.entry for e in whole] == ["models.py::Slow", "models.py::M0", "models.py::M1", "models.py::M2"]
    slow = whole[0].stats.steps
    assert slow > 10 * max(e.stats.steps for e in whole[1:])
    # a run budget the expensive module alone would spend: first come first served, it took it all and
    # the others were "not analyzed"; shared, the others are checked as with no limit and the expensive
    # one stops on its share, saying so
    cut = _run(tmp_path, slow / steps_for(1.0))
    assert _signature(cut[1:]) == _signature(whole[1:]) and all(e.stats.ops_checked > 0 for e in cut)
    assert cut[0].stats.steps < slow
    assert any("could not be decided within its budget" in m for m in _notes(cut[0]))
    assert sum(e.stats.steps for e in cut) <= slow + len(cut)  # an entry may pass its share by its last step


def test_entry_points_share_the_run_budget_with_the_modules_whatever_jobs_is(tmp_path: Path) -> None:
    (tmp_path / "a_fork.py").write_text(FORKING)
    (tmp_path / "b.py").write_text(SMALL)
    (tmp_path / "c.py").write_text(SMALL)
    entries = [str(tmp_path / n) for n in ("a_fork.py", "b.py", "c.py")]
    whole = run(entries, Options(root=str(tmp_path)))
    fork = whole.entries[0].stats.steps
    small = whole.entries[1].stats.steps
    assert fork > 6 * small
    sigs = []
    for jobs in (1, 2):  # one share for all entry points, fixed before any runs: not the order they end in
        r = run(entries, Options(root=str(tmp_path), jobs=jobs, meter=RunMeter(limit=fork)))
        assert [e.status for e in r.entries] == ["incomplete", "ok", "ok"]
        assert any(STEPS_PER_ENTRY in m for m in _notes(r.entries[0]))
        assert _signature(r.entries[1:]) == _signature(whole.entries[1:])
        assert sum(e.stats.steps for e in r.entries) <= fork + len(entries)
        sigs.append(_signature(r.entries))
    assert sigs[0] == sigs[1]


def test_the_modules_to_come_keep_their_part_from_the_entry_points(tmp_path: Path) -> None:
    """Entry points run first, but the run's modules (known before the entry points run) keep their part:
    an entry point that could spend the whole budget no longer leaves the modules nothing."""
    # three times the forks: the modules' part of its steps covers their copies of the state too (charged)
    (tmp_path / "train.py").write_text("if __name__ == \"__main__\":\n" + "".join(
        "    " + line + "\n" for line in (FORKING * 3).splitlines()))
    (tmp_path / "models.py").write_text("import torch\nfrom torch import nn\n\n\n" + CHEAP)
    whole = _run(tmp_path, 0)
    assert [e.entry for e in whole] == ["train.py", "models.py::M0", "models.py::M1", "models.py::M2"]
    limit = whole[0].stats.steps
    cut = _run(tmp_path, limit / steps_for(1.0))
    assert [e.entry for e in cut] == [e.entry for e in whole]
    assert any(STEPS_PER_ENTRY in m for m in _notes(cut[0]))
    assert _signature(cut[1:]) == _signature(whole[1:])
    assert sum(e.stats.steps for e in cut) <= limit + len(cut)


def test_the_meter_divides_what_is_left_in_proportion_and_gives_back_what_is_unused() -> None:
    meter = RunMeter(limit=1000)
    meter.expect(4 * 500)
    assert meter.share(500).steps == 250  # 1000 left for 2000 asked: half of what each asks
    meter.charge(10)  # it needed 10
    assert meter.share(500).steps == 990 * 500 // 1500  # the 240 it left are divided among the three to come
    assert RunMeter(limit=10**6).share(500, 4).steps == 500  # enough for all: each gets what it asks
    assert RunMeter().share(500, 4) == Share(500, None)  # no limit, no safety net
    assert RunMeter(limit=100, used=100).share(500).steps == 0


def test_each_entry_gets_its_part_of_the_time_before_the_safety_net(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a machine too slow or too busy for the steps, the safety net cuts every entry a little (each
    says where it stopped) rather than leaving the last ones not analyzed."""
    monkeypatch.setattr(time, "monotonic", lambda: 100.0)
    meter = RunMeter(limit=10**9, deadline=160.0)
    meter.expect(2 * 400 + 1 * 100)
    assert meter.share(400, 2).seconds == pytest.approx(60.0 * 400 / 900)  # each entry point: its part of the time left
    assert meter.share(100).seconds == 60.0  # the last: all of it
    meter.expect(100 * 100)  # many entries: each may take a quarter of what is left (WALL_SHARE_FLOOR)
    assert meter.share(100).seconds == 60.0 * WALL_SHARE_FLOOR
    assert meter.until(15.0) == 115.0 and meter.until(None) == 160.0 and meter.until(100.0) == 160.0


class _Clock:
    """A monotonic clock that advances `tick` seconds at every reading: a machine of another speed."""

    def __init__(self, tick: float) -> None:
        self.now, self.tick = 1000.0, tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


def _timed_run(root: Path, tick: float, monkeypatch: pytest.MonkeyPatch) -> list[EntryResult]:
    monkeypatch.setattr(time, "monotonic", _Clock(tick))
    try:
        return _run(root, 0.05)  # 2,500 steps, and the safety net's 60 s
    finally:
        monkeypatch.undo()


def test_the_same_run_gives_the_same_verdicts_on_a_slower_machine(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "models.py").write_text(MODELS)
    fast = _timed_run(tmp_path, 0.0, monkeypatch)
    slow = _timed_run(tmp_path, 1e-3, monkeypatch)  # far slower, still within the safety net
    assert any(_notes(e) for e in fast) and all(e.stats.ops_checked > 0 for e in fast)
    assert _signature(slow) == _signature(fast)
    # a machine too slow for the steps: the safety net ends the run; what it cut is counted and named
    late = _timed_run(tmp_path, 5.0, monkeypatch)
    assert [e.entry for e in late] == [e.entry for e in fast]
    cut = [e for e in late if any(WALL_CLOCK in m for m in _notes(e))]
    assert cut and all(e.status == "incomplete" and RUN not in " ".join(_notes(e)) for e in cut)
