"""The version matrix's benchmark (`benchmarks/installed_packages.py`) installs pinned packages only into
virtualenvs it created itself: a `--venv` folder that exists without its mark is refused (one line, exit 2)
and nothing is installed into it (stop 39 installed the 4.46.3 pins into a shared venv and downgraded it)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import installed_packages as bench  # noqa: E402


@pytest.fixture
def no_pip(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[str, ...]]]:
    """Record `install` calls instead of running pip; a fake venv builder that writes `bin/python`."""
    calls: list[tuple[str, tuple[str, ...]]] = []

    class Builder:
        def __init__(self, **_: object) -> None:
            pass

        def create(self, folder: str) -> None:
            os.makedirs(os.path.join(folder, "bin"))
            Path(folder, "bin", "python").write_text("")

    def install(python: str, pins: tuple[str, ...], timeout: float | None = None) -> str:
        calls.append((python, pins))
        return ""

    monkeypatch.setattr(bench, "install", install)
    monkeypatch.setattr(bench.venv, "EnvBuilder", Builder)
    return calls


def test_a_venv_it_did_not_create_is_refused(tmp_path: Path, no_pip: list, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    shared = tmp_path / "shared-venv"
    (shared / "bin").mkdir(parents=True)
    (shared / "pyvenv.cfg").write_text("home = /usr/bin\n")
    monkeypatch.setattr(sys, "argv", ["installed_packages.py", "--venv", str(shared)])
    assert bench.main() == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and str(shared) in err and "refusing" in err
    assert no_pip == []  # nothing installed
    assert not (shared / bench.MARKER).exists()


def test_a_venv_it_creates_is_marked_and_reused(tmp_path: Path, no_pip: list) -> None:
    folder = tmp_path / "scratch"
    python = bench.make_env(str(folder))
    assert python == str(folder / "bin" / "python") and (folder / bench.MARKER).is_file()
    assert bench.make_env(str(folder)) == python  # its own venv: used again
    assert [pins for _, pins in no_pip] == [bench.PINS, bench.PINS]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert bench.make_env(str(empty)) and (empty / bench.MARKER).is_file()  # an empty folder is new


def test_the_matrix_refuses_too(tmp_path: Path, no_pip: list, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench.tempfile, "gettempdir", lambda: str(tmp_path))
    row = tmp_path / "pytea-ci-hf-versions" / "monai"
    (row / "lib").mkdir(parents=True)
    with pytest.raises(bench.ForeignVenv):
        bench.pinned_env("monai")
    assert no_pip == []
