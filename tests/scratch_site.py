"""A scratch virtualenv's site-packages for the installed-package tests: packages written there as files
(with a dist-info naming them) are what `--python` follows; nothing is installed or imported."""

from __future__ import annotations

import venv
from pathlib import Path

import pytest

from pytea_ci.packages import environment


def scratch_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A new virtualenv without pip: its interpreter and its site-packages folder."""
    folder = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(folder)
    python = str(folder / "bin" / "python")
    return python, Path(environment.site_folders(python)[0])


def write_package(site: Path, name: str, files: dict[str, str], version: str = "1.0") -> Path:
    """The package `name` (its files by path under it) with a dist-info whose RECORD lists them; the site's
    folders are read again by the next check."""
    pkg = site / name
    for rel, text in files.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text)
    info = site / f"{name}-{version}.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("".join(f"{name}/{rel},,\n" for rel in files if rel.endswith(".py")))
    (info / "top_level.txt").write_text(f"{name}\n")
    environment.site_folders.cache_clear()
    return pkg
