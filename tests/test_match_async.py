"""Every construct is followed or counted (issue 31 item 7, issue 33 item 1): `match` as CPython runs
it, coroutines as their synchronous meaning, and a construct still skipped leaves the tensor
operations in it reached, not checked (coverage never says 100% over skipped code)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pytea_ci.driver.run import Options, run

MATCH_FORWARD = """\
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Linear(16, 16)

    def forward(self, x):
        match x.dim():
            case 2:
                return self.f(x)
            case _:
                return x


net = Net()
y = net(torch.randn(8, 17))
"""


def findings(tmp_path: Path, source: str) -> list[tuple[int, str]]:
    entry = tmp_path / "main.py"
    entry.write_text(textwrap.dedent(source))
    return [(d.span.line, d.rule) for d in run([str(entry)], Options(root=str(tmp_path))).diagnostics
            if d.rule not in ("PT011", "PT013")]


def test_match_on_a_rank_finds_what_the_if_version_finds(tmp_path: Path) -> None:
    assert findings(tmp_path, MATCH_FORWARD) == [(13, "PT001")]


PICKS = [  # (function over v, value of v): what `pick(v)` returns is CPython's (computed below)
    ("match v:\n case 1 | 2: return 10\n case 'a': return 11\n case _: return 12", "2"),
    ("match v:\n case 1 | 2: return 10\n case 'a': return 11\n case _: return 12", "'a'"),
    ("match v:\n case 1 | 2: return 10\n case 'a': return 11\n case _: return 12", "3"),
    ("match v:\n case None: return 3\n case _: return 4", "None"),
    ("match v:\n case [a, *rest]: return a + len(rest)\n case []: return 7", "[3, 4, 5]"),
    ("match v:\n case [a, *rest]: return a + len(rest)\n case []: return 7", "()"),
    ("match v:\n case [a, b] if a > b: return 1\n case [a, b]: return 2\n case _: return 9", "(1, 5)"),
    ("match v:\n case [a, b] if a > b: return 1\n case [a, b]: return 2\n case _: return 9", "'ab'"),
    ("match v:\n case {'w': w, **kw}: return w + len(kw)\n case _: return 1", "{'w': 4, 'x': 1}"),
    ("match v:\n case {'w': w}: return w\n case _: return 6", "{'h': 4}"),
    ("match v:\n case int(n): return n + 1\n case str(): return 2", "5"),
    ("match v:\n case int(n): return n + 1\n case str(): return 2", "'s'"),
    ("match v:\n case P(w, h=h): return w * h\n case _: return 1", "P(2, 3)"),
    ("match v:\n case P(w=0): return 8\n case P(): return 5", "P(1, 1)"),
]
CLASS_P = "class P:\n    __match_args__ = ('w',)\n    def __init__(self, w, h):\n        self.w, self.h = w, h\n"


@pytest.mark.parametrize("body,value", PICKS)
def test_match_values_are_cpythons(tmp_path: Path, body: str, value: str) -> None:
    pick = CLASS_P + "def pick(v):\n" + textwrap.indent(body, "    ") + "\n"
    space: dict = {}
    exec(pick + f"out = pick({value})\n", space)  # the oracle: CPython itself (plain Python, no torch)
    head = "import torch\n" + pick + f"n = pick({value})\n"
    assert findings(tmp_path, head + f"torch.zeros(n).view({space['out']})\n") == []
    assert findings(tmp_path, head + f"torch.zeros(n).view({space['out'] + 1})\n") == [(len(head.splitlines()) + 1, "PT001")]


def test_coroutines_run_as_their_synchronous_meaning(tmp_path: Path) -> None:
    assert findings(tmp_path, """\
        import asyncio
        import torch
        import torch.nn as nn
        lin = nn.Linear(16, 4)
        async def features(x):
            await asyncio.sleep(0)
            return lin(x)
        async def main():
            async with asyncio.timeout(5):
                return await features(torch.randn(2, 8))
        asyncio.run(main())
        """) == [(7, "PT001")]


def test_skipped_code_is_reached_not_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing in the grammar of this Python is skipped any more: a construct is made skipped (as one
    of a newer Python the interpreter has no `ex_` method for would be) to see it counted."""
    from pytea_ci.interp.patterns import PatternMixin

    monkeypatch.delattr(PatternMixin, "ex_Match")
    entry = tmp_path / "main.py"
    entry.write_text(MATCH_FORWARD)
    result = run([str(entry)], Options(root=str(tmp_path)))
    stats = result.entries[0].stats
    assert stats.ops_checked < stats.ops_reached
    assert any("unsupported construct: Match" in str(o) for o in stats.unknown_origins)


def test_a_coroutine_handed_to_code_not_followed_is_reached_not_checked(tmp_path: Path) -> None:
    """A coroutine given to a task (not modeled) may run there: the operations in its body are reached,
    not checked, with the hand-over as their origin; one only created runs nothing and counts nothing."""
    entry = tmp_path / "main.py"
    entry.write_text(textwrap.dedent("""\
        import asyncio
        import torch
        import torch.nn as nn
        async def step(x):
            return nn.Linear(16, 4)(x)
        async def unused(x):
            return nn.Linear(16, 4)(x)
        async def main():
            task = asyncio.create_task(step(torch.randn(2, 8)))
            coro = unused(torch.randn(2, 8))
            return await task
        asyncio.run(main())
        y = torch.randn(2, 3).sum(0)
        """))
    result = run([str(entry)], Options(root=str(tmp_path)))
    stats = result.entries[0].stats
    assert [d.rule for d in result.diagnostics if d.rule in ("PT001", "PT002")] == []
    assert stats.ops_reached - stats.ops_checked == 2, stats  # the Linear and its call in step(), not in unused()
    assert any("coroutine step() handed to" in str(o) for o in stats.unknown_origins), stats.unknown_origins
