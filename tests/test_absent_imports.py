"""Imports of modules the environment does not have (issue 36, transformers 4's T5 and apex): with an
environment the user named (`--python`), a top-level module found neither there, nor in the project,
nor in the standard library, nor among the models raises ModuleNotFoundError as CPython does, so
`try: import apex ... except ImportError:` takes its handler; without a named environment whether the
package is installed is a fact of the machine (both sides followed, what only some machines meet not
reported). An uncaught one ends the path with a PT011 note, never a finding."""

from __future__ import annotations

import json
import venv
from pathlib import Path

import pytest

from pytea_ci.cli import main
from pytea_ci.packages import environment

FALLBACK = '''import torch
from torch import nn
try:
    from fastnorm.layers import FusedLayerNorm as Norm
except ImportError:
    Norm = nn.LayerNorm
x = torch.randn(4, 16)
y = Norm(8)(x)
'''
UNGUARDED = '''import torch
x = torch.randn(4, 16)
y = torch.nn.Linear(16, 2)(x)
import fastnorm
z = torch.nn.Linear(8, 2)(x)
'''
PACKAGE_INIT = '''from torch import nn
try:
    from fastnorm import FusedLayerNorm as Norm
except ImportError:
    Norm = nn.LayerNorm
'''
USES_PACKAGE = '''import torch
import normlib
x = torch.randn(4, 16)
y = normlib.Norm(8)(x)
'''


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A scratch virtualenv (no pip) holding `present` (not followed), `normlib` (followed, with an
    optional import of `fastnorm`), a compiled module and a `.pth` whose import line names `hooked`."""
    folder = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(folder)
    python = str(folder / "bin" / "python")
    site = Path(environment.site_folders(python)[0])
    (site / "present").mkdir()
    (site / "present" / "__init__.py").write_text("")
    (site / "present" / "layers.py").write_text("")
    (site / "normlib").mkdir()
    (site / "normlib" / "__init__.py").write_text(PACKAGE_INIT)
    info = site / "normlib-1.0.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("normlib/__init__.py,,\n")
    (site / "speedy.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF not really")
    (site / "hooks.pth").write_text("import _hooked_finder; _hooked_finder.install('hooked')\n")
    environment.site_folders.cache_clear()
    return python


def _check(root: Path, files: dict[str, str], python: str | None,
           capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    (root / "pyproject.toml").write_text('[tool.pytea-ci]\nfollow-packages = ["normlib"]\n')
    for name, text in files.items():
        (root / name).write_text(text)
    argv = ["check", "--root", str(root), "--no-cache", "--format", "json", *(str(root / n) for n in files)]
    code = main(argv + (["--python", python] if python else []))
    return code, json.loads(capsys.readouterr().out)


def _lines(doc: dict, severity: str) -> list[tuple[str, int]]:
    return [(d["rule"], d["line"]) for d in doc["diagnostics"] if d["severity"] == severity]


def test_named_environment_takes_the_import_error_handler(env: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _check(tmp_path, {"main.py": FALLBACK}, env, capsys)
    assert code == 1 and _lines(doc, "error") == [("PT001", 8)]  # LayerNorm(8) on [4, 16]


def test_without_a_named_environment_the_import_is_a_fact_of_the_machine(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Some machines have the package and some do not: the handler's side is followed too (first), and
    what only the machines without it meet is not reported (the package's `FusedLayerNorm` is not known)."""
    code, doc = _check(tmp_path, {"main.py": FALLBACK}, None, capsys)
    assert code == 0 and not _lines(doc, "error")
    assert doc["entries"][0]["coverage"]["checked"] == 2  # LayerNorm(8) on the handler's side: checked


def test_without_a_named_environment_a_bug_every_machine_meets_is_found(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The fallback (`nn.LayerNorm`) is checked, and a mismatch after it that machines with the package
    meet as well is still an error. On main only the side with the package was followed: its `Norm` not
    known, the fallback's LayerNorm never checked (3 operations checked)."""
    program = FALLBACK.replace("y = Norm(8)(x)", "y = Norm(16)(x)") + "z = x @ torch.randn(8, 2)\n"
    code, doc = _check(tmp_path, {"main.py": program}, None, capsys)
    assert code == 1 and _lines(doc, "error") == [("PT001", 9)]
    assert doc["entries"][0]["coverage"]["checked"] == 4


@pytest.mark.parametrize("module", ["present", "speedy", "hooked", "distutils", "json", "helpers"])
def test_modules_that_may_be_found_stay_unknown(module: str, env: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """In the environment (a package, a compiled module, a name a `.pth` hook may provide), standard
    (also of older Pythons), or a folder of the project (a namespace package): not raised."""
    (tmp_path / "helpers").mkdir()
    code, doc = _check(tmp_path, {"main.py": FALLBACK.replace("fastnorm.layers", f"{module}.layers")}, env, capsys)
    assert code == 0 and not _lines(doc, "error"), module


def test_a_module_the_named_environment_has_is_no_fact_of_the_machine(env: str, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`try: from present.layers import ...` in an environment that has `present/layers.py` (not followed): the
    import finds it, so the handler's side is not followed (one path; on main the machine without it was a
    second path: timm's optional `huggingface_hub` and `safetensors` imports tripled its paths). A submodule
    the environment has no file for (`present.other`) stays a fact of the machine."""
    program = FALLBACK.replace("fastnorm.layers", "present.layers")
    code, doc = _check(tmp_path, {"main.py": program}, env, capsys)
    assert code == 0 and not _lines(doc, "error") and doc["entries"][0]["stats"]["paths"] == 1
    code, doc = _check(tmp_path, {"main.py": program.replace("present.layers", "present.other")}, env, capsys)
    assert code == 0 and not _lines(doc, "error") and doc["entries"][0]["stats"]["paths"] == 2


def test_a_changed_sys_path_may_find_anything(env: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = FALLBACK.replace("try:", "import sys\nsys.path.insert(0, 'vendor')\ntry:", 1)
    code, doc = _check(tmp_path, {"main.py": program}, env, capsys)
    assert code == 0 and not _lines(doc, "error")


def test_unguarded_import_ends_the_path_with_a_note(env: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The Linear after the import (a mismatch) is never reached by CPython: no finding, one note."""
    code, doc = _check(tmp_path, {"main.py": UNGUARDED}, env, capsys)
    assert code == 0 and not _lines(doc, "error") and not _lines(doc, "warning")
    notes = [d for d in doc["diagnostics"] if d["severity"] == "note"]
    assert [(d["rule"], d["line"]) for d in notes] == [("PT011", 4)] and "import fastnorm" in notes[0]["message"]
    ended = doc["entries"][0]["ended_paths"]
    assert [(e["kind"], e["line"]) for e in ended] == [("exception", 4)]
    assert doc["entries"][0]["coverage"]["checked"] == 2


def test_optional_import_inside_a_followed_package(env: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _check(tmp_path, {"main.py": USES_PACKAGE}, env, capsys)
    assert code == 1 and _lines(doc, "error") == [("PT001", 4)]


def test_present_names_lists_what_an_import_can_find(env: str) -> None:
    names = set(environment.present_names(environment.site_folders(env)))
    assert {"present", "normlib", "speedy", "hooked", "_hooked_finder"} <= names
    assert "fastnorm" not in names and "normlib-1" not in names


FIND_SPEC = '''import importlib.util
import torch
if importlib.util.find_spec("NAME") is None:
    y = torch.nn.Linear(8, 2)(torch.randn(4, 16))
'''


@pytest.mark.parametrize("name, named, found", [("fastnorm", True, True), ("fastnorm.ops", True, True),
                                                ("present", True, False), ("torch", True, False),
                                                ("fastnorm", False, False)])
def test_find_spec_answers_for_the_named_environment(name: str, named: bool, found: bool, env: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`find_spec` of a module the environment lacks is None, so the branch is taken (an error, not a
    guess); of one it may have, unknown (no finding on the branch)."""
    code, doc = _check(tmp_path, {"main.py": FIND_SPEC.replace("NAME", name)}, env if named else None, capsys)
    assert (_lines(doc, "error") == [("PT001", 4)]) is found, doc["diagnostics"]


def test_torch_has_a_spec_and_the_modeled_version(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The analysis takes torch as installed (its models stand for it): `is_torch_available()` of a
    package is decided, with or without a named environment."""
    program = '''import importlib.metadata
import importlib.util
import torch
if importlib.util.find_spec("torch") is not None and importlib.metadata.version("torch").startswith("2."):
    y = torch.nn.Linear(8, 2)(torch.randn(4, 16))
'''
    code, doc = _check(tmp_path, {"main.py": program}, None, capsys)
    assert _lines(doc, "error") == [("PT001", 5)], doc["diagnostics"]


def test_a_project_module_whose_import_stops_says_why(env: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A module of the project importing a package the environment lacks raises while it is imported;
    what it defined before stays usable, the rest is code not followed (kind `import`, the path goes on),
    and a name defined after the failing line is a value not understood that names the cause — on main
    the rest of the module was dropped silently (an origin `layers.Later` and no line about it)."""
    (tmp_path / "layers.py").write_text("import torch\n\nclass Early(torch.nn.Linear):\n    pass\n\n"
                                        "import fastnorm\n\nclass Later(torch.nn.Linear):\n    pass\n")
    (tmp_path / "main.py").write_text("import torch\nfrom layers import Early, Later\nx = torch.randn(4, 16)\n"
                                      "y = Early(16, 2)(x)\nz = Later(16, 2)(x)\n")
    code = main(["check", "--root", str(tmp_path), "--no-cache", "--format", "json", "--library-mode", "never",
                 "--python", env, str(tmp_path / "main.py")])
    doc = json.loads(capsys.readouterr().out)
    entry = doc["entries"][0]
    assert code == 0 and entry["coverage"]["checked"] == 2
    assert [(e["kind"], e["path"], e["line"]) for e in entry["ended_paths"]] == [("import", "layers.py", 6)]
    assert "ModuleNotFoundError raised by `import fastnorm`" in entry["ended_paths"][0]["reason"]
    assert any("layers.Later, not defined: its import stopped" in o["what"] for o in entry["unknown_origins"])
