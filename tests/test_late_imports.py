"""Top-level imports of a followed package that its module's code reads only inside functions run when one
of their names is first read (issue 36 item 3, `packages/lazy.py` "late imports"): a package module that
imports a heavy module for one function the program never calls (transformers 5's `modeling_layers`
imports `AutoModel`, whose import rewrites the docstrings of every auto class) does not spend the package's
budget on it; a name read by a call the program makes is imported then, as written; a name that is also
the name of a submodule is the imported value, not the submodule; a module that reads its own namespace,
or reads the name while it is imported, runs its imports as written."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytea_ci.cli import main
from pytea_ci.packages import lazy
from tests.scratch_site import scratch_site, write_package

INIT = '''from .layers import Head, auto_head
from .decorate import decorate
'''
LAYERS = '''from torch import nn

from .auto import AutoHead
from .sizes import width_of
from .decorate import decorate


@decorate
class Head(nn.Module):
    def __init__(self, name):
        super().__init__()
        self.fc = nn.Linear(width_of(name), 4)

    def forward(self, x):
        return self.fc(x)


def auto_head(name):
    return AutoHead(name)
'''
AUTO = '''TABLE = {}
i = 0
while i < 4000:  # an import that spends more than the package's budget (docstrings rewritten, registries)
    TABLE["k" + str(i)] = "v" + str(i)
    i += 1


class AutoHead:
    def __init__(self, name):
        self.name = TABLE["k0"] + name
'''
SIZES = '''WIDTHS = {"small": 8, "wide": 16}


def width_of(name):
    return WIDTHS[name]
'''
DECORATE = '''def decorate(cls):
    cls.decorated = True
    return cls
'''
EXTRA = '''from latelib import Head

SMALL = Head


def make(size):
    return SMALL(size)
'''
TWO_IMPORTS = '''import torch
import latelib
import latelib.extra

head = latelib.extra.make("small")
y = head(torch.randn(2, 16))
'''
REPO = str(Path(__file__).resolve().parents[1])  # the code under test, whatever is installed
RUN = '''
import json, sys
from pytea_ci.cli import main
from pytea_ci.packages import disk, kept
code = main(sys.argv[1:])
print(json.dumps({"disk": disk.STATS, "kept": kept.STATS}), file=sys.stderr)
'''
PROGRAM = '''import torch
from latelib import Head, decorate

head = decorate(Head("{size}"))
y = head(torch.randn(2, 16))
'''


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> str:
    python, site = scratch_site(tmp_path_factory)
    write_package(site, "latelib", {"__init__.py": INIT, "layers.py": LAYERS, "auto.py": AUTO, "sizes.py": SIZES,
                                    "extra.py": EXTRA, "decorate/__init__.py": "from .decorate import decorate\n",
                                    "decorate/decorate.py": DECORATE}, version="0.1")
    return python


def _check(tmp_path: Path, python: str, size: str, capsys: pytest.CaptureFixture[str]) -> dict:
    (tmp_path / "pyproject.toml").write_text('[tool.pytea-ci]\nfollow-packages = ["latelib"]\npackage-budget = 0.5\n')
    (tmp_path / "main.py").write_text(PROGRAM.format(size=size))
    main(["check", "--root", str(tmp_path), "--no-cache", "--format", "json", "--python", python,
          str(tmp_path / "main.py")])
    return json.loads(capsys.readouterr().out)


def _findings(doc: dict) -> list[tuple[str, str, int]]:
    return [(d["rule"], d["severity"], d["line"]) for d in doc["diagnostics"]]


def test_an_import_read_only_by_a_function_not_called_is_not_run(env: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """`auto` would spend the package's budget (main: the import of latelib was cut, Head not known, a PT011
    note and no finding); the program never calls `auto_head`, so it never runs."""
    doc = _check(tmp_path, env, "small", capsys)  # Linear(8, 4) on 16 features
    assert _findings(doc) == [("PT001", "error", 5)], doc["diagnostics"]
    assert doc["entries"][0]["coverage"]["ratio"] == 1.0


def test_a_name_a_call_reads_is_imported_then_and_the_twin_is_clean(env: str, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    doc = _check(tmp_path, env, "wide", capsys)  # width_of("wide") = 16: read in Head.__init__, imported then
    assert _findings(doc) == [] and doc["entries"][0]["coverage"]["ratio"] == 1.0, doc


def test_an_import_binding_a_late_name_of_a_module_loaded_before_is_kept_on_disk(env: str, tmp_path: Path) -> None:
    """`import latelib.extra` reads `latelib.Head`, whose import `latelib` left for its first read: the
    name is bound in `latelib`, loaded by an import before it. Replayable all the same (a restored import
    leaves it unbound, and `latelib` binds it again when read): a second process restores both imports
    from the cache folder, imports nothing cold, and gives the same report (main: `latelib.extra` is
    imported cold by every process, its import not kept)."""
    (tmp_path / "pyproject.toml").write_text('[tool.pytea-ci]\nfollow-packages = ["latelib"]\npackage-budget = 0.5\n')
    (tmp_path / "main.py").write_text(TWO_IMPORTS)
    argv = ["check", "--root", str(tmp_path), "--cache-dir", str(tmp_path / "cache"), "--python", env, "--format",
            "json", "--jobs", "1", "main.py"]
    runs = []
    for _ in range(2):
        for sub in ("results", "replay"):
            for root, _dirs, files in os.walk(tmp_path / "cache" / sub):
                for f in files:
                    os.remove(os.path.join(root, f))
        p = subprocess.run([sys.executable, "-c", RUN, *argv], capture_output=True, text=True, cwd=tmp_path,
                           env={**{k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"},
                                "PYTHONPATH": os.pathsep.join([REPO, *filter(None, [os.environ.get("PYTHONPATH")])])})
        assert p.returncode in (0, 1), p.stderr
        runs.append((json.loads(p.stdout), json.loads(p.stderr.strip().splitlines()[-1])))
    (cold, cold_did), (warm, warm_did) = runs
    assert _findings(cold) == [("PT001", "error", 6)], cold["diagnostics"]
    assert cold_did["kept"]["kept"] == 2 and cold_did["disk"]["saved"] == 2, cold_did
    assert warm_did["kept"]["kept"] == 0 and warm_did["disk"]["loaded"] == 2, warm_did
    assert _findings(warm) == _findings(cold)
    assert warm["entries"][0]["stats"]["steps"] == cold["entries"][0]["stats"]["steps"]


def _late_names(source: str) -> set[str]:
    found = lazy._late(ast.parse(source))
    return set(found.by_name) if found is not None else set()


def test_which_imports_are_late() -> None:
    assert _late_names("from .a import f, g\nfrom .b import C\nimport json\nimport os.path\n"
                       "def use():\n    return f(g, C, json, os)\n") == {"f", "g", "C", "json"}
    # read at import time: a class body, a decorator, a default, an annotation, a top-level call
    assert _late_names("from .a import A, B, D, E, F\nclass K(A):\n    x = B\n@D\ndef f(y=E) -> F:\n    pass\n") == set()
    assert _late_names("from .a import f\nX = f()\n") == set()
    # bound again (a fallback, a `global` in a function, `del`) or the module reads its namespace
    assert _late_names("from .a import f\ntry:\n    from .b import f\nexcept ImportError:\n    pass\n"
                       "def g():\n    return f\n") == set()
    assert _late_names("from .a import f\ndef g():\n    global f\n    f = 1\n") == set()
    assert _late_names("from .a import f\ndef g():\n    return f\ndef h():\n    return globals()\n") == set()
    assert _late_names("from .a import f\ndef g():\n    return f\ndef __getattr__(name):\n    return name\n") == set()
    assert _late_names("from .a import *\nfrom .b import f\ndef g():\n    return f\n") == set()
