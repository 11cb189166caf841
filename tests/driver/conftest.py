"""Helpers for the driver tests: small projects in temporary folders, real git repositories
(identity given through the environment, so no global git configuration is needed), and the CLI
run in-process with JSON output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytea_ci.cli import main

GIT_ENV = {"GIT_AUTHOR_NAME": "pytea test", "GIT_AUTHOR_EMAIL": "test@example.com",
           "GIT_COMMITTER_NAME": "pytea test", "GIT_COMMITTER_EMAIL": "test@example.com",
           "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent", "GIT_TERMINAL_PROMPT": "0"}

# helper.py is imported by a.py only; b.py stands alone; notes.py is a script without torch.
HELPER_OK = "import torch.nn as nn\n\n\ndef make():\n    return nn.Linear(4, 2)\n"
HELPER_BUG = "import torch.nn as nn\n\n\ndef make():\n    return nn.Linear(5, 2)\n"
A_PY = ("import torch\nfrom helper import make\n\n\ndef main():\n    m = make()\n    y = m(torch.randn(3, 4))\n"
        "    return y\n\n\nif __name__ == \"__main__\":\n    main()\n")
B_PY = "import torch\n\nif __name__ == \"__main__\":\n    x = torch.randn(2, 3)\n    y = x.view(6)\n"
B_BUG = "import torch\n\nif __name__ == \"__main__\":\n    x = torch.randn(2, 3)\n    y = x.view(7)\n"
NOTES_PY = "print('not a torch program')\n"


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, **GIT_ENV}
    p = subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args], cwd=cwd,
                       env=env, capture_output=True, text=True, check=False)
    assert p.returncode == 0, f"git {' '.join(args)}: {p.stderr}"
    return p.stdout.strip()


def write_project(root: Path, helper: str = HELPER_OK, b: str = B_PY) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "helper.py").write_text(helper)
    (root / "a.py").write_text(A_PY)
    (root / "b.py").write_text(b)
    (root / "notes.py").write_text(NOTES_PY)
    return root


def make_repo(root: Path, commit: bool = True) -> Path:
    write_project(root)
    git(root, "init", "-q")
    git(root, "add", "-A")
    if commit:
        git(root, "commit", "-q", "-m", "initial")
    return root


def run_json(root: Path, *args: str, cwd: Path | None = None) -> tuple[int, dict[str, Any]]:
    """Run `pytea-ci check ARGS --root ROOT` in-process; (exit code, JSON document)."""
    out = root.parent / f"{root.name}-out.json"
    argv = ["check", "--root", str(root), "--format", "json", "--output", str(out), "--jobs", "1", *args]
    saved = os.getcwd()
    os.chdir(cwd or root)
    try:
        code = main(argv)
    finally:
        os.chdir(saved)
    doc = json.loads(out.read_text()) if out.exists() else {}
    if out.exists():
        out.unlink()
    return code, doc


def entries(doc: dict[str, Any]) -> dict[str, bool]:
    """entry path -> cached?"""
    return {e["entry"]: e["cached"] for e in doc["entries"]}


def findings(doc: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(d["rule"], d["path"], d["line"]) for d in doc["diagnostics"]]


def cli_subprocess(root: Path, *args: str) -> subprocess.Popen[str]:
    code = "import sys\nfrom pytea_ci.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    repo_root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo_root)}
    return subprocess.Popen([sys.executable, "-c", code, "check", "--root", str(root), *args], cwd=root,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "proj")
