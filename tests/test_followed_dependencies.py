"""A followed package's tensor-code dependencies are followed with it (issue 36, x-transformers'
`torch-einops-utils`): an installed distribution that a followed one requires and that itself requires
torch (not as an extra) is read from source too, so the tensors the followed package hands it come back
with their shapes; a framework-agnostic dependency (torch only an extra, as einx has it) is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytea_ci.cli import main
from pytea_ci.packages import environment
from tests.scratch_site import scratch_site

MODELLIB = '''import torch
from torch import nn
import tensorhelp
import agnostic


class Widen(nn.Module):
    def forward(self, x):
        return tensorhelp.doubled(x)
'''
TENSORHELP = '''import torch


def doubled(x):
    return torch.cat([x, x], dim=-1)
'''
AGNOSTIC = '''def parse(text):
    return text
'''
PROGRAM = '''import torch
from torch import nn
from modellib import Widen

y = Widen()(torch.randn(2, 8))
head = nn.Linear({width}, 3)
z = head(y)
'''


def _dist(site: Path, name: str, module: str, text: str, requires: list[str]) -> None:
    (site / module).mkdir()
    (site / module / "__init__.py").write_text(text)
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "RECORD").write_text(f"{module}/__init__.py,,\n")
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n"
                                   + "".join(f"Requires-Dist: {r}\n" for r in requires))


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> str:
    python, site = scratch_site(tmp_path_factory)
    _dist(site, "modellib", "modellib", MODELLIB, ["torch>=2.0", "tensor-help>=0.1", "agnostic"])
    _dist(site, "tensor_help", "tensorhelp", TENSORHELP, ["torch>=2.5", "numpy; extra == 'test'"])
    _dist(site, "agnostic", "agnostic", AGNOSTIC, ["numpy", 'torch>=2.2; extra == "torch"'])
    environment.site_folders.cache_clear()
    return python


def test_only_the_dependencies_that_require_torch_are_followed(env: str) -> None:
    folders = environment.site_folders(env)
    assert environment.torch_dependencies(folders, ["modellib"]) == ["tensorhelp"]
    assert environment.torch_dependencies(folders, ["other"]) == []
    follow = environment.site_options(env, ["modellib"], [], 10.0)["follow"]
    assert "tensorhelp" in follow and "agnostic" not in follow
    assert "tensorhelp" not in environment.site_options(env, ["modellib"], ["tensorhelp"], 10.0)["follow"]


@pytest.mark.parametrize("width, found", [(8, [("PT001", 7)]), (16, [])])
def test_a_shape_made_in_a_dependency_of_a_followed_package_is_checked(env: str, tmp_path: Path, width: int,
                                                                       found: list, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.pytea-ci]\nfollow-packages = ["modellib"]\n')
    (tmp_path / "main.py").write_text(PROGRAM.format(width=width))
    main(["check", "--root", str(tmp_path), "--no-cache", "--format", "json", "--python", env, str(tmp_path / "main.py")])
    doc = json.loads(capsys.readouterr().out)
    assert [(d["rule"], d["line"]) for d in doc["diagnostics"] if d["severity"] == "error"] == found
    assert doc["entries"][0]["coverage"]["ratio"] == 1.0, doc["entries"][0]
