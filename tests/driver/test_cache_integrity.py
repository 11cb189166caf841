"""Cache integrity (issue 7): garbage and truncated entries, a cache folder that is a file, a
missing parent, a full disk, and many processes writing the same entries — never a crash, never a
different answer from `--no-cache`."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from pytea_ci.solver import diskcache
from tests.driver.conftest import HELPER_BUG, cli_subprocess, run_json, write_project


def _core(doc: dict) -> list:
    return [(d["rule"], d["path"], d["line"], d["message"]) for d in doc["diagnostics"]]


@pytest.fixture()
def project(tmp_path: Path) -> tuple[Path, list]:
    root = write_project(tmp_path / "p", helper=HELPER_BUG)
    code, clean = run_json(root, "--no-cache")
    assert code == 1 and clean["diagnostics"]
    return root, _core(clean)


def test_garbage_and_truncated_entries(project: tuple[Path, list]) -> None:
    root, clean = project
    run_json(root)
    files = [p for p in (root / ".pytea_cache").rglob("*") if p.is_file() and p.suffix == ".json"]
    assert files
    for i, p in enumerate(files):
        p.write_bytes(b"\x00\xff garbage" if i % 2 else p.read_bytes()[: max(1, p.stat().st_size // 2)])
    code, doc = run_json(root)
    assert code == 1 and _core(doc) == clean


def test_cache_dir_that_is_a_file(project: tuple[Path, list]) -> None:
    root, clean = project
    blocker = root / "not-a-dir"
    blocker.write_text("x")
    code, doc = run_json(root, "--cache-dir", str(blocker))
    assert code == 1 and _core(doc) == clean


def test_cache_dir_with_missing_parents(project: tuple[Path, list]) -> None:
    root, clean = project
    code, doc = run_json(root, "--cache-dir", str(root / "a" / "b" / "c"))
    assert code == 1 and _core(doc) == clean


def test_full_disk(project: tuple[Path, list], monkeypatch: pytest.MonkeyPatch) -> None:
    root, clean = project

    def no_space(path: str, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(diskcache, "atomic_write", no_space)
    from pytea_ci.driver import cache

    monkeypatch.setattr(cache, "atomic_write", no_space)
    code, doc = run_json(root)
    assert code == 1 and _core(doc) == clean


def test_many_processes_write_the_same_entries(project: tuple[Path, list]) -> None:
    root, clean = project
    procs = [cli_subprocess(root, "--format", "json", "--jobs", "1") for _ in range(5)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 1, err
        assert _core(json.loads(out)) == clean
    code, doc = run_json(root)
    assert code == 1 and _core(doc) == clean
