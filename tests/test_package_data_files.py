"""An installed package's own data files read as data (issue 36, item 2): open_clip fills its model table at
import from the JSON files next to its `factory.py` (`Path(__file__).parent / "model_configs/"`, `is_dir()`,
`glob("*.json")`, `open` + `json.load`, then a table sorted by a key function). A hand-written package in a
scratch virtualenv does the same through `pathlib` and through `os.path`/`os.listdir`/`glob.glob`; the
program's shape bug that depends on a config value is found at its line, the names in the table are known
(`"RN50" not in CONFIGS` is decided: no finding on a line CPython never reaches), and nothing outside the
package's folder is read (a listing of the project's folder or of `/` stays unknown)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytea_ci.cli import main
from tests.scratch_site import scratch_site, write_package

FACTORY = '''
import json
from pathlib import Path
import os
import re
from pathlib import Path

_PATHS = [Path(__file__).parent / f"model_configs/"]
CONFIGS = {}


def _natural_key(s):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\\d+)", s.lower())]


def _rescan():
    global CONFIGS
    files = []
    for path in _PATHS:
        if path.is_file() and path.suffix in (".json",):
            files.append(path)
        elif path.is_dir():
            files.extend(path.glob("*.json"))
    for cf in files:
        with open(cf, "r") as f:
            cfg = json.load(f)
            if all(a in cfg for a in ("embed_dim", "vision_cfg")):
                CONFIGS[cf.stem] = cfg
    CONFIGS = {k: v for k, v in sorted(CONFIGS.items(), key=lambda x: _natural_key(x[0]))}


_rescan()

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = sorted(os.listdir(os.path.join(HERE, "model_configs")))
GLOBBED = sorted(os.path.basename(p) for p in __import__("glob").glob(os.path.join(HERE, "model_configs", "*.json")))
OUTSIDE = Path("/").is_dir()


def create(name):
    return CONFIGS[name]["vision_cfg"]["width"]
'''

MAIN = '''import torch
from cfglib.factory import CONFIGS, GLOBBED, NAMES, OUTSIDE, create

x = torch.zeros(2, 3)
if "RN50" not in CONFIGS or list(CONFIGS) != [".hidden", "RN50", "RN101", "ViT-B-16"]:
    x.view(5)
if NAMES != [".hidden.json", "RN101.json", "RN50.json", "ViT-B-16.json", "notes.txt"] or GLOBBED != NAMES[1:4]:
    x.view(6)
if not OUTSIDE:
    x.view(7)
y = torch.zeros(4, create("RN101")) @ torch.zeros(32, 2)
'''


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> str:
    python, site = scratch_site(tmp_path_factory)
    configs = {f"model_configs/{name}.json": json.dumps({"embed_dim": 1024, "vision_cfg": {"width": width}})
               for name, width in (("RN50", 64), ("RN101", 64), ("ViT-B-16", 96), (".hidden", 8))}
    write_package(site, "cfglib", {"__init__.py": "", "factory.py": FACTORY, **configs,
                                   "model_configs/notes.txt": "not a config"})
    return python


def test_a_packages_config_files_are_read_and_its_table_known(env: str, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.pytea-ci]\nfollow-packages = ["cfglib"]\n')
    (tmp_path / "main.py").write_text(MAIN)
    code = main(["check", "--root", str(tmp_path), "--no-cache", "--format", "json", "--python", env,
                 str(tmp_path / "main.py")])
    doc = json.loads(capsys.readouterr().out)
    found = [(d["rule"], d["line"]) for d in doc["diagnostics"] if d["rule"] != "PT011"]
    # CPython (run on the same files): the table holds the four configs in natural order (the hidden one too:
    # pathlib's glob matches dot files, glob.glob does not), RN101's width is 64: line 11 fails. `Path("/")` is
    # outside the package: not known, so line 10 is at most a warning naming the condition
    assert code == 1 and found == [("PT002", 10), ("PT001", 11)], found
