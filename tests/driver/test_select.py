"""Entry-point discovery, file arguments (what pre-commit passes), the import graph, shards,
`--jobs` determinism and progress (terminal only)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pytea_ci.driver import progress
from pytea_ci.driver.imports_graph import ImportCache, ImportGraph, parse_imports
from tests.driver.conftest import HELPER_BUG, entries, findings, run_json, write_project


def test_discovery_finds_torch_programs_only(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p")
    (root / ".venv").mkdir()
    (root / ".venv" / "x.py").write_text("import torch\nif __name__ == '__main__':\n    pass\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_a.py").write_text("import torch\n\ndef test_x():\n    pass\n")
    (root / "script.py").write_text("from helper import make\nmake()\n")  # torch through a project module
    _code, doc = run_json(root)
    assert sorted(entries(doc)) == ["a.py", "b.py", "script.py"]


def test_file_arguments_map_modules_to_their_entry_points(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", helper=HELPER_BUG)
    assert list(entries(run_json(root, "helper.py")[1])) == ["a.py"]
    assert sorted(entries(run_json(root, "helper.py", "b.py", "a.py")[1])) == ["a.py", "b.py"]
    # called several times with parts of the list (as pre-commit does), the union is the same
    parts = [entries(run_json(root, f)[1]) for f in ("helper.py", "b.py")]
    assert sorted(k for p in parts for k in p) == ["a.py", "b.py"]


def test_directory_argument(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p")
    sub = write_project(root / "sub", helper=HELPER_BUG)
    code, doc = run_json(root, str(sub))
    assert sorted(entries(doc)) == ["sub/a.py", "sub/b.py"] and code == 1
    assert findings(doc) == [("PT001", "sub/a.py", 7)]


def test_import_graph_relative_package_and_dynamic_imports(tmp_path: Path) -> None:
    root = tmp_path / "g"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from .core import f\n")
    (root / "pkg" / "core.py").write_text("from .sub import deep\n")
    (root / "pkg" / "sub" / "__init__.py").write_text("")
    (root / "pkg" / "sub" / "deep.py").write_text("from ..core import f\n")
    (root / "dyn.py").write_text("X = 1\n")
    (root / "main.py").write_text("import importlib\nimport pkg\nm = importlib.import_module('dyn')\n")
    graph = ImportGraph(str(root), ImportCache(None))
    closure = graph.closure(str(root / "main.py"))
    names = sorted(os.path.relpath(p, root) for p in closure.files)
    assert names == ["dyn.py", "main.py", "pkg/__init__.py", "pkg/core.py", "pkg/sub/__init__.py", "pkg/sub/deep.py"]
    rev = graph.reverse([str(root / "main.py")])
    assert rev[str(root / "pkg" / "core.py")] == {str(root / "pkg" / "__init__.py"), str(root / "pkg" / "sub" / "deep.py")}
    assert graph.affected([str(root / "main.py")], {str(root / "pkg" / "sub" / "deep.py")}) == [str(root / "main.py")]
    assert graph.affected([str(root / "main.py")], {str(root / "pkg" / "missing.py")}) == []
    # a module that does not exist yet is a candidate: creating it changes the closure
    assert graph.affected([str(root / "main.py")], {str(root / "importlib.py")}) == [str(root / "main.py")]


def test_import_cache_by_content_hash(tmp_path: Path) -> None:
    cache = ImportCache(str(tmp_path))
    f = tmp_path / "m.py"
    f.write_text("import a.b\nfrom . import c\n")
    digest, imps = cache.imports(str(f))
    assert imps == parse_imports(f.read_bytes()) and (0, "a.b") in imps and (1, "c") in imps
    cache.save()
    again = ImportCache(str(tmp_path))
    assert again.data[digest]["i"] == [list(x) for x in imps] and not again.dirty


def test_shards_partition_the_entry_points(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p")
    for i in range(8):
        (root / f"e{i}.py").write_text((root / "b.py").read_text())
    every = set(entries(run_json(root)[1]))
    shards = [set(entries(run_json(root, "--shard", f"{k}/3")[1])) for k in (1, 2, 3)]
    assert set().union(*shards) == every and sum(map(len, shards)) == len(every)
    (root / "zz_new.py").write_text((root / "b.py").read_text())  # adding one moves no one else
    after = [set(entries(run_json(root, "--shard", f"{k}/3")[1])) - {"zz_new.py"} for k in (1, 2, 3)]
    assert after == shards


@pytest.mark.parametrize("bad", ["0/3", "4/3", "x/2", "3"])
def test_bad_shard_is_a_usage_error(tmp_path: Path, bad: str) -> None:
    root = write_project(tmp_path / "p")
    with pytest.raises(SystemExit) as e:
        run_json(root, "--shard", bad)
    assert e.value.code == 2


def test_jobs_output_identical_to_one_job(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", helper=HELPER_BUG)
    for i in range(6):
        (root / f"e{i}.py").write_text((root / "b.py").read_text().replace("view(6)", f"view({5 + i})"))

    def strip(doc: dict) -> str:
        doc["summary"].pop("seconds")
        for e in doc["entries"]:
            e["stats"].pop("seconds"), e["stats"].pop("z3_seconds")
        return json.dumps(doc, sort_keys=True)

    one = strip(run_json(root, "--no-cache", "--jobs", "1")[1])
    many = strip(run_json(root, "--no-cache", "--jobs", "3")[1])
    assert one == many


def test_progress_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Fake:
        def __init__(self, tty: bool) -> None:
            self.tty, self.text = tty, ""

        def isatty(self) -> bool:
            return self.tty

        def write(self, s: str) -> None:
            self.text += s

        def flush(self) -> None:
            pass

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr("sys.stderr", Fake(False))
    assert progress.for_stderr() is None
    tty = Fake(True)
    monkeypatch.setattr("sys.stderr", tty)
    p = progress.for_stderr()
    assert p is not None
    p(1, 2, "a.py")
    p.close()
    assert "[1/2] a.py" in tty.text
    monkeypatch.setenv("CI", "true")
    assert progress.for_stderr() is None
