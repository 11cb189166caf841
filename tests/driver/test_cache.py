"""Caches (DESIGN §4): the on-disk solver cache (z3 calls counted), the result cache (cached
findings render exactly as fresh ones), corrupt and foreign entries, two runs at once on one cache
folder, a run killed midway, `cache info` and `cache clear`."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from pytea_ci.cli import main
from pytea_ci.diagnostics.result import RunResult
from pytea_ci.driver import cache
from pytea_ci.driver.check import CheckRequest, check
from pytea_ci.report import get_renderer, sarif, text
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import INPUT, Sym
from pytea_ci.solver import Decider
from pytea_ci.solver.diskcache import DiskQueryCache
from tests.driver.conftest import (
    B_BUG,
    HELPER_BUG,
    cli_subprocess,
    entries,
    run_json,
    write_project,
)


def _decider(folder: Path) -> Decider:
    return Decider(cache=DiskQueryCache(str(folder)), salt="test")


def test_solver_cache_on_disk_skips_z3(tmp_path: Path) -> None:
    n = Sym("n", INPUT, lo=1)
    first = _decider(tmp_path)
    v1 = first.check(P.eq(n % 64, 0), [])
    assert first.stats.z3_calls == 2
    m = Sym("m", INPUT, lo=1)  # another name, same structure: same entry
    second = _decider(tmp_path)
    v2 = second.check(P.eq(m % 64, 0), [])
    assert second.stats.z3_calls == 0 and second.stats.cache_hits == 2
    assert v1.verdict == v2.verdict and set(v2.counterexample) == {"m"}


def test_corrupt_and_foreign_solver_entries_are_misses(tmp_path: Path) -> None:
    n = Sym("n", INPUT, lo=1)
    _decider(tmp_path).check(P.eq(n % 64, 0), [])
    files = [p for p in tmp_path.rglob("*.json")]
    assert len(files) == 2
    files[0].write_text("{not json")
    doc = json.loads(files[1].read_text())
    files[1].write_text(json.dumps({**doc, "format": 999}))
    again = _decider(tmp_path)
    again.check(P.eq(n % 64, 0), [])
    assert again.stats.z3_calls == 2 and again.stats.cache_hits == 0


def _renders(result: RunResult, root: str) -> tuple[str, str, str]:
    body = text.render(result, root).splitlines()[:-1]  # the summary line counts cached entries
    doc = json.loads(get_renderer("json")(result, root))
    for e in doc["entries"]:
        e.pop("cached")
    doc.pop("summary")
    sar = json.loads(sarif.render(result, root))
    sar["runs"][0].pop("invocations", None)
    return "\n".join(body), json.dumps(doc, sort_keys=True), json.dumps(sar, sort_keys=True)


def test_cached_findings_render_identically(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", helper=HELPER_BUG, b=B_BUG)
    fresh = check(CheckRequest(root=str(root), overrides={"jobs": 1}))
    warm = check(CheckRequest(root=str(root), overrides={"jobs": 1}))
    assert fresh.figures.analyzed == 2 and warm.figures.cached == 2 and warm.figures.analyzed == 0
    assert all(e.cached for e in warm.result.entries) and not any(e.cached for e in fresh.result.entries)
    assert len(fresh.result.diagnostics) == 2
    assert _renders(fresh.result, str(root)) == _renders(warm.result, str(root))


def test_library_mode_shapes_survive_the_cache(tmp_path: Path) -> None:
    """A module checked in library mode keeps its contract and layers when answered from the cache (the
    Action's job summary shows them for the changed modules on every run)."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "blocks.py").write_text("import torch.nn as nn\n\n\nclass Mlp(nn.Module):\n    def __init__(self):\n"
                                    "        super().__init__()\n        self.fc = nn.Linear(8, 4)\n\n"
                                    "    def forward(self, x):\n        return self.fc(x)\n")
    request = CheckRequest(root=str(root), paths=[str(root / "blocks.py")], overrides={"jobs": 1})
    fresh, warm = check(request).result, check(request).result
    modules = [(e.cached, e.shapes) for e in (*fresh.entries, *warm.entries) if e.entry == "blocks.py::Mlp"]
    assert [cached for cached, _ in modules] == [False, True]
    (_, first), (_, second) = modules
    assert first is not None and second is not None and first.layers and first.output.endswith("4]")
    assert second.as_dict() == {**first.as_dict(), "findings": []}


def test_corrupt_result_entry_is_a_miss(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", helper=HELPER_BUG)
    run_json(root)
    for f in (root / ".pytea_cache" / "results").rglob("*.json"):
        f.write_text(f.read_text()[:40])
    code, doc = run_json(root)
    assert code == 1 and set(entries(doc).values()) == {False}


def test_analyzer_change_invalidates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = write_project(tmp_path / "p")
    run_json(root)
    monkeypatch.setattr(cache, "analyzer_hash", lambda: "another analyzer")
    _, doc = run_json(root)
    assert set(entries(doc).values()) == {False}


def test_no_cache_writes_nothing(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p")
    code, doc = run_json(root, "--no-cache")
    assert code == 0 and not (root / ".pytea_cache").exists() and len(entries(doc)) == 2


def _project_with_many(tmp_path: Path, count: int) -> Path:
    root = write_project(tmp_path / "many", helper=HELPER_BUG)
    src = (root / "b.py").read_text()
    for i in range(count):
        (root / f"e{i}.py").write_text(src.replace("view(6)", f"view({6 + i % 3})"))
    return root


def _final(p: object) -> tuple[int, dict]:
    out, _err = p.communicate(timeout=120)  # type: ignore[attr-defined]
    doc = json.loads(out)
    return p.returncode, doc  # type: ignore[attr-defined]


def _core(doc: dict) -> list:
    return [(d["rule"], d["path"], d["line"], d["message"]) for d in doc["diagnostics"]]


def test_two_runs_at_once_on_one_cache(tmp_path: Path) -> None:
    root = _project_with_many(tmp_path, 12)
    code, clean = run_json(root, "--no-cache")
    procs = [cli_subprocess(root, "--format", "json", "--jobs", "2") for _ in range(2)]
    outs = [_final(p) for p in procs]
    for rc, doc in outs:
        assert rc == code and _core(doc) == _core(clean)
    rc, doc = run_json(root)
    assert _core(doc) == _core(clean) and set(entries(doc).values()) == {True}


def test_killed_midway_then_rerun(tmp_path: Path) -> None:
    root = _project_with_many(tmp_path, 30)
    code, clean = run_json(root, "--no-cache")
    p = cli_subprocess(root, "--format", "json", "--jobs", "1")
    results = root / ".pytea_cache" / "results"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None:
        if results.is_dir() and sum(1 for _ in results.rglob("*.json")) >= 3:
            break
        time.sleep(0.01)
    p.send_signal(signal.SIGKILL)
    p.communicate()
    rc, doc = run_json(root)
    assert rc == code and _core(doc) == _core(clean)
    assert len(entries(doc)) == len(entries(clean))


def test_cache_info_and_clear(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "p")
    run_json(root)
    run_json(root)
    capsys.readouterr()
    assert main(["cache", "info", "--root", str(root)]) == 0
    out = capsys.readouterr().out
    assert "results: 2 entries" in out and "0 analyzed, 2 from cache" in out and "hit rate 100%" in out
    assert main(["cache", "clear", "--root", str(root)]) == 0
    assert not (root / ".pytea_cache").exists()
    assert main(["cache", "info", "--root", str(root)]) == 0
    assert "does not exist" in capsys.readouterr().out


def test_clear_refuses_a_foreign_folder(tmp_path: Path) -> None:
    folder = tmp_path / "precious"
    folder.mkdir()
    (folder / "thesis.tex").write_text("...")
    assert main(["cache", "clear", "--cache-dir", str(folder)]) == 2
    assert (folder / "thesis.tex").exists()


def test_cache_folder_is_ignored_by_git(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p")
    run_json(root)
    assert (root / ".pytea_cache" / ".gitignore").read_text().strip().endswith("*")
    assert os.path.isfile(root / ".pytea_cache" / "CACHEDIR.TAG")
