"""Helpers for the integration tests: scratch git repositories holding a small PyTorch project, and a
snapshot of this repository's own sources committed in a scratch repository (what pre-commit and the
Docker build install from)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GIT_ENV = {"GIT_AUTHOR_NAME": "pytea test", "GIT_AUTHOR_EMAIL": "test@example.com",
           "GIT_COMMITTER_NAME": "pytea test", "GIT_COMMITTER_EMAIL": "test@example.com",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}

MODEL_OK = '''import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        return self.fc(x)
'''
MODEL_BUG = MODEL_OK.replace("nn.Linear(8, 4)", "nn.Linear(9, 4)")
TRAIN = '''import torch
from model import Net


def main():
    net = Net()
    x = torch.randn(16, 8)
    y = net(x)
    return y


if __name__ == "__main__":
    main()
'''
OTHER = '''import torch

if __name__ == "__main__":
    x = torch.randn(2, 3)
    y = x.view(6)
'''


def git_env(home: Path | None = None) -> dict[str, str]:
    env = {**os.environ, **GIT_ENV}
    if home is not None:
        env["HOME"] = str(home)
    return env


def git(cwd: Path, *args: str, check: bool = True) -> str:
    p = subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args], cwd=cwd,
                       env=git_env(), capture_output=True, text=True, check=False)
    if check:
        assert p.returncode == 0, f"git {' '.join(args)}: {p.stderr}"
    return p.stdout.strip()


def commit_all(cwd: Path, message: str) -> str:
    git(cwd, "add", "-A")
    git(cwd, "commit", "-q", "-m", message)
    return git(cwd, "rev-parse", "HEAD")


def snapshot_repo(dest: Path) -> tuple[Path, str]:
    """This repository's installable sources (pyproject.toml, README.md, pytea_ci/, the hook manifest,
    docker/) committed in a new git repository at `dest`; (path, commit)."""
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "action.yml", "Dockerfile"):
        shutil.copy2(REPO / name, dest / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(REPO / "pytea_ci", dest / "pytea_ci", ignore=ignore)
    shutil.copytree(REPO / "docker", dest / "docker", ignore=ignore)
    git(dest, "init", "-q")
    return dest, commit_all(dest, "snapshot")
