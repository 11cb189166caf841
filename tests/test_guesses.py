"""No definite error from a choice the analyzer could not make (issue 31 item 2, interp/machine.py):
a finding that the other side of a guess avoids is a PT002 warning naming the guess, nothing when the
guess is only whether a value not understood is None; choices CPython decides are decided."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pytea_ci.driver.run import Options, run


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
