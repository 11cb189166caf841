"""Path economy: a data-dependent branch that only tracks scalars (`if loss < best: best = loss`) is
joined on one path, so a training loop over epochs does not double its paths each epoch; a branch that
binds a size, a tensor or an object differently still forks, so each configuration is checked."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pytea_ci.diagnostics.result import EntryResult
from pytea_ci.driver.run import Options, run

PRELUDE = "import argparse\nimport torch\nimport torch.nn as nn\n"


def _analyze(tmp_path: Path, body: str) -> EntryResult:
    entry = tmp_path / "main.py"
    entry.write_text(PRELUDE + textwrap.dedent(body))
    return run([str(entry)], Options(root=str(tmp_path), strict=True)).entries[0]


def test_best_loss_tracking_stays_on_one_path(tmp_path: Path) -> None:
    r = _analyze(tmp_path, """
        model = nn.Linear(4, 2)
        best, best_epoch, note = float("inf"), -1, ""
        for epoch in range(12):
            loss = model(torch.randn(8, 4)).sum().item()
            if loss < best:
                best = loss
                note = "improved"
                torch.save(model.state_dict(), "best.pt")
            else:
                note = "no change"
            print(epoch, best, note)
        y = model(torch.randn(8, 5))
    """)
    assert r.stats.paths == 1
    assert [(d.rule, d.span.line) for d in r.diagnostics] == [("PT001", 16)]  # still checked after the loop


def test_a_size_chosen_by_data_still_forks(tmp_path: Path) -> None:
    r = _analyze(tmp_path, """
        p = argparse.ArgumentParser()
        p.add_argument("--model", required=True)
        args = p.parse_args()
        if args.model == "big":
            hidden = 512
        else:
            hidden = 256
        net = nn.Sequential(nn.Linear(16, hidden), nn.Linear(256, 10))
        y = net(torch.randn(2, 16))
    """)
    assert r.stats.paths == 2
    # only "big" fails: an input's value chooses it, so the finding is a warning naming that choice (issue 31
    # item 2: an error only when every way of the choice fails)
    assert [(d.rule, d.span.line) for d in r.diagnostics] == [("PT002", 13)]


def test_a_side_that_fails_is_not_joined(tmp_path: Path) -> None:
    r = _analyze(tmp_path, """
        x = torch.randn(2, 3)
        flag = torch.rand(1).item() > 0.5
        if flag:
            v = x.view(7).sum().item()
        else:
            v = 0.0
        z = torch.zeros(2, 3).view(6)
    """)
    assert r.stats.paths == 2
    # the failing side is reached only when a random draw says so: a warning naming that choice (issue 31 item 2)
    assert [(d.rule, d.span.line) for d in r.diagnostics] == [("PT002", 8)]


def test_a_checkpoint_saved_on_improvement_stays_on_one_path(tmp_path: Path) -> None:
    """kuangliu/pytorch-cifar's `test()`: the best accuracy starts as the int 0 and becomes a float, the
    checkpoint dict is a name only the branch reads, the folder check binds nothing: one path, where
    every epoch doubled the paths (64, the budget, and a PT011 note)."""
    r = _analyze(tmp_path, """
        import os
        net = nn.Linear(4, 2)
        best_acc = 0


        def test(epoch):
            global best_acc
            correct = net(torch.randn(8, 4)).argmax(1).eq(torch.zeros(8, dtype=torch.long)).sum().item()
            acc = 100. * correct / 8
            if acc > best_acc:
                state = {"net": net.state_dict(), "acc": acc, "epoch": epoch}
                if not os.path.isdir("checkpoint"):
                    os.mkdir("checkpoint")
                torch.save(state, "./checkpoint/ckpt.pth")
                best_acc = acc


        for epoch in range(200):
            test(epoch)
        y = net(torch.randn(3, 5))
    """)
    assert r.stats.paths == 1
    assert [(d.rule, d.span.line) for d in r.diagnostics] == [("PT001", 24)]


def test_a_counter_only_branch_tests_read_is_joined(tmp_path: Path) -> None:
    """A formatting helper's counter (`if hours > 0 and i <= 2: f += ...; i += 1`, kuangliu's
    `format_time`) is read only by tests: its ints may differ at a join. An int read otherwise (a size
    after the branch) still forks."""
    r = _analyze(tmp_path, """
        import time


        def fmt(seconds):
            hours, minutes = int(seconds / 3600), int(seconds / 60)
            f, i = "", 1
            if hours > 0:
                f += str(hours) + "h"
                i += 1
            if minutes > 0 and i <= 2:
                f += str(minutes) + "m"
                i += 1
            return f


        def width(seconds):
            n = 4
            if int(seconds) > 0:
                n += 1
            return nn.Linear(n, 2)(torch.randn(3, 4))


        s = fmt(time.time()) + fmt(time.time())
        width(time.time())
    """)
    assert r.stats.paths == 2
    assert [(d.rule, d.span.line) for d in r.diagnostics] == [("PT002", 24)]


def test_an_early_branch_gets_its_turn_before_a_loop_s_combinations(tmp_path: Path) -> None:
    # the first side's training loop forks on every step (a helper not installed decides whether it logs):
    # depth first, its 2**10 combinations used the path budget and `else` was never taken
    r = _analyze(tmp_path, """
        import helpers_not_here
        p = argparse.ArgumentParser()
        p.add_argument("--model", required=True)
        args = p.parse_args()
        net = nn.Linear(16, 4)
        if args.model == "big":
            for step in range(10):
                if helpers_not_here.should_log(step):
                    t = torch.randn(2, 8)
                else:
                    t = torch.randn(3, 8)
                y = net(torch.randn(2, 16))
        else:
            y = net(torch.randn(2, 17))
    """)
    assert r.stats.paths == 64  # the budget still ends the loop's combinations
    assert ("PT002", 18) in [(d.rule, d.span.line) for d in r.diagnostics]


def test_every_path_is_still_taken_when_the_budget_allows(tmp_path: Path) -> None:
    r = _analyze(tmp_path, """
        import helpers_not_here
        net = nn.Linear(16, 4)
        for step in range(5):
            if helpers_not_here.should_log(step):
                t = torch.randn(2, 8)
            else:
                t = torch.randn(3, 8)
        if helpers_not_here.big():
            y = net(torch.randn(2, 17))
    """)
    assert r.stats.paths == 2 ** 5 * 2
    assert [d.rule for d in r.diagnostics] == ["PT002"]
