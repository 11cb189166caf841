"""Every shell snippet of the README runs as written (```sh, ```bash and ```console blocks), offline,
with the installed pytea-ci, in a scratch git repository holding a copy of the files the README names
(examples/, hooks/, tests/library/fixtures/, pyproject.toml), so nothing is written to this checkout:

* `pip ...` commands are logged, not run: they would install the package under test, which is the
  installed one already;
* paths under `/tmp/` are moved into the test's temporary folder;
* a ```sh block directly followed by a plain ``` block must print that block (the time of the run
  aside), and exit 1 when it shows errors; otherwise it must exit 0;
* a ```console block is `$ command` lines, each followed by the output it must print.

A snippet that cannot run here is listed in NOT_RUNNABLE with the reason; the list must match the
README (a listed snippet that is gone fails the test, so the list cannot go stale)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.integrations.conftest import REPO, git

README = (REPO / "README.md").read_text(encoding="utf-8")
SHELLS = ("sh", "bash", "console")
NOT_RUNNABLE = {
    "python -m pytest -q": "runs this test suite itself (.ci/run and this suite are its proof)",
    "pre-commit install": "installs a git hook into the reader's repository",
    "/path/to/your/repo": "a placeholder for the reader's repository",
    "docker build": "needs a Docker daemon and downloads the base image",
}
COPIED = ("examples", "hooks", "tests/library/fixtures", "pyproject.toml")
PIP_SHIM = 'pip() { echo "(readme test: not run: pip $*)" >&2; }\n'


@dataclass
class Snippet:
    line: int
    lang: str
    text: str
    expected: str | None  # the plain block right after it, if any

    @property
    def reason(self) -> str | None:
        found = [why for key, why in NOT_RUNNABLE.items() if key in self.text]
        return found[0] if found else None


def snippets() -> list[Snippet]:
    fences = [(m.start(), m.end(), m.group(1), m.group(2))
              for m in re.finditer(r"^```(\w*)\n(.*?)^```[ \t]*$", README, re.DOTALL | re.MULTILINE)]
    out = []
    for i, (start, end, lang, body) in enumerate(fences):
        if lang not in SHELLS:
            continue
        nxt = fences[i + 1] if i + 1 < len(fences) else None
        follows = nxt is not None and nxt[2] == "" and README[end:nxt[0]].strip() == ""
        out.append(Snippet(README.count("\n", 0, start) + 1, lang, body, nxt[3] if follows and nxt else None))
    return out


SNIPPETS = snippets()


def normal(text: str) -> list[str]:
    """Lines without trailing spaces, the run's time replaced (`; 0.69s` at the end of the summary)."""
    return [re.sub(r"; \d+(\.\d+)?s$", "; <time>", line.rstrip()) for line in text.strip("\n").splitlines()]


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    for name in COPIED:
        src, dest = REPO / name, repo / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__", ".pytea_cache"))
        else:
            shutil.copy2(src, dest)
    git(repo, "init", "-q")
    return repo


def run(script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    scratch = cwd.parent / "tmp"
    scratch.mkdir(exist_ok=True)
    script = script.replace("/tmp/", f"{scratch}/")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "NO_COLOR": "1"}
    env.pop("GITHUB_STEP_SUMMARY", None)
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", PIP_SHIM + script], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=600, check=False)


def test_the_list_of_snippets_not_run_matches_the_readme() -> None:
    for key in NOT_RUNNABLE:
        assert sum(key in s.text for s in SNIPPETS) == 1, f"NOT_RUNNABLE {key!r} must name exactly one snippet"
    assert sum(s.reason is None for s in SNIPPETS) >= 4  # quick start, a finding, baselines, shapes


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("snippet", [s for s in SNIPPETS if s.reason is None], ids=lambda s: f"README.md:{s.line}")
def test_readme_snippet_runs_as_written(snippet: Snippet, workdir: Path) -> None:
    if shutil.which("pytea-ci", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("pytea-ci is not installed beside this Python")
    if snippet.lang == "console":
        parts = re.split(r"^\$ (.*)\n", snippet.text, flags=re.MULTILINE)
        assert parts[0].strip() == "" and len(parts) > 1, "a console block starts with a `$ command` line"
        for command, expected in zip(parts[1::2], parts[2::2]):
            p = run(command, workdir)
            assert normal(p.stdout) == normal(expected), f"$ {command}\n{p.stdout}{p.stderr}"
        return
    p = run(snippet.text, workdir)
    code = 0
    if snippet.expected is not None:
        assert normal(p.stdout) == normal(snippet.expected), p.stdout + p.stderr
        errors = re.search(r"(\d+) error\(s\)", snippet.expected)
        code = 1 if errors and int(errors.group(1)) > 0 else 0
    assert p.returncode == code, p.stdout + p.stderr
