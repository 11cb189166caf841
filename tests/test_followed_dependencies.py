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


HUB_LAYERS = '''def use_kernel_forward_from_hub(layer_name):
    def decorator(cls):
        cls.kernel_layer_name = layer_name
        return cls
    return decorator
'''
DECORATED = '''import torch
from torch import nn
from kernels import use_kernel_forward_from_hub


@use_kernel_forward_from_hub("Act")
class Act(nn.Module):
    def forward(self, x):
        return x
'''
FLAGGED = '''import torch
from transformers import Act

act = Act()
width = 4 if getattr(act, "_is_hf_initialized", False) or act.kernel_layer_name != "Act" else 8
y = torch.nn.Linear(8, 2)(torch.randn(3, width))
'''


def test_the_hub_kernels_that_decorate_transformers_layers_are_followed_by_default(
        tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """transformers 5 requires `kernels`, whose `use_kernel_forward_from_hub` decorates most of its layer
    classes at import: followed by default, the attributes it sets are known and a name it does not set
    is absent (not followed, the class was handed to code not followed: `getattr(layer,
    "_is_hf_initialized", False)` forked every layer of every model)."""
    python, site = scratch_site(tmp_path_factory)
    _dist(site, "kernels", "kernels", HUB_LAYERS, ["huggingface-hub"])
    _dist(site, "transformers", "transformers", DECORATED, ["kernels", "torch"])
    environment.site_folders.cache_clear()
    (tmp_path / "main.py").write_text(FLAGGED)
    main(["check", "--root", str(tmp_path), "--no-cache", "--format", "json", "--python", python, str(tmp_path / "main.py")])
    doc = json.loads(capsys.readouterr().out)
    assert doc["diagnostics"] == [] and doc["entries"][0]["stats"]["paths"] == 1, doc["entries"][0]["stats"]
