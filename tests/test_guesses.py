"""No definite error from a choice the analyzer could not make (issue 31 item 2, interp/machine.py):
a finding that the other side of a guess avoids is a PT002 warning naming the guess, nothing when the
guess is only whether a value not understood is None; choices CPython decides are decided."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pytea_ci.driver.run import Options, run
from pytea_ci.interp.machine import Ran


def findings(tmp_path: Path, source: str) -> list[tuple[int, str, str, str]]:
    entry = tmp_path / "main.py"
    entry.write_text(textwrap.dedent(source))
    result = run([str(entry)], Options(root=str(tmp_path)))
    return [(d.span.line, d.rule, d.severity.name, d.message) for e in result.entries for d in e.diagnostics]


def test_enum_member_in_a_list_of_members_is_decided(tmp_path: Path) -> None:
    assert [f[:3] for f in findings(tmp_path, """\
        import enum
        import torch
        class Kind(enum.Enum):
            FIXED = 1
            LEARNED = 2
        kind = Kind.FIXED
        y = torch.randn(2, 3)
        if kind in [Kind.LEARNED]:
            mean, var = torch.split(y, 3, dim=1)
        if kind not in (Kind.LEARNED,):
            z = y.view(7)
        """)] == [(11, "PT001", "ERROR")]  # the view runs (not in), the split never does (in)


def test_any_with_a_truthy_item_is_true_whatever_the_rest(tmp_path: Path) -> None:
    assert findings(tmp_path, """\
        import json
        import torch
        import torch.nn as nn
        bits = json.load(open("cfg.json"))["bits"]
        n = 3 if any([bits, 4]) else 5
        if all([bits, 0]):
            n = 5
        y = nn.Linear(n, 2)(torch.zeros(1, 3))
        """) == []


def test_none_or_not_of_a_library_not_followed_is_no_finding(tmp_path: Path) -> None:
    assert findings(tmp_path, """\
        import torch
        import torch.nn as nn
        from textenc import encode_prompt
        q = torch.randn(2, 5, 16)
        context = encode_prompt("a cat")
        attn_in = nn.Linear(32, 16)
        if context is not None:
            k = attn_in(context)
        else:
            k = attn_in(q)
        """) == []


def test_an_error_one_side_of_a_guess_avoids_is_a_warning_naming_it(tmp_path: Path) -> None:
    out = findings(tmp_path, """\
        import json
        import torch
        import torch.nn as nn
        cfg = json.load(open("cfg.json"))
        if cfg["big"]:
            n = 5
        else:
            n = 3
        y = nn.Linear(n, 2)(torch.zeros(1, 3))
        """)
    assert [(line, rule, sev) for line, rule, sev, _ in out] == [(9, "PT002", "WARNING")]
    assert "if `cfg['big']` is True at main.py:5" in out[0][3]


def test_an_error_every_side_of_a_guess_meets_stays_an_error(tmp_path: Path) -> None:
    out = findings(tmp_path, """\
        import json
        import torch
        import torch.nn as nn
        cfg = json.load(open("cfg.json"))
        if cfg["big"]:
            n = 5
        else:
            n = 4
        y = nn.Linear(n, 2)(torch.zeros(1, 3))
        """)
    assert [(line, rule, sev) for line, rule, sev, _ in out] == [(9, "PT001", "ERROR")]


def _resolved(last: Ran | None, rule: str = "PT004") -> list[str]:
    """A loop that guesses at each read whether a stream has ended: the paths that stop after one,
    two and three reads all meet the finding; `last` is the path that read on (None: never run)."""
    from pytea_ci.diagnostics import Diagnostic, Severity, Span
    from pytea_ci.interp.machine import GUESS, MachineFindings

    site = Span("main.py", 9, 0)
    d = Diagnostic(rule, Severity.ERROR, site, "assert: the condition can never hold on this path")
    m = MachineFindings()
    for n in range(1, 4):
        trail = (False,) * (n - 1) + (True,)
        choices = tuple((i, "`not buf` is {side} at main.py:6", trail[i], frozenset({GUESS})) for i in range(n))
        m.add(d, n, trail, _machine(choices), site)
        m.path_done(Ran(n, trail, True, frozenset(), False))
    if last is not None:
        m.path_done(last)
    out: dict[tuple, Diagnostic] = {}
    m.resolve(out)
    return [f"{x.rule} {x.severity.name}" for x in out.values()]


def _machine(choices: tuple) -> object:
    from pytea_ci.interp.machine import PathMachine

    pm = PathMachine()
    pm.choices = list(choices)
    return pm


def test_an_assert_resting_on_guesses_whose_last_other_side_never_ran_is_nothing() -> None:
    # a loop that reads a value not understood until it runs out, cut by the path budget after three
    # reads: no path followed the last guess the other way, so the assert failing proves nothing (it was
    # a PT004 error before: encodec's bit-packer test, reviewed under torch)
    assert _resolved(None) == []
    assert _resolved(Ran(4, (False, False, False), False, frozenset(), False, cut=True)) == []  # cut by a budget
    # a shape finding on such paths stays an error: the guesses of a library's import and forward seldom
    # touch the user's sizes (a BERT head's mismatch with transformers installed)
    assert _resolved(None, "PT001") == ["PT001 ERROR"]


def test_an_assert_whose_guesses_end_in_the_program_raising_stays_an_error() -> None:
    # the other side of the last guess ran and the program raised there: every way fails
    assert _resolved(Ran(4, (False, False, False), False, frozenset(), False)) == ["PT004 ERROR"]
    # ... and one that ran to its end avoids it: the program asserts that side never happens
    assert _resolved(Ran(4, (False, False, False), False, frozenset(), True)) == []
    assert _resolved(Ran(4, (False, False, False), False, frozenset(), True), "PT001") == ["PT002 WARNING"]


def test_an_assert_one_side_of_a_guess_fails_is_what_the_program_requires(tmp_path: Path) -> None:
    # encodec's bit-packer self-test: on the side where the stream ended early the assert fails, on
    # the side that read on it passes; the program asserts that the first side never happens (this
    # was a PT002 warning naming the guess)
    assert [f[:2] for f in findings(tmp_path, """\
        import io
        import torch
        def pull(fo):
            buf = fo.read(1)
            if not buf:
                return None
            return buf[0]
        length = torch.randint(10, 2000, (1,)).item()
        tokens = torch.randint(16, (length,)).tolist()
        fo = io.BytesIO()
        rebuilt = []
        while True:
            value = pull(fo)
            if value is None:
                break
            rebuilt.append(value)
        assert len(rebuilt) >= len(tokens)
        """)] == []  # no finding (the `while True:` left by a break the data decides is cut, stop 43: no paths budget)


def test_the_other_side_ran_the_site_without_a_check_and_failed_later(tmp_path: Path) -> None:
    """The other side of the guess ran the split's unpacking (the count held) or the tensor creation (a
    symbolic size: no check) without the finding, then ended in an exception of its own: it avoided the
    finding, which is a warning (fuzz_python seeds 101972, 102111)."""
    for line, use in ((8, "a, b = torch.split(torch.zeros(26), k)"), (8, "z = torch.zeros(-v)")):
        out = findings(tmp_path, f"""\
            import json
            import torch
            cfg = json.load(open("cfg.json"))
            if cfg["big"]:
                k, v = 4, 8
            else:
                k, v = 13, cfg["n"]
            {use}
            raise KeyError("the run ends here")
            """)
        assert [(n, rule, sev) for n, rule, sev, _ in out if sev != "NOTE"] == [(line, "PT002", "WARNING")], use


def test_a_guess_is_named_at_its_own_file_and_line(tmp_path: Path) -> None:
    """A guess inside a function of another file (an installed package's helper, a project module) is
    named at that file's line, not at the line number of that file in the entry's name (on main: `main.py:4`
    for `helpers.py`'s line 4)."""
    (tmp_path / "helpers.py").write_text(textwrap.dedent("""\
        import json


        def width():
            if json.load(open("cfg.json"))["big"]:
                return 5
            return 3
        """))
    out = findings(tmp_path, """\
        import torch
        import torch.nn as nn
        from helpers import width
        y = nn.Linear(width(), 2)(torch.zeros(1, 3))
        """)
    assert [(line, rule) for line, rule, _, _ in out] == [(4, "PT002")]
    assert "is True at helpers.py:5" in out[0][3]


def test_no_stream_captures_until_the_program_begins_a_cuda_graph(tmp_path: Path) -> None:
    """`torch.cuda.is_current_stream_capturing()` is program state (transformers' `is_tracing`): False
    on a CUDA build outside a capture, RuntimeError on a CPU-only one (torch 2.13+cpu), which the
    try/except takes to False; so the view runs on every path. After `torch.cuda.graph(...)` a capture
    may be under way: not known, no definite error."""
    body = """\
        import torch
        def is_tracing():
            try:
                return torch.cuda.is_current_stream_capturing() or torch.xpu.is_current_stream_capturing()
            except Exception:
                return False
        y = torch.randn(2, 3)
        {begin}
        if not is_tracing():
            z = y.view(7)
        """
    assert [f[:3] for f in findings(tmp_path, body.format(begin="pass"))] == [(10, "PT001", "ERROR")]
    late = findings(tmp_path, body.format(begin="ctx = torch.cuda.graph(torch.cuda.CUDAGraph())"))
    assert all(f[2] != "ERROR" for f in late), late


TIED = """\
    import torch
    from torch import nn
    class Tied(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 4)
            self.blocks = nn.ModuleDict({"head": nn.Linear(4, 10, bias=False)})
    m = Tied()
    src = m.get_parameter("emb.weight")
    head = m.get_submodule("blocks.head")
    setattr(head, "weight", src)
    width = 4
    if hasattr(head, "out_features") and not hasattr(src, "num_embeddings"):
        width = 5
    y = torch.randn(2, width).view(8)
    """


def test_get_submodule_and_get_parameter_walk_the_modules(tmp_path: Path) -> None:
    """`nn.Module.get_submodule`/`get_parameter` follow torch's walk (transformers 5's weight tying,
    `_adjust_bias`): the Linear and the Embedding's weight, so both `hasattr`s are decided and the view
    runs with width 5 on the one path (torch 2.13 raises there: 10 elements into 8; width 4 would fit)."""
    assert [f[:3] for f in findings(tmp_path, TIED)] == [(15, "PT001", "ERROR")]


def test_gradients_are_enabled_until_the_program_changes_the_grad_mode(tmp_path: Path) -> None:
    """`torch.is_grad_enabled()` is program state (diffusers' `torch.is_grad_enabled() and
    self.gradient_checkpointing`): True in a fresh process (torch 2.13: the view runs and raises), not
    known once a grad-mode context was made (inside `no_grad` torch answers False: no finding)."""
    body = """\
        import torch
        y = torch.randn(2, 3)
        {mode}
        if torch.is_grad_enabled() and not torch.is_inference_mode_enabled():
            z = y.view(7)
        """
    assert [f[:3] for f in findings(tmp_path, body.format(mode="pass"))] == [(5, "PT001", "ERROR")]
    late = findings(tmp_path, body.format(mode="torch.set_grad_enabled(False)"))
    assert all(f[2] != "ERROR" for f in late), late


def test_the_grad_mode_is_followed_through_contexts_and_decorated_functions(tmp_path: Path) -> None:
    """The grad mode as torch keeps it (diffusers decorates methods with `@torch.no_grad()` at import):
    making a decorator changes nothing, the decorated function runs with gradients off and leaves them
    on, `with no_grad()` turns them off inside only, `@set_grad_enabled(False)` gives the mode back once
    applied. torch 2.13 raises at the last view only (the views inside are never reached)."""
    assert [f[:3] for f in findings(tmp_path, """\
        import torch
        y = torch.randn(2, 3)

        @torch.no_grad()
        def inside():
            if torch.is_grad_enabled():
                return y.view(7)
            return y

        @torch.set_grad_enabled(False)
        def also_off():
            return torch.is_grad_enabled()

        with torch.no_grad():
            if torch.is_grad_enabled():
                y.view(5)
        with torch.inference_mode():
            if torch.is_grad_enabled() or not torch.is_inference_mode_enabled():
                y.view(4)
        out = inside()
        if also_off():
            y.view(3)
        if torch.is_grad_enabled() and not torch.is_inference_mode_enabled():
            z = y.view(7)
        """)] == [(24, "PT001", "ERROR")]


def test_a_plain_value_is_no_class_function_or_partial(tmp_path: Path) -> None:
    """`isinstance(value, functools.partial)` (timm's `get_norm_act_layer("batchnorm2d", ...)`), `type`,
    `types.FunctionType` of a str or a number is False in CPython: decided, not forked (the
    fork made MaxViT's norm layers values not understood). CPython raises at the last line only."""
    assert [f[:3] for f in findings(tmp_path, """\
        import functools
        import types
        import torch
        x = torch.randn(2, 3)
        if isinstance("batchnorm2d", functools.partial) or isinstance(3, (type, types.FunctionType)):
            x.view(5)
        if isinstance(2.5, types.FunctionType) or isinstance("a", type):
            x.view(4)
        y = x.view(7)
        """)] == [(9, "PT001", "ERROR")]


def test_a_program_function_is_a_function_and_no_torch_class(tmp_path: Path) -> None:
    """A lambda or `def` of the program is an instance of `types.FunctionType`, never of `nn.Module` or
    `functools.partial` (x-transformers' `default(val, d)` asks `not isinstance(d, Module) and callable(d)`
    of a lambda building its projection). CPython raises at the last line only."""
    assert [f[:3] for f in findings(tmp_path, """\
        import functools
        import types
        import torch
        from torch import nn
        x = torch.randn(2, 3)
        f = lambda: 1
        def g():
            return 2
        if isinstance(f, nn.Module) or isinstance(g, functools.partial) or not isinstance(g, types.FunctionType):
            x.view(5)
        y = x.view(7)
        """)] == [(11, "PT001", "ERROR")]


def test_a_partial_or_a_class_is_no_torch_module(tmp_path: Path) -> None:
    """A `functools.partial` object and a class are instances of `functools.partial` and `type`, never of
    `nn.Module`: timm's `get_attn(se_layer)` asks `isinstance(attn_type, torch.nn.Module)` of
    `partial(SqueezeExcite, ...)` in every EfficientNet block (on main: not decided, an error on a line CPython
    never reaches). CPython raises at the last line only."""
    assert [f[:3] for f in findings(tmp_path, """\
        import functools
        import torch
        from torch import nn
        class SE(nn.Module):
            def __init__(self, c, ratio=0.25):
                super().__init__()
        x = torch.randn(2, 3)
        se = functools.partial(SE, ratio=0.5)
        if isinstance(se, nn.Module) or isinstance(SE, nn.Module) or isinstance(nn.Linear, torch.nn.Module):
            x.view(5)
        y = x.view(7)
        """)] == [(11, "PT001", "ERROR")]


SQUEEZED = """\
    import numpy as np
    import torch
    import torch.nn as nn
    from PIL import Image
    im = np.array(Image.open('./cat.png').convert('L'), dtype='float32')
    im = torch.from_numpy(im.reshape((1, 1, im.shape[0], im.shape[1])))
    small = nn.MaxPool2d(2, 2)(im).squeeze()
    print(small.shape[{}])
    """


def test_a_finding_one_case_of_a_squeeze_makes_is_no_error(tmp_path: Path) -> None:
    """`squeeze()` of an image's pooled sizes: each may be 1 (a case of the inputs, the image size); an
    index that only the case of a 1-pixel-high pooled image puts out of range is a warning naming the case,
    not an error (a notebook of a tutorial read `small.shape[0]` of a cat picture: an error before); one
    that every case puts out of range stays an error. The image's own sizes are plausible (at least 2):
    MaxPool2d's "output too small" for a 1-pixel image is not reported."""
    found = findings(tmp_path, SQUEEZED.format(0))
    assert [(f[0], f[1], f[2]) for f in found] == [(8, "PT002", "WARNING")], found
    assert "== 1` is True" in found[0][3]
    assert [(f[0], f[1], f[2]) for f in findings(tmp_path, SQUEEZED.format(2))] == [(8, "PT003", "ERROR")]
