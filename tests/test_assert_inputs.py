"""PT004 only for asserts about tensors (issue 31 item 6): an assert on a command-line option, a
path, a config key or a flag is the program validating its inputs; an attribute that holds a size
(`opt.n_classes = len(opt.names)`) does not make the object holding it a size."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pytea_ci.driver.run import Options, run


def rules(tmp_path: Path, source: str) -> list[tuple[int, str]]:
    entry = tmp_path / "main.py"
    entry.write_text(textwrap.dedent(source))
    return [(d.span.line, d.rule) for d in run([str(entry)], Options(root=str(tmp_path))).diagnostics
            if d.rule != "PT013"]


def test_assert_on_a_command_line_option_is_no_finding(tmp_path: Path) -> None:
    assert rules(tmp_path, """\
        import argparse
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--resume", type=str)
        parser.add_argument("--names", nargs="+", default=["a", "b"])
        opt = parser.parse_args()
        opt.n_classes = len(opt.names)
        assert opt.resume, "run with --resume CHECKPOINT"
        logits = torch.zeros(4, opt.n_classes)
        """) == []


def test_assert_on_an_attribute_holding_a_size_is_still_about_shapes(tmp_path: Path) -> None:
    assert rules(tmp_path, """\
        import torch
        class Cfg:
            pass
        cfg = Cfg()
        x = torch.zeros(2, 3)
        cfg.width = x.size(1)
        assert cfg.width == 4
        """) == [(7, "PT004")]


def test_assert_on_a_name_that_holds_no_size_there_is_no_finding(tmp_path: Path) -> None:
    # e2-tts: `times` becomes a size-derived tensor later in the forward, but where it is asserted it is
    # the caller's None; the assert checks the arguments, not shapes. `n` holds a size where asserted.
    assert rules(tmp_path, """\
        import torch
        def forward(x, times=None, cond_on_time=True):
            batch = x.shape[0]
            assert not ((times is not None) ^ cond_on_time), "pass times when cond_on_time"
            times = times.expand(batch)
            return x * times[:, None]
        forward(torch.zeros(2, 3))
        """) == []
    assert rules(tmp_path, """\
        import torch
        def width(x):
            n = x.shape[1]
            assert n == 4
            n = None
            return n
        width(torch.zeros(2, 3))
        """) == [(4, "PT004")]


def test_a_guard_requiring_an_option_without_a_default_lets_the_run_go_on(tmp_path: Path) -> None:
    """An option without a default (or `default=None`) is None unless the user gives it: a guard that ends
    the program without it (`if not opt.output_dir: raise`) is the program requiring it, and the run that
    gets anywhere gives it, so the bug after it is found. On main the option was None, every path ended at
    the `raise` and nothing was checked (attention-is-all-you-need-pytorch's train.py)."""
    assert rules(tmp_path, """\
        import argparse
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("-output_dir", type=str, default=None)
        parser.add_argument("--resume")
        opt = parser.parse_args()
        if not opt.output_dir:
            print("No experiment result will be saved.")
            raise
        start = 0
        if opt.resume:
            start = 1
        y = torch.zeros(4, 8) @ torch.zeros(7, 2)
        """) == [(13, "PT001")]
