"""Loops whose end the data decides, followed a few iterations and then cut (interp/loops.py): a `while True:`
rejection loop left by a `break` the data decides, and an endless generator loop consumed lazily. Before,
both ran to the loop iterations budget (a PT011 note, the steps of the entry point spent there)."""

from __future__ import annotations

import os

import pytest

from pytea_ci.driver.run import Options, run

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "core")


@pytest.mark.parametrize("name", ["rejection_sampling.py", "endless_generator.py"])
def test_the_loop_is_cut_not_run_to_the_budget(name: str) -> None:
    result = run([os.path.join(FIXTURES, name)], Options(root=FIXTURES, strict=True))
    notes = [d.message for d in result.diagnostics if d.rule == "PT011"]
    assert not notes, notes
    assert [d.rule for d in result.diagnostics] == ["PT001"]
    (entry,) = result.entries
    # two paths leave a rejection loop (its first break, the cut one): 2 ** 4 for four draws
    assert entry.stats.paths <= 16 and entry.stats.ops_reached == entry.stats.ops_checked
