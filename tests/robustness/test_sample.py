"""Zero internal errors, guarded (issue 24): a fixed sample of the standard library, each file analyzed as
an entry point under a small deterministic budget, must give no internal error. The full sweep
(`benchmarks/robustness.py`, every file of the stdlib and of site-packages) is the benchmark; this sample
is what CI runs, so a crash that comes back fails the build instead of regressing unseen."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

from pytea_ci.driver.run import Options, run
from pytea_ci.interp.budget import Budget

SAMPLE = Path(__file__).with_name("stdlib_sample.txt")
STDLIB = Path(sysconfig.get_paths()["stdlib"])
# small enough for CI (the crashes seen so far happened while importing, within the first steps)
BUDGET = Budget(paths=4, entry_steps=20_000, steps=20_000)


def sample() -> list[Path]:
    names = [line.strip() for line in SAMPLE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    return [STDLIB / n for n in names]


def internal_errors(files: list[Path]) -> list[str]:
    """`path: error` for every file whose analysis failed inside the analyzer (the runner of the sample)."""
    out = []
    for f in files:
        result = run([str(f)], Options(root=str(f.parent), budget=BUDGET, solver_timeout_ms=200))
        out += [f"{f}: {e.error}" for e in result.entries if e.status == "internal-error"]
    return out


def test_the_sample_is_mostly_present_on_this_python() -> None:
    """Stdlib files come and go between Python versions; most of the sample must exist, or it guards nothing."""
    files = sample()
    present = [f for f in files if f.is_file()]
    assert len(files) >= 250 and len(present) >= 0.8 * len(files), (len(present), len(files))


def test_no_internal_error_on_the_stdlib_sample() -> None:
    files = [f for f in sample() if f.is_file()]
    errors = internal_errors(files)
    assert not errors, "\n".join(errors)


def test_the_runner_reports_an_analyzer_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deliberately broken import (star imports raise) is caught by the runner: the guard can fail."""
    from pytea_ci.interp.imports import ImportMixin

    def broken(self: object, mod: object, scope: object) -> None:
        raise AttributeError("'Unknown' object has no attribute 'startswith'")

    monkeypatch.setattr(ImportMixin, "star_import", broken)
    (tmp_path / "consts.py").write_text("A = 1\n")
    (tmp_path / "main.py").write_text("from consts import *\nprint(A)\n")
    errors = internal_errors([tmp_path / "main.py"])
    assert len(errors) == 1 and errors[0].startswith(
        f"{tmp_path / 'main.py'}: internal error: AttributeError: 'Unknown' object has no attribute 'startswith' "
        "(at test_sample.py:")
