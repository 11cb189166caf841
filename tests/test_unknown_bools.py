"""`not v`, `v is None` of a value not understood are bools, and `True | b` / `False & b` of such a
bool are decided (tests/fixtures/real/unknown_bools.py): the flags derived from them do not fork."""

from __future__ import annotations

import os

from pytea_ci.driver.run import Options, run

ENTRY = os.path.join(os.path.dirname(__file__), "fixtures", "real", "unknown_bools.py")


def test_flags_or_ed_with_unknown_bools_are_decided() -> None:
    entry = run([ENTRY], Options(root=os.path.dirname(ENTRY), strict=True)).entries[0]
    # the program's own `len(sys.argv) > 1` branch, and the second call's flag (False | not exists(...)
    # is not known): 4; the first call's True | ... is decided (22 paths when it was not)
    assert entry.stats.paths == 4
    assert [(d.span.line, d.rule) for d in entry.diagnostics] == [(40, "PT001")]
