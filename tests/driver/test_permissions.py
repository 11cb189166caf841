"""Files pytea-ci writes (cache entries, baselines, SARIF) get the usual permissions (0644 files and
0755 folders under the usual umask), not mkstemp's 0600: a later CI step running as another user
(actions/cache saving the cache, an upload) must be able to read them."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pytea_ci.cli import main
from tests.driver.conftest import B_BUG, write_project

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_cache_baseline_and_sarif_are_readable_by_others(tmp_path: Path) -> None:
    if _umask() != 0o022:
        pytest.skip("the expected modes below assume the usual umask 022")
    root = write_project(tmp_path / "p", b=B_BUG)
    saved = os.getcwd()
    os.chdir(root)
    try:
        main(["check", "--root", str(root), "--format", "sarif", "--output", "out.sarif", "--jobs", "1"])
        main(["baseline", "write", "--root", str(root)])
    finally:
        os.chdir(saved)
    written = [root / "out.sarif", root / "pytea-ci-baseline.json"]
    cache = root / ".pytea_cache"
    folders = [cache, *(p for p in cache.rglob("*") if p.is_dir())]
    written += [p for p in cache.rglob("*") if p.is_file()]
    assert len(written) > 4 and len(folders) > 1
    modes = {str(p.relative_to(root)): stat.S_IMODE(p.stat().st_mode) for p in written}
    assert {k: oct(v) for k, v in modes.items() if v != 0o644} == {}
    dir_modes = {str(p.relative_to(root)): stat.S_IMODE(p.stat().st_mode) for p in folders}
    assert {k: oct(v) for k, v in dir_modes.items() if v != 0o755} == {}
