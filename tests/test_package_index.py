"""Names of a lazily exporting installed package resolved from its source (issue 36 item 1,
`packages/index.py`): `lazylib` exports through a PEP 562 module `__getattr__` whose mapping is computed
at run time (as transformers 5 and diffusers do), so running its `__init__` binds nothing; the index
finds the one module that defines the name, prefers the module its `TYPE_CHECKING` imports name over a
copy elsewhere, and leaves a name two modules define equally unknown, naming both."""

from __future__ import annotations

import json
import venv
from pathlib import Path

import pytest

from pytea_ci.cli import main
from pytea_ci.packages import environment, index

INIT = '''import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .heads.wide import *

def __getattr__(name):
    return getattr(importlib.import_module("." + _where(name), __name__), name)
'''
HEAD = '''from torch import nn


class {cls}(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear({width}, 4)

    def forward(self, x):
        return self.fc(x)
'''
PROGRAM = '''import torch
from lazylib import {cls}

head = {cls}()
y = head(torch.randn(2, 16))
'''


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(folder)
    python = str(folder / "bin" / "python")
    environment.site_folders.cache_clear()
    site = Path(environment.site_folders(python)[0])
    pkg = site / "lazylib"
    (pkg / "heads").mkdir(parents=True)
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "heads" / "__init__.py").write_text("")
    (pkg / "heads" / "narrow.py").write_text(HEAD.format(cls="Narrow", width=8) + HEAD.format(cls="Twice", width=8))
    (pkg / "heads" / "wide.py").write_text(HEAD.format(cls="Wide", width=16) + HEAD.format(cls="Twice", width=16))
    (pkg / "heads" / "copy.py").write_text(HEAD.format(cls="Wide", width=8))
    (pkg / "heads" / "other.py").write_text(HEAD.format(cls="Both", width=8))
    (pkg / "heads" / "more.py").write_text(HEAD.format(cls="Both", width=16))
    info = site / "lazylib-0.1.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("lazylib/__init__.py,,\n")
    (info / "top_level.txt").write_text("lazylib\n")
    environment.site_folders.cache_clear()
    index._TABLES.clear()
    return python


def _check(tmp_path: Path, python: str, cls: str, capsys: pytest.CaptureFixture[str]) -> dict:
    (tmp_path / "pyproject.toml").write_text('[tool.pytea-ci]\nfollow-packages = ["lazylib"]\n')
    (tmp_path / "main.py").write_text(PROGRAM.format(cls=cls))
    main(["check", "--root", str(tmp_path), "--no-cache", "--format", "json", "--python", python,
          str(tmp_path / "main.py")])
    return json.loads(capsys.readouterr().out)


def _errors(doc: dict) -> list[tuple[str, int]]:
    return [(d["rule"], d["line"]) for d in doc["diagnostics"] if d["severity"] == "error"]


def test_the_one_module_defining_a_lazy_name_is_followed(env: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    doc = _check(tmp_path, env, "Narrow", capsys)  # Linear(8, 4) on 16 features
    assert _errors(doc) == [("PT001", 5)], doc["diagnostics"]


def test_the_type_checking_import_decides_between_copies(env: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    doc = _check(tmp_path, env, "Wide", capsys)  # heads.wide (named under TYPE_CHECKING): 16 wide, clean
    assert _errors(doc) == [] and doc["entries"][0]["coverage"]["ratio"] == 1.0, doc
    doc = _check(tmp_path, env, "Twice", capsys)  # defined in two modules, the star-imported one is 16 wide
    assert _errors(doc) == [] and doc["entries"][0]["coverage"]["ratio"] == 1.0, doc


def test_a_name_two_modules_define_equally_is_unknown_naming_both(env: str, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    doc = _check(tmp_path, env, "Both", capsys)
    assert _errors(doc) == []
    whats = " ".join(o["what"] for o in doc["entries"][0]["unknown_origins"])
    assert "lazylib.heads.more" in whats and "lazylib.heads.other" in whats, whats


def test_the_cached_index_is_read_by_name_and_a_damaged_row_answers_nothing(tmp_path: Path) -> None:
    """A run asks a few names of an index of tens of thousands: the cached file's rows are checked and
    converted for the names asked, and a damaged row is no answer (never a crash)."""
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "a.py").write_text("class A:\n    pass\n")
    (root / "sub" / "b.py").write_text("class B:\n    pass\n")
    cache = str(tmp_path / "cache")
    index._TABLES.clear()
    assert index.lookup(str(root), "pkg", "1", cache, "pkg", "A") == index.Found("pkg.sub.a")
    [path] = list((tmp_path / "cache" / "index").glob("*/*.json"))
    doc = json.loads(path.read_text())
    doc["names"]["B"] = [["pkg.sub.b"]]  # a row without its flags
    path.write_text(json.dumps(doc))
    index._TABLES.clear()
    assert index.lookup(str(root), "pkg", "1", cache, "pkg", "A") == index.Found("pkg.sub.a")
    assert index.lookup(str(root), "pkg", "1", cache, "pkg", "B") is None
    assert isinstance(index._TABLES[str(root)]["A"], list)  # as read: converted only when asked
    index._TABLES.clear()
