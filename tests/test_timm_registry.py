"""Lazy re-exports of installed packages and timm's model registry (issue 21): a hand-written `timm`
(the real one's layout: a package `__init__` re-exporting every model module with `from .x import *`,
`@register_model` filling `_model_entrypoints` at import, `create_model` looking the name up there)
installed as source in a scratch virtualenv. `timm.create_model("tinynet")` reaches the model's real
source without running the other model modules — one of which would spin past any budget and write a
file if it ran — and a wrong head on it is found at the line; names not known stay unknown with the
registry named; `from timm.models import *` still gets every name (the deferred modules run then)."""

from __future__ import annotations

import json
import venv
from pathlib import Path

import pytest

from pytea_ci.cli import main
from pytea_ci.packages import environment

REGISTRY = '''
_model_entrypoints = {}


def register_model(fn):
    _model_entrypoints[fn.__name__] = fn
    return fn


def is_model(model_name):
    return model_name in _model_entrypoints


def model_entrypoint(model_name, module_filter=None):
    return _model_entrypoints[model_name]
'''

FACTORY = '''
from ._registry import is_model, model_entrypoint


def create_model(model_name, pretrained=False, **kwargs):
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    if not is_model(model_name):
        raise RuntimeError("Unknown model (%s)" % model_name)
    create_fn = model_entrypoint(model_name)
    return create_fn(pretrained=pretrained, **kwargs)
'''

TINY = '''
import torch
from torch import nn
from ._registry import register_model

__all__ = ["TinyNet"]


class TinyNet(nn.Module):
    def __init__(self, width=192, num_classes=1000):
        super().__init__()
        self.num_features = width
        self.stem = nn.Conv2d(3, width, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(width, num_classes) if num_classes > 0 else nn.Identity()

    def forward_features(self, x):
        return self.pool(self.stem(x)).flatten(1)

    def get_classifier(self):
        return self.fc

    def forward(self, x):
        return self.fc(self.forward_features(x))


@register_model
def tinynet(pretrained=False, **kwargs):
    return TinyNet(**kwargs)


globals()["tinynet_alias"] = tinynet  # bound at run time: found by the text that names it
'''

# if it ran: a shape error at import (a finding) and a file written (never: the analyzer never executes it)
HEAVY = '''
import torch
from ._registry import register_model

_BROKEN = torch.randn(2, 3) @ torch.randn(4, 4)

TABLE = {}
for i in range(100000):
    for j in range(100):
        TABLE[(i, j)] = i * j
open("{marker}", "w").write("imported")
HEAVY_VALUE = 7


@register_model
def heavynet(pretrained=False, **kwargs):
    return None
'''

MODELS_INIT = '''
from .heavy import *
from .tiny import *
from ._factory import create_model
from ._registry import is_model, model_entrypoint, register_model
'''

TIMM_INIT = '''
from .models import create_model as create_model
from .models import is_model
'''

BAD = '''import torch
from torch import nn
import timm

backbone = timm.create_model("tinynet", pretrained=False, num_classes=0)
head = nn.Linear(256, 10)
x = torch.randn(2, 3, 32, 32)
logits = head(backbone(x))
'''
GOOD = BAD.replace("nn.Linear(256, 10)", "nn.Linear(backbone.num_features, 10)")
DIRECT = '''import torch
from torch import nn
from timm.models import tinynet, tinynet_alias
import timm.models

a = tinynet_alias(num_classes=0)
b = timm.models.tiny.tinynet(num_classes=0)
c = tinynet(num_classes=0)
x = torch.randn(2, 3, 32, 32)
yb = nn.Linear(c.num_features, 10)(b(x))
ya = nn.Linear(100, 10)(a.forward_features(x))
'''
UNKNOWN = '''import sys
import torch
from torch import nn
import timm

m = timm.create_model(sys.argv[1], num_classes=0)
n = timm.create_model("no_such_net", num_classes=0)
x = torch.randn(2, 3, 32, 32)
y = nn.Linear(256, 10)(m(x))
z = nn.Linear(256, 10)(n(x))
'''
STAR = '''import torch
from timm.models import *

y = torch.randn(2, HEAVY_VALUE) @ torch.randn(3, 4)
'''


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    folder = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(folder)
    python = str(folder / "bin" / "python")
    site = Path(environment.site_folders(python)[0])
    marker = folder / "heavy-was-imported"
    models = site / "timm" / "models"
    models.mkdir(parents=True)
    (site / "timm" / "__init__.py").write_text(TIMM_INIT)
    for name, text in {"__init__": MODELS_INIT, "_registry": REGISTRY, "_factory": FACTORY, "tiny": TINY,
                       "heavy": HEAVY.replace("{marker}", str(marker))}.items():
        (models / f"{name}.py").write_text(text)
    info = site / "timm-9.9.9.dist-info"
    info.mkdir()
    (info / "top_level.txt").write_text("timm\n")
    environment.site_folders.cache_clear()
    return python, marker


def _check(env: tuple[str, Path], tmp_path: Path, files: dict[str, str],
           capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    (tmp_path / "pyproject.toml").write_text('[tool.pytea-ci]\nfollow-packages = ["timm"]\npackage-budget = 1.0\n')
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    code = main(["check", "--root", str(tmp_path), "--no-cache", "--jobs", "1", "--format", "json",
                 "--python", env[0], *(str(tmp_path / n) for n in files)])
    return code, json.loads(capsys.readouterr().out)


def _found(doc: dict) -> list[tuple[str, str, int]]:
    return sorted((d["entry"], d["rule"], d["line"]) for d in doc["diagnostics"] if d["rule"] < "PT010")


def _entry(doc: dict, name: str) -> dict:
    return next(e for e in doc["entries"] if e["entry"] == name)


def test_create_model_reaches_the_model_and_skips_the_other_modules(env: tuple[str, Path], tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _check(env, tmp_path, {"bad.py": BAD, "good.py": GOOD}, capsys)
    assert code == 1
    assert _found(doc) == [("bad.py", "PT001", 8)], doc["diagnostics"]
    message = next(d["message"] for d in doc["diagnostics"] if d["rule"] == "PT001")
    assert "192" in message and "256" in message
    assert not [d for d in doc["diagnostics"] if d["rule"] == "PT011"], "the heavy module ran"
    for name in ("bad.py", "good.py"):
        assert _entry(doc, name)["coverage"]["ratio"] == 1.0
    assert not env[1].exists()  # never imported, never executed


def test_model_functions_by_name_and_the_head_methods(env: tuple[str, Path], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _check(env, tmp_path, {"direct.py": DIRECT}, capsys)
    assert _found(doc) == [("direct.py", "PT001", 11)], doc["diagnostics"]
    assert not [d for d in doc["diagnostics"] if d["rule"] == "PT011"]


def test_names_not_known_or_not_found_are_unknown_with_the_registry_named(
        env: tuple[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _check(env, tmp_path, {"unknown.py": UNKNOWN}, capsys)
    assert code == 0 and not _found(doc), doc["diagnostics"]
    origins = " ".join(o["what"] for o in _entry(doc, "unknown.py")["unknown_origins"])
    assert "timm model registry" in origins and "no_such_net" in origins, origins


def test_a_star_import_of_the_package_gets_every_name(env: tuple[str, Path], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _check(env, tmp_path, {"star.py": STAR}, capsys)
    # the deferred modules ran: heavy.py's import-time error is reported, at the project's import that
    # led there (an installed package is read-only), naming the package line
    found = [(d["path"], d["line"], d["message"]) for d in doc["diagnostics"] if d["rule"] == "PT001"]
    assert len(found) == 1 and found[0][:2] == ("star.py", 2) and "heavy.py:5)" in found[0][2], found
    assert not env[1].exists()
