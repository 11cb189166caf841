"""The README and docs/*.md are tests: every command block runs, and every output block is what the tool
prints, so the documentation cannot drift from the tool.

Each fenced block that is a command (```sh, ```bash, ```console) or printed output (a plain ```,
```text or ```json block) carries a directive, an HTML comment on the line(s) before it:

* `<!-- doc-test: run -->` — run the block with bash, offline, in the document's scratch folder (a git
  repository holding a copy of examples/, hooks/, tests/library/fixtures/ and pyproject.toml, as a
  reader's clone does; `/tmp/` is a folder beside it). A
  ```console block is `$ command` lines, each followed by what it prints. `pip ...` is logged, not
  run: the directive must say so (`run (pip install: ...)`); the test environment has the package.
  Blocks of one document run in order in one folder, as a reader would run them.
* `<!-- doc-test: output -->` — what the run block above printed on stdout.
* `<!-- doc-test: output [excerpt] [json=KEY.0.KEY] [in=FOLDER] $ COMMAND -->` — what COMMAND prints
  when run in a copy of FOLDER (a folder of this repository, e.g. examples/readme/dtype, or a
  `/tmp/...` folder an earlier block made); `excerpt`: the block's lines appear in order, a `...`
  line standing for any lines; `json=`: the block is that part of the JSON printed.
* `<!-- doc-test: synopsis -->` — a usage summary: every `--option` it names is in some `--help`.
* `<!-- doc-test: skip: REASON -->` — not run here, for the reason given.

Compared after normalizing: trailing spaces, the run time (`; 1.15s`), the scratch folder's path, and
in JSON the timings, step counts and tool version. The exit code must be 1 when the output shows an
error, else 0."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
COMMANDS = ("sh", "bash", "console")
OUTPUTS = ("", "text", "json")
COPIED = ("examples", "hooks", "tests/library/fixtures", "pyproject.toml")
PIP_SHIM = 'pip() { echo "(doc test: not run: pip $*)" >&2; }\n'
FENCE = re.compile(r"^```(\w*)\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
DIRECTIVE = re.compile(r"<!--\s*doc-test:\s*(.*?)\s*-->\s*\Z", re.DOTALL)
VOLATILE_JSON = ("seconds", "z3_seconds", "steps")


@dataclass
class Block:
    doc: Path
    line: int
    lang: str
    text: str
    directive: str | None

    @property
    def id(self) -> str:
        return f"{self.doc.relative_to(REPO)}:{self.line}"

    @property
    def kind(self) -> str:
        return re.split(r"[\s:(]", self.directive or "", maxsplit=1)[0]


def blocks(doc: Path) -> list[Block]:
    text = doc.read_text(encoding="utf-8")
    out, end = [], 0
    for m in FENCE.finditer(text):
        d = DIRECTIVE.search(text[end:m.start()])
        out.append(Block(doc, text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2), d.group(1) if d else None))
        end = m.end()
    return out


ALL = [b for doc in DOCS for b in blocks(doc)]


def normal(text: str, scratch: Path | None = None) -> list[str]:
    if scratch is not None:
        text = text.replace(f"{scratch / 'tmp'}", "/tmp").replace(f"{scratch / 'repo'}{os.sep}", "")
    return [re.sub(r"; \d+(\.\d+)?s$", "; <time>", line.rstrip()) for line in text.strip("\n").splitlines()]


def normal_json(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: "<volatile>" if k in VOLATILE_JSON else ("<version>" if k == "tool" else normal_json(x))
                for k, x in v.items()}
    return [normal_json(x) for x in v] if isinstance(v, list) else v


def shows_error(text: str) -> bool:
    return bool(re.search(r"\] error: |\b[1-9]\d* error\(s\)|\"(level|severity)\": \"error\"", text))


class Session:
    """One document's scratch folder; its run blocks, run in order and remembered by line."""

    def __init__(self, root: Path, doc: Path) -> None:
        self.root, self.doc = root, doc
        self.done: dict[int, subprocess.CompletedProcess[str] | None] = {}
        repo = root / "repo"
        (root / "tmp").mkdir(parents=True)
        for name in COPIED:
            src, dest = REPO / name, repo / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__", ".pytea_cache"))
            else:
                shutil.copy2(src, dest)
        if shutil.which("git"):  # a reader's clone: the project root is the repository's
            subprocess.run(["git", "init", "-q"], cwd=repo, check=True, capture_output=True)

    def sh(self, script: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        script = script.replace("/tmp/", f"{self.root / 'tmp'}/")
        env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               "NO_COLOR": "1", "PYTHONPATH": str(REPO)}
        env.pop("GITHUB_STEP_SUMMARY", None)
        env.pop("CI", None)
        return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", PIP_SHIM + script],
                              cwd=cwd or self.root / "repo", env=env, capture_output=True, text=True, timeout=600,
                              check=False)

    def run_through(self, line: int) -> subprocess.CompletedProcess[str] | None:
        """Run every run block up to `line` not yet run; the result of the last one."""
        last = None
        for b in blocks(self.doc):
            if b.line > line:
                break
            if b.kind == "run":
                if b.line not in self.done:
                    self.done[b.line] = None if b.lang == "console" else self.sh(b.text)
                last = self.done[b.line]
        return last

    def folder(self, where: str) -> Path:
        """A scratch copy of a folder of this repository, or a folder an earlier block made under /tmp."""
        if where.startswith("/tmp/"):
            return self.root / "tmp" / where[len("/tmp/"):]
        dest = self.root / "tmp" / "doc-test" / where
        if not dest.exists():
            shutil.copytree(REPO / where, dest, ignore=shutil.ignore_patterns("__pycache__", ".pytea_cache"))
        return dest


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Session]:
    return {doc: Session(tmp_path_factory.mktemp(doc.stem), doc) for doc in DOCS}


def test_every_command_and_output_block_says_how_it_is_tested() -> None:
    missing = [b.id for b in ALL if b.lang in COMMANDS + OUTPUTS and b.directive is None]
    assert not missing, f"blocks without a <!-- doc-test: ... --> directive: {missing}"
    unknown = [(b.id, b.directive) for b in ALL if b.directive is not None
               and b.kind not in ("run", "output", "skip", "synopsis")]
    assert not unknown, unknown
    bare_skips = [b.id for b in ALL if b.kind == "skip" and not re.match(r"skip:\s*\S", b.directive or "")]
    assert not bare_skips, f"a skip states its reason: {bare_skips}"
    pip = [b.id for b in ALL if b.kind == "run" and re.search(r"\bpip ", b.text) and "pip" not in (b.directive or "")[3:]]
    assert not pip, f"a run block with a pip step says in its directive that the environment satisfies it: {pip}"


def test_every_plain_output_block_follows_a_run_block() -> None:
    for doc in DOCS:
        previous = None
        for b in blocks(doc):
            if b.kind == "output" and "$" not in (b.directive or ""):
                assert previous is not None and previous.kind == "run" and previous.lang != "console", b.id
            previous = b


RUN = [b for b in ALL if b.kind in ("run", "output", "synopsis")]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("block", RUN, ids=lambda b: b.id)
def test_doc_block(block: Block, sessions: dict[Path, Session]) -> None:
    if shutil.which("pytea-ci", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("the pytea-ci command is not installed beside this Python")
    session = sessions[block.doc]
    if block.kind == "synopsis":
        _check_synopsis(block, session)
    elif block.kind == "run" and block.lang == "console":
        _check_console(block, session)
    elif block.kind == "run":
        p = session.run_through(block.line)
        assert p is not None
        nxt = [b for b in blocks(block.doc) if b.line > block.line][:1]
        if not (nxt and nxt[0].kind == "output" and "$" not in (nxt[0].directive or "")):
            assert p.returncode == 0, p.stdout + p.stderr
    else:
        _check_output(block, session)


def _check_console(block: Block, session: Session) -> None:
    session.run_through(block.line)
    parts = re.split(r"^\$ (.*)\n", block.text, flags=re.MULTILINE)
    assert parts[0].strip() == "" and len(parts) > 1, "a console block starts with a `$ command` line"
    for command, expected in zip(parts[1::2], parts[2::2]):
        p = session.sh(command)
        assert normal(p.stdout, session.root) == normal(expected), f"$ {command}\n{p.stdout}{p.stderr}"
        assert p.returncode == (1 if shows_error(expected) else 0), p.stdout + p.stderr


def _check_output(block: Block, session: Session) -> None:
    options, _, command = (block.directive or "")[len("output"):].partition("$ ")
    opts = dict(o.split("=", 1) if "=" in o else (o, "") for o in options.split())
    if command:
        session.run_through(block.line)
        p = session.sh(command, session.folder(opts["in"]) if "in" in opts else None)
    else:
        ran = session.run_through(block.line)
        assert ran is not None, f"{block.id}: no run block before this output"
        p = ran
    if "json" in opts:
        got: Any = json.loads(p.stdout)
        for key in filter(None, opts["json"].split(".")):
            got = got[int(key)] if isinstance(got, list) else got[key]
        assert normal_json(got) == normal_json(json.loads(block.text)), json.dumps(got, indent=1)
    elif "excerpt" in opts:
        _check_excerpt(normal(block.text), normal(p.stdout, session.root), p.stdout + p.stderr)
    else:
        assert normal(p.stdout, session.root) == normal(block.text), p.stdout + p.stderr
    assert p.returncode == (1 if shows_error(block.text) else 0), p.stdout + p.stderr


def _check_excerpt(want: list[str], got: list[str], shown: str) -> None:
    """Each line of `want` in `got`, in order; a `...` line skips any number of lines, and the
    lines between two gaps are consecutive."""
    at, gap = 0, True
    for line in want:
        if line.strip() == "...":
            gap = True
            continue
        found = got.index(line, at) if gap and line in got[at:] else at if got[at:at + 1] == [line] else -1
        assert found >= 0, f"not printed (in this order): {line!r}\n{shown}"
        at, gap = found + 1, False


def _check_synopsis(block: Block, session: Session) -> None:
    helps = ""
    for command in sorted(set(re.findall(r"^pytea-ci ([a-z]+(?: (?:write|merge))?)", block.text, re.MULTILINE))):
        p = session.sh(f"pytea-ci {command} --help")
        assert p.returncode == 0, f"pytea-ci {command} --help\n{p.stderr}"
        helps += p.stdout
    unknown = sorted({o for o in re.findall(r"(?<![\w-])--(?:\[no-\])?([a-z][a-z-]*)", block.text)
                      if f"--{o}" not in helps and f"--no-{o}" not in helps})
    assert not unknown, f"{block.id}: options no --help names: {unknown}"


def test_every_file_the_feature_table_names_exists() -> None:
    """The README's "where each feature lives" table names files and folders that exist (a bare file name
    is in the folder of the path before it in the row, as in `interp/stmts.py`, `exprs.py`)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    table = text[text.index("| feature | home |"):]
    table = table[:table.index("\n\n")]
    missing = []
    for row in table.splitlines()[2:]:
        folder = "pytea_ci"
        for name in re.findall(r"`([\w./-]+\.(?:py|yml)|[\w./-]+/)`", row.rsplit("|", 2)[1]):
            if name.endswith(".yml") and "/" not in name:
                path = name
            elif "/" in name.rstrip("/"):
                path = name if name.startswith("pytea_ci/") else f"pytea_ci/{name}"
            else:
                path = f"{folder}/{name}"
            folder = path.rstrip("/") if path.endswith("/") else os.path.dirname(path)
            if not (REPO / path).exists():
                missing.append((row.split("|")[1].strip(), name, path))
    assert not missing, missing
