"""Real `transformers` in the versions users have today (issue 36): the latest 5.x release and 4.46.3,
each installed from PyPI with `--no-deps` into its own scratch virtualenv (kept under the temporary
folder and reused), read from source, never imported.

`tests/data/hf_versions/` holds thirteen pairs of scripts over different architectures (BERT, RoBERTa,
GPT-2, Llama, T5, BART, ViT, CLIP text and vision), each building its model from a small config in code,
with a shape bug at the boundary between the script and the model (a head's `in_features` against the
hidden size, a loss's target shape, an input width) and a fixed twin. `labels.json` there records, per
transformers major version, the line of each script where torch 2.13 running the real transformers
raised (null: ran clean); written by `python tests/data/hf_versions/label.py` in an environment that
has torch and transformers. The test: every labelled line found (an error at that line), no error on
any other line or twin. Skipped only when the package cannot be installed (no network to PyPI).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import venv
from pathlib import Path

import pytest

from pytea_ci.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "hf_versions"
VERSIONS = {"5": "transformers>=5,<6", "4": "transformers==4.46.3"}


def _venv(pin: str) -> str:
    folder = os.path.join(tempfile.gettempdir(), "pytea-ci-hf-versions", pin.replace(">", "gt").replace("<", "lt")
                          .replace("=", "").replace(",", "_"))
    exe = os.path.join(folder, "bin", "python")
    try:
        if not os.path.isfile(exe):
            venv.EnvBuilder(with_pip=True).create(folder)
        p = subprocess.run([exe, "-m", "pip", "install", "-q", "--no-deps", pin], capture_output=True, text=True,
                           timeout=900)
    except (OSError, subprocess.SubprocessError) as e:
        pytest.skip(f"cannot install {pin}: {e}")
    if p.returncode != 0:
        pytest.skip(f"cannot install {pin}: {p.stderr.strip().splitlines()[-1:] or p.returncode}")
    return exe


@pytest.mark.parametrize("major", sorted(VERSIONS))
def test_boundary_bugs_found_at_the_line_twins_clean(major: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    python = _venv(VERSIONS[major])
    labels = json.loads((DATA / "labels.json").read_text())[major]
    scripts = sorted(p.name for p in DATA.glob("*.py") if p.name != "label.py")
    assert len(scripts) >= 24 and set(scripts) <= set(labels), "every script labelled"
    for name in scripts:
        (tmp_path / name).write_text((DATA / name).read_text())
    main(["check", "--root", str(tmp_path), "--cache-dir", str(tmp_path / "cache"), "--jobs", "1", "--python", python,
          "--format", "json", *(str(tmp_path / n) for n in scripts)])
    doc = json.loads(capsys.readouterr().out)
    found = sorted((d["entry"], d["line"]) for d in doc["diagnostics"] if d["severity"] == "error")
    expected = sorted((n, labels[n]) for n in scripts if labels[n] is not None)
    assert found == expected, {"missed": sorted(set(expected) - set(found)), "wrong": sorted(set(found) - set(expected))}
    assert all(labels[n] is None for n in scripts if n.endswith("_good.py")), "the twins run clean under torch"
