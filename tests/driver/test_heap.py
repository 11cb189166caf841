"""A run moves what selection built out of the collector's reach and collects the young generations less
often (driver/heap.py): full collections walked every parsed tree again, half of monai's CPU."""

from __future__ import annotations

import gc
from pathlib import Path

from pytea_ci.driver import heap
from pytea_ci.driver.check import check
from pytea_ci.driver.project import CheckRequest


def test_a_check_freezes_what_selection_built(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("import torch\nx = torch.zeros(2, 3)\ny = x.view(3, 2)\n")
    before = gc.get_threshold()
    gc.unfreeze()
    try:
        check(CheckRequest(root=str(tmp_path), no_cache=True))
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == heap.THRESHOLDS
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_a_language_servers_check_leaves_the_collector_alone(tmp_path: Path) -> None:
    from pytea_ci.driver.resident import Resident

    (tmp_path / "train.py").write_text("import torch\nx = torch.zeros(2, 3)\ny = x.view(3, 2)\n")
    gc.unfreeze()
    check(CheckRequest(root=str(tmp_path), no_cache=True, resident=Resident()))
    assert gc.get_freeze_count() == 0
