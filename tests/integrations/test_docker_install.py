"""What the Dockerfile builds, without Docker: its COPY and RUN install steps replayed in a fresh
virtualenv (same commands, same pinned versions from docker/requirements.txt), then the image's
ENTRYPOINT run from that virtualenv against a scratch pull request, as a CI job would run the
container. Static checks cover what only a real build would exercise (base image pinned by version,
git installed, safe.directory, no USER, exec-form ENTRYPOINT, .dockerignore).

What only a real `docker build` proves: the base image exists and is slim, apt-get installs git in it,
the system git config is honoured inside the container, and the image size. The replay skips when
the packages cannot be downloaded (no network)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.integrations.conftest import REPO
from tests.integrations.test_action import make_pr, pr_event

DOCKERFILE = (REPO / "Dockerfile").read_text()
NETWORK_TROUBLE = ("NewConnectionError", "Temporary failure in name resolution", "No matching distribution",
                   "Could not find a version", "Network is unreachable", "Failed to establish a new connection")


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for line in DOCKERFILE.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending += line.rstrip("\\").strip() + " "
        if not line.endswith("\\"):
            word, _, rest = pending.strip().partition(" ")
            out.append((word.upper(), rest.strip()))
            pending = ""
    return out


def test_dockerfile_static_facts() -> None:
    ins = instructions()
    assert ins[0][0] == "FROM" and re.fullmatch(r"python:\d+\.\d+\.\d+-slim-\w+(@sha256:[0-9a-f]{64})?", ins[0][1])
    runs = " && ".join(arg for word, arg in ins if word == "RUN")
    assert "apt-get install -y --no-install-recommends git" in runs
    assert "rm -rf /var/lib/apt/lists/*" in runs
    assert "git config --system --add safe.directory '*'" in runs
    assert not any(word == "USER" for word, _ in ins)  # CI mounts the workspace; containers run as root
    assert not any(word == "WORKDIR" for word, _ in ins)  # GitHub sets the working directory
    entry = [arg for word, arg in ins if word == "ENTRYPOINT"]
    assert entry and json.loads(entry[-1]) == ["python", "-m", "pytea_ci.action"]
    # every pinned requirement is exact, and the build context keeps what the COPY steps need
    reqs = [line for line in (REPO / "docker" / "requirements.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    assert reqs and all(re.fullmatch(r"[A-Za-z0-9_.-]+==[\w.]+", r) for r in reqs)
    ignore = (REPO / ".dockerignore").read_text()
    for word, arg in ins:
        if word == "COPY":
            for src in arg.split()[:-1]:
                assert f"!{src.rstrip('/')}" in ignore.replace("/\n", "\n"), src


def replay(prefix: Path, python: Path) -> None:
    """Run the Dockerfile's COPY and RUN steps with `prefix` standing for `/` and `python` for python."""
    for word, arg in instructions():
        if word == "COPY":
            *srcs, dest = arg.split()
            target = prefix / dest.lstrip("/")
            for src in srcs:
                s = REPO / src
                d = target / s.name if dest.endswith("/") else target
                d.parent.mkdir(parents=True, exist_ok=True)
                if s.is_dir():
                    shutil.copytree(s, d, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
                else:
                    shutil.copy2(s, d)
        elif word == "RUN":
            for cmd in (c.strip() for c in arg.split("&&")):
                argv = shlex.split(cmd)
                if argv[:2] == ["rm", "-rf"] and all(a.startswith("/tmp/") for a in argv[2:]):
                    for a in argv[2:]:
                        shutil.rmtree(prefix / a.lstrip("/"), ignore_errors=True)
                    continue
                if argv[:1] != ["python"]:
                    continue  # apt-get, git config --system, rm of apt lists: system steps only a real build runs
                argv = [str(python)] + [a.replace("/tmp/", f"{prefix}/tmp/") for a in argv[1:]]
                p = subprocess.run(argv, cwd=prefix, capture_output=True, text=True, timeout=900, check=False,
                                   env={**os.environ, "PIP_NO_CACHE_DIR": "1", "PYTHONDONTWRITEBYTECODE": "1"})
                out = p.stdout + p.stderr
                if p.returncode != 0 and any(m in out for m in NETWORK_TROUBLE):
                    pytest.skip(f"cannot download the image's packages (no network?): {cmd}")
                assert p.returncode == 0, f"{cmd}:\n{out[-3000:]}"


def test_dockerfile_install_steps_in_a_fresh_virtualenv(tmp_path: Path) -> None:
    env_dir = tmp_path / "image-venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    prefix = tmp_path / "rootfs"
    prefix.mkdir()
    replay(prefix, python)
    assert not (prefix / "tmp" / "pytea-ci").exists()  # the build context copy is removed, as in the image

    pr = make_pr(tmp_path / "ws")
    event = tmp_path / "event.json"
    event.write_text(json.dumps(pr_event(pr)))
    out, summary = tmp_path / "output", tmp_path / "summary.md"
    env = {"PATH": f"{env_dir / 'bin'}:{os.environ.get('PATH', '')}", "HOME": str(tmp_path),
           "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event), "GITHUB_WORKSPACE": str(pr.origin),
           "GITHUB_OUTPUT": str(out), "GITHUB_STEP_SUMMARY": str(summary), "INPUT_SARIF-FILE": "pytea-ci.sarif",
           "INPUT_FAIL-ON": "error", "INPUT_ANNOTATIONS": "true", "INPUT_CATEGORY": "pytea-ci/"}
    # the ENTRYPOINT, from the workspace (where GitHub starts the container), importing the installed copy
    entry = json.loads([arg for word, arg in instructions() if word == "ENTRYPOINT"][-1])
    p = subprocess.run([str(env_dir / "bin" / entry[0]), *entry[1:]], cwd=pr.origin, env=env, capture_output=True,
                       text=True, timeout=600, check=False)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "::error file=model.py,line=10" in p.stdout
    doc = json.loads((pr.origin / "pytea-ci.sarif").read_text())
    assert [r["ruleId"] for r in doc["runs"][0]["results"]] == ["PT001"]
    assert "errors=1" in out.read_text() and "## pytea-ci" in summary.read_text()
    where = subprocess.run([str(python), "-c", "import pytea_ci; print(pytea_ci.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, check=True).stdout
    assert str(env_dir) in where  # the installed package, not this checkout
    # the same image as a plain CLI (other CI systems): arguments given
    cli = subprocess.run([str(env_dir / "bin" / entry[0]), *entry[1:], "check", "other.py"], cwd=pr.origin,
                         env=env, capture_output=True, text=True, timeout=300, check=False)
    assert cli.returncode == 0 and "Analyzed 1 entry point" in cli.stdout, cli.stdout + cli.stderr
    assert sys.version_info >= (3, 10)
