"""Real `transformers` and `timm`, installed from PyPI (pinned, with their required dependencies but not
torch's family: `bench.install`) into a scratch virtualenv and
read from source, never imported (issue 21's Done-when): a BERT classifier with a 512-wide head on its
768-wide pooler output is found at the head's line, its twin with `config.hidden_size` is clean, both
checking at least 90% of the tensor operations they reach; a model built by `from_pretrained` of a
project folder's `config.json` gets that file's sizes; a hub id is unknown (never downloaded). A timm
backbone (`timm.create_model("resnet18", num_classes=0)`, and `timm.models.resnet.resnet34` with
`reset_classifier`/`forward_features`/`get_classifier`) with a wrong-width head is found at the line,
its twins clean, at least 90% checked. No torch oracle builds these models: timm does not import
without torchvision, which the test environment cannot load; the widths (512) are the models' own.
Skipped only when the package cannot be installed (no network to PyPI). The same project, with timm
and the cold/warm import figures, is `benchmarks/installed_packages.py`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import installed_packages as bench  # noqa: E402  (the benchmark's project and pins)

from pytea_ci.cli import main  # noqa: E402

PINS = bench.PINS


@pytest.fixture(scope="module")
def python() -> str:
    try:
        exe = bench.make_env(os.path.join(tempfile.gettempdir(), "pytea-ci-hf-venv"))
    except (OSError, ValueError, subprocess.SubprocessError) as e:
        pytest.skip(f"cannot install {PINS}: {e}")
    if exe is None:
        pytest.skip(f"cannot install {PINS}")
    return exe


def _check(python: str, root: Path, names: list[str],
           capsys: pytest.CaptureFixture[str]) -> tuple[dict, list[tuple[str, str, int]]]:
    """The JSON report of the benchmark's project checked with the installed packages, and its findings
    (entry, rule, line); the run must exit 1 (findings)."""
    bench.make_project(str(root))
    code = main(["check", "--root", str(root), "--no-cache", "--jobs", "1", "--python", python, "--format", "json",
                 *(str(root / n) for n in names)])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1
    return doc, sorted((d["entry"], d["rule"], d["line"]) for d in doc["diagnostics"] if d["rule"] < "PT010")


def test_bert_heads_found_at_the_line_twins_clean(python: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    doc, found = _check(python, tmp_path, ["bert_bad.py", "bert_good.py", "local_bad.py", "hub.py"], capsys)
    assert found == [("bert_bad.py", "PT001", 10), ("local_bad.py", "PT001", 9)], found
    messages = {d["entry"]: d["message"] for d in doc["diagnostics"] if d["rule"] == "PT001"}
    assert "768" in messages["bert_bad.py"] and "512" in messages["bert_bad.py"]
    assert "384" in messages["local_bad.py"]  # the width of bert_local/config.json
    coverage = {e["entry"]: e["coverage"]["ratio"] for e in doc["entries"]}
    assert coverage["bert_bad.py"] >= 0.9 and coverage["bert_good.py"] >= 0.9, coverage
    assert all(e["status"] != "internal-error" for e in doc["entries"])
    hub = next(e for e in doc["entries"] if e["entry"] == "hub.py")
    assert any("bert-base-uncased" in o["what"] for o in hub["unknown_origins"]), hub["unknown_origins"]


def test_timm_heads_found_at_the_line_twins_clean(python: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    names = ["timm_bad.py", "timm_good.py", "timm_head_bad.py", "timm_head_good.py"]
    doc, found = _check(python, tmp_path, names, capsys)
    assert found == [("timm_bad.py", "PT001", 8), ("timm_head_bad.py", "PT001", 10)], found
    messages = {d["entry"]: d["message"] for d in doc["diagnostics"] if d["rule"] == "PT001"}
    assert "512" in messages["timm_bad.py"] and "256" in messages["timm_bad.py"]
    assert "512" in messages["timm_head_bad.py"] and "1024" in messages["timm_head_bad.py"]
    coverage = {e["entry"]: e["coverage"]["ratio"] for e in doc["entries"]}
    assert all(coverage[n] >= 0.9 for n in names), coverage
    assert all(e["status"] != "internal-error" for e in doc["entries"])
