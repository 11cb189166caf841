"""Installed packages read from source (issue 21): a hand-written package installed into a scratch
virtualenv is followed like project code under its own budget, never imported; modeled libraries keep
their models; compiled extensions, packages not followed and budget cuts stay unknown with the
package named; what a package's import leaves is shared by the paths and entry points of a process
without changing any result."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from pytea_ci.cli import main
from pytea_ci.packages import environment

BACKBONE = '''
import torch
from torch import nn

WIDTHS = {"small": 256, "base": 768}


class Backbone(nn.Module):
    def __init__(self, width=256, num_classes=0):
        super().__init__()
        self.num_features = width
        self.stem = nn.Conv2d(3, width, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(width, num_classes) if num_classes > 0 else nn.Identity()

    def forward(self, x):
        x = self.pool(self.stem(x)).flatten(1)
        return self.head(x)


def create_model(name, num_classes=0):
    return Backbone(WIDTHS[name], num_classes)


def spin(n):
    total = 0
    for i in range(n):
        for j in range(n):
            for k in range(n):
                total += i * j + k
    return Backbone(total % 7 + 1)
'''

LAZY_INIT = '''
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Backbone, create_model
    from .models import spin
else:
    sys.modules[__name__] = object()  # a lazy module object (transformers' _LazyModule)
'''

HEAVY = '''
from fakelib.models import Backbone, spin

TABLE = [spin(9) for _ in range(2)]  # work at import time (transformers rewrites docstrings there)


def build(width):
    spin(9)
    spin(9)
    return Backbone(width)
'''

BAD = '''import torch
from torch import nn
import fakelib

model = fakelib.create_model("base")
head = nn.Linear(512, 10)
x = torch.randn(8, 3, 32, 32)
y = head(model(x))
'''
GOOD = BAD.replace("nn.Linear(512, 10)", "nn.Linear(model.num_features, 10)")
INSIDE = '''import torch
import fakelib

model = fakelib.create_model("small", num_classes=10)
x = torch.randn(8, 5, 32, 32)
y = model(x)
'''


def _purelib(python: str) -> Path:
    return Path(environment.site_folders(python)[0])


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A scratch virtualenv (no pip) with `fakelib` installed as source files, and a compiled-looking
    extension module in it; returns its interpreter."""
    folder = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(folder)
    python = str(folder / "bin" / "python")
    site = _purelib(python)
    pkg = site / "fakelib"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(LAZY_INIT)
    (pkg / "models.py").write_text(BACKBONE)
    (pkg / "heavy.py").write_text(HEAVY)
    (pkg / "_speedups.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF not really")
    info = site / "fakelib-1.2.3.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("fakelib/__init__.py,,\nfakelib/models.py,,\nfakelib/heavy.py,,\n")
    (info / "top_level.txt").write_text("fakelib\n")
    environment.site_folders.cache_clear()
    return python


def _project(tmp_path: Path, files: dict[str, str], config: str = 'follow-packages = ["fakelib"]\n') -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.pytea-ci]\n" + config)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def _check(root: Path, python: str | None, *names: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    argv = ["check", "--root", str(root), "--no-cache", "--format", "json",
            *(str(root / n) if n.endswith(".py") else n for n in names)]
    if python is not None:
        argv += ["--python", python]
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def _diagnostics(doc: dict, entry: str | None = None) -> list[dict]:
    return [d for d in doc["diagnostics"] if entry is None or d["entry"] == entry]


def _findings(doc: dict) -> list[tuple[str, str, int]]:
    return [(d["rule"], d["path"], d["line"]) for d in _diagnostics(doc)]


def _coverage(doc: dict, entry: str) -> float:
    e = next(e for e in doc["entries"] if e["entry"] == entry)
    return float(e["coverage"]["ratio"])


def test_wrong_head_found_at_the_line_and_twin_clean(env: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, {"bad.py": BAD, "good.py": GOOD})
    code, doc = _check(root, env, "bad.py", "good.py", capsys=capsys)
    assert code == 1
    errors = [f for f in _findings(doc) if f[0] != "PT011"]
    assert errors == [("PT001", "bad.py", 8)], errors
    for entry in ("bad.py", "good.py"):
        assert _coverage(doc, entry) >= 0.9
    message = next(d["message"] for d in _diagnostics(doc) if d["rule"] == "PT001")
    assert "768" in message and "512" in message


def test_without_the_environment_the_package_is_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    root = _project(tmp_path, {"bad.py": BAD})
    code, doc = _check(root, None, "bad.py", capsys=capsys)
    assert code == 0 and not [f for f in _findings(doc) if f[0] == "PT001"]


def test_packages_not_followed_stay_unknown(env: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, {"bad.py": BAD}, config="")  # fakelib is not in the default list
    code, doc = _check(root, env, "bad.py", capsys=capsys)
    assert code == 0 and not [f for f in _findings(doc) if f[0] == "PT001"]
    (tmp_path / "skip").mkdir()
    root = _project(tmp_path / "skip", {"bad.py": BAD}, config='follow-packages = ["*"]\nskip-packages = ["fakelib"]\n')
    code, doc = _check(root, env, "bad.py", capsys=capsys)
    assert code == 0 and not [f for f in _findings(doc) if f[0] == "PT001"]
    (tmp_path / "all").mkdir()
    root = _project(tmp_path / "all", {"bad.py": BAD}, config='follow-packages = ["*"]\n')
    code, doc = _check(root, env, "bad.py", capsys=capsys)
    assert code == 1


def test_a_finding_inside_the_package_is_reported_at_the_projects_call(env: str, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, {"inside.py": INSIDE})
    code, doc = _check(root, env, "inside.py", capsys=capsys)
    assert code == 1
    found = [d for d in _diagnostics(doc) if d["rule"] != "PT011"]
    assert [(d["rule"], d["path"], d["line"]) for d in found] == [("PT001", "inside.py", 6)]
    assert "fakelib/models.py:" in found[0]["message"]


def test_package_budget_cuts_to_an_unknown_naming_the_package(env: str, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    src = ("import torch\nfrom torch import nn\nimport fakelib\n\nm = fakelib.spin(16)\n"
           "y = nn.Linear(3, 2)(m(torch.randn(2, 3, 8, 8)))\nz = torch.randn(2, 3).view(7)\n")
    root = _project(tmp_path, {"main.py": src}, config='follow-packages = ["fakelib"]\npackage-budget = 0.1\n')
    code, doc = _check(root, env, "main.py", capsys=capsys)
    assert code == 1
    rules = _findings(doc)
    assert ("PT001", "main.py", 7) in rules and ("PT001", "main.py", 6) not in rules  # line 6: unknown, no alarm
    notes = [d["message"] for d in _diagnostics(doc) if d["rule"] == "PT011"]
    assert any("fakelib" in n and "package-budget" in n for n in notes), notes


def test_an_import_and_the_calls_after_it_each_have_the_package_budget(env: str, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """An import running most of the package budget (work at import time) leaves the calls that build the
    model their own budget: the head's mismatch is found, with no budget note."""
    src = ("import torch\nfrom torch import nn\nimport fakelib.heavy\n\nm = fakelib.heavy.build(768)\n"
           "y = nn.Linear(512, 2)(m(torch.randn(2, 3, 8, 8)))\n")
    root = _project(tmp_path, {"main.py": src}, config='follow-packages = ["fakelib"]\npackage-budget = 0.25\n')
    code, doc = _check(root, env, "main.py", capsys=capsys)
    assert _findings(doc) == [("PT001", "main.py", 6)], _diagnostics(doc)
    assert code == 1


def test_compiled_extension_is_unknown_naming_the_package(env: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    src = ("import torch\nfrom fakelib import _speedups\n\nx = _speedups.fast(torch.randn(2, 3))\n"
           "y = torch.nn.Linear(4, 2)(x)\n")
    root = _project(tmp_path, {"main.py": src})
    main(["check", "--root", str(root), "--no-cache", "--python", env, "--explain", str(root / "main.py")])
    out = capsys.readouterr().out
    assert "PT001" not in out
    assert "installed package 'fakelib' 1.2.3: compiled extension fakelib._speedups" in out


def test_modeled_libraries_are_never_read_from_the_environment(env: str, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A `torch` in the environment (here a fake one whose Linear accepts anything) is not followed."""
    fake = _purelib(env) / "torch"
    fake.mkdir(exist_ok=True)
    (fake / "__init__.py").write_text("class nn:\n    Linear = lambda *a: (lambda x: x)\n")
    try:
        root = _project(tmp_path, {"main.py": "import torch\ny = torch.nn.Linear(4, 2)(torch.randn(2, 3))\n"},
                        config='follow-packages = ["*"]\n')
        code, doc = _check(root, env, "main.py", capsys=capsys)
    finally:
        (fake / "__init__.py").unlink()
        fake.rmdir()
    assert code == 1 and ("PT001", "main.py", 2) in _findings(doc)


def test_bad_python_option_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, {"main.py": "import torch\n"}, config='python = "no/such/python"\n')
    assert main(["check", "--root", str(root), str(root / "main.py")]) == 2
    err = capsys.readouterr().err
    assert "no interpreter at no/such/python" in err and "Traceback" not in err


def test_dot_venv_of_the_project_is_the_default(env: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    root = _project(tmp_path, {"bad.py": BAD})
    (root / ".venv").symlink_to(Path(env).parent.parent)
    assert environment.find_python(None, str(root))[1] == ".venv"
    code, doc = _check(root, None, "bad.py", capsys=capsys)
    assert code == 1 and ("PT001", "bad.py", 8) in _findings(doc)
    monkeypatch.setenv("VIRTUAL_ENV", str(Path(env).parent.parent))
    assert environment.find_python(None, str(tmp_path / "elsewhere"))[1] == "VIRTUAL_ENV"


def test_shared_import_changes_no_result(env: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The second entry point starts from the first one's kept import of fakelib: its findings, paths
    and steps are those of a run of it alone (a restored import charges the steps it saved)."""
    from pytea_ci.packages import kept as package_cache

    root = _project(tmp_path, {"bad.py": BAD, "good.py": GOOD})
    package_cache._IMPORTS.clear()
    _, alone = _check(root, env, "good.py", capsys=capsys)
    package_cache._IMPORTS.clear()
    before = package_cache.STATS["reused"]
    _, both = _check(root, env, "bad.py", "good.py", "--jobs", "1", capsys=capsys)
    assert package_cache.STATS["reused"] > before
    a = next(e for e in alone["entries"] if e["entry"] == "good.py")
    b = next(e for e in both["entries"] if e["entry"] == "good.py")
    assert _diagnostics(alone, "good.py") == _diagnostics(both, "good.py")
    assert a["coverage"] == b["coverage"]
    for key in ("paths", "steps", "unknowns"):
        assert a["stats"][key] == b["stats"][key], key


def test_never_runs_a_package_whose_import_writes_a_file(env: str, tmp_path: Path) -> None:
    marker = tmp_path / "imported.txt"
    site = _purelib(env)
    (site / "writer").mkdir(exist_ok=True)
    (site / "writer" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\nWIDTH = 6\n")
    prog = tmp_path / "prog.py"
    prog.write_text("import torch\nimport writer\nx = torch.randn(2, writer.WIDTH)\ny = x.view(5, -1)\n")
    (tmp_path / "pyproject.toml").write_text('[tool.pytea-ci]\nfollow-packages = ["writer"]\n')
    code = (
        "import sys\n"
        "for name in ('torch', 'numpy', 'writer'):\n"
        "    sys.modules[name] = None  # importing them now raises ImportError\n"
        "from pytea_ci.cli import main\n"
        f"sys.exit(main(['check', '--root', {str(tmp_path)!r}, '--no-cache', '--python', {env!r}, {str(prog)!r}]))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                       env={k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"})
    assert p.returncode == 1, p.stdout + p.stderr
    assert "prog.py:4:" in p.stdout and "PT001" in p.stdout  # 12 elements viewed as 5 rows: WIDTH was read
    assert not marker.exists(), "the installed package was executed"
