"""Environment reads while a project module is imported (issue 12): one unknown string each, no
fork, so settings read in module bodies do not multiply the paths; in the program's own code a
read with a default still forks into the default and an unknown string (tests/fixtures/core/machine_env.py)."""

from __future__ import annotations

import os

from pytea_ci.driver.run import Options, run

ENTRY = os.path.join(os.path.dirname(__file__), "fixtures", "imports", "env_at_import.py")


def test_environment_reads_at_import_time_do_not_fork() -> None:
    result = run([ENTRY], Options(root=os.path.dirname(ENTRY), strict=True))
    entry = result.entries[0]
    assert entry.stats.paths == 2  # the program's own branch, both ways (five reads at import: 64 before)
    assert [(d.span.line, d.rule) for d in entry.diagnostics] == [(17, "PT001")]
