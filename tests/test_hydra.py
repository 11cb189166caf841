"""Hydra configs composed from the project's config folder (models/hydra_.py): the composed values
are the run's sizes, a config this reader cannot follow stays unknown (never a finding), and a result
that read config files is used again only while they are unchanged (cache and replay)."""

from __future__ import annotations

from pathlib import Path

from pytea_ci.driver.run import Options, run

TRAIN = '''import hydra
import torch
from torch import nn


@hydra.main(config_path="conf", config_name="config", version_base=None)
def main(cfg):
    model = nn.Linear(cfg.model.in_features, cfg.model.out)
    x = torch.randn(cfg.data.batch, cfg.data.features)
    y = model(x)


if __name__ == "__main__":
    main()
'''


def _project(tmp: Path, features: int = 21, model_extra: str = "") -> Path:
    (tmp / "conf" / "model").mkdir(parents=True, exist_ok=True)
    (tmp / "conf" / "data").mkdir(parents=True, exist_ok=True)
    (tmp / "conf" / "config.yaml").write_text("defaults:\n  - model: mlp\n  - data: toy\n  - _self_\n"
                                              "seed: 1\n")
    (tmp / "conf" / "model" / "mlp.yaml").write_text(model_extra + "in_features: 20\nout: 10\n")
    (tmp / "conf" / "data" / "toy.yaml").write_text(f"features: {features}\nbatch: 8\n")
    (tmp / "train.py").write_text(TRAIN)
    return tmp / "train.py"


def _check(entry: Path, **kw: object) -> tuple[list[str], object]:
    r = run([str(entry)], Options(root=str(entry.parent), **kw))  # type: ignore[arg-type]
    e = r.entries[0]
    return [f"{d.rule}:{d.span.line}" for d in e.diagnostics], e.stats


def test_the_composed_config_gives_the_sizes(tmp_path: Path) -> None:
    found, stats = _check(_project(tmp_path))
    assert found == ["PT001:10"]


def test_the_fixed_config_is_clean_and_checked(tmp_path: Path) -> None:
    found, stats = _check(_project(tmp_path, features=20))
    assert found == [] and stats.ops_reached == stats.ops_checked > 0  # type: ignore[attr-defined]


def test_a_config_not_followed_stays_unknown(tmp_path: Path) -> None:
    found, stats = _check(_project(tmp_path, model_extra="# @package _global_\n"))
    assert found == []
    assert stats.ops_checked < stats.ops_reached  # type: ignore[attr-defined]
    assert any("package directive" in o["what"] for o in stats.unknown_origins)  # type: ignore[attr-defined]


def test_a_cached_result_is_not_used_once_a_config_file_changed(tmp_path: Path) -> None:
    entry = _project(tmp_path)
    cache = str(tmp_path / ".cache")
    assert _check(entry, cache_dir=cache)[0] == ["PT001:10"]
    (tmp_path / "conf" / "data" / "toy.yaml").write_text("features: 20\nbatch: 8\n")
    assert _check(entry, cache_dir=cache)[0] == []
