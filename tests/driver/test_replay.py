"""The replay fast path (driver/replay.py, driver/fs.py): an unchanged `check` prints exactly what the
full run printed, and any change to what the full run depends on (a file's content, a module that
appears, a configuration, the environment, the working directory, the analyzer) takes the full run.
Whether a run was replayed is observed by counting calls to the full run (`driver.check.check`)."""

from __future__ import annotations

import ast
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from pytea_ci.cli import main
from pytea_ci.driver import check as check_mod
from pytea_ci.driver import fs, identity, replay
from tests.driver.conftest import HELPER_BUG, HELPER_OK, write_project


class Runner:
    """`pytea-ci check ARGS` in-process from `cwd`: (exit code, stdout, stderr, replayed?)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.full_runs = 0
        real = check_mod.check

        def counted(req: check_mod.CheckRequest) -> check_mod.CheckOutcome:
            self.full_runs += 1
            return real(req)

        monkeypatch.setattr(check_mod, "check", counted)

    def __call__(self, cwd: Path, *args: str) -> tuple[int, str, str, bool]:
        before = self.full_runs
        saved = os.getcwd()
        os.chdir(cwd)
        try:
            code = main(["check", "--jobs", "1", *args])
        finally:
            os.chdir(saved)
        out = self.capsys.readouterr()
        return code, out.out, out.err, self.full_runs == before


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Runner:
    for name in ("CI", "NO_COLOR", "GIT_DIR", "GIT_WORK_TREE"):
        monkeypatch.delenv(name, raising=False)
    return Runner(monkeypatch, capsys)


def _records(root: Path) -> list[Path]:
    return sorted((root / ".pytea_cache" / "replay").glob("*/*.replay"))


def _warm(run: Runner, root: Path, *args: str) -> tuple[int, str, str]:
    """Analyze, then a cached run that records; returns the recorded run's (code, stdout, stderr)."""
    _, _, _, replayed = run(root, *args)
    assert not replayed
    code, out, err, replayed = run(root, *args)
    assert not replayed
    return code, out, err


def test_unchanged_run_is_replayed_exactly(tmp_path: Path, run: Runner) -> None:
    root = write_project(tmp_path / "p", helper=HELPER_BUG)
    code, out, err, replayed = run(root, "a.py")
    assert not replayed and code == 1 and not _records(root)  # it analyzed: nothing recorded yet
    recorded = run(root, "a.py")
    assert recorded[3] is False and len(_records(root)) == 1
    again = run(root, "a.py")
    assert again[3] is True
    assert again[:3] == recorded[:3] and "PT001" in again[1]


def test_json_and_sarif_on_stdout_are_replayed(tmp_path: Path, run: Runner) -> None:
    root = write_project(tmp_path / "p", helper=HELPER_BUG)
    run(root, "a.py")  # analyzed: the formats below start from the result cache
    for fmt in ("json", "sarif"):
        recorded = run(root, "--format", fmt, "a.py")
        assert not recorded[3]
        code, out, err, replayed = run(root, "--format", fmt, "a.py")
        assert replayed and (code, out, err) == recorded[:3]
        json.loads(out)


def test_same_content_new_mtime_is_still_replayed(tmp_path: Path, run: Runner) -> None:
    root = write_project(tmp_path / "p")
    recorded = _warm(run, root, "a.py")
    (root / "helper.py").write_text(HELPER_OK)  # rewritten, same bytes: contents count, not mtimes
    os.utime(root / "a.py", (1, 1))
    code, out, err, replayed = run(root, "a.py")
    assert replayed and (code, out, err) == recorded


def _edit_helper(root: Path) -> None:
    (root / "helper.py").write_text(HELPER_BUG)


def _edit_entry(root: Path) -> None:
    (root / "a.py").write_text((root / "a.py").read_text() + "\n# edited\n")


def _shadow_torch(root: Path) -> None:
    (root / "torch.py").write_text("zeros = None\n")  # `import torch` would now find this file


def _delete_helper(root: Path) -> None:
    (root / "helper.py").unlink()


def _configure(root: Path) -> None:
    (root / "pyproject.toml").write_text('[tool.pytea-ci]\nseverity = { PT001 = "warning" }\n')


def _configure_above(root: Path) -> None:
    (root.parent / "pyproject.toml").write_text('[tool.pytea-ci]\ndisable = ["PT001"]\n')


def _new_folder_module(root: Path) -> None:
    (root / "helper").mkdir()
    (root / "helper" / "__init__.py").write_text(HELPER_OK)


MUTATIONS: dict[str, Callable[[Path], None]] = {
    "imported module edited": _edit_helper,
    "entry point edited": _edit_entry,
    "a module that shadows an import appears": _shadow_torch,
    "imported module deleted": _delete_helper,
    "configuration added at the root": _configure,
    "configuration added above the root": _configure_above,
    "a package appears beside the module": _new_folder_module,
}


@pytest.mark.parametrize("mutate", MUTATIONS.values(), ids=list(MUTATIONS))
def test_any_change_takes_the_full_run(tmp_path: Path, run: Runner, mutate: Callable[[Path], None]) -> None:
    root = write_project(tmp_path / "p")
    _warm(run, root, "a.py")
    mutate(root)
    code, out, err, replayed = run(root, "a.py")
    assert not replayed
    # what it printed is what a run with no record at all prints (but for the timing summary line)
    for record in _records(root):
        record.unlink()
    code2, out2, err2, _ = run(root, "a.py")
    assert (code, _findings(out), err) == (code2, _findings(out2), err2)


def _findings(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("Analyzed ")]


def test_whole_project_run_sees_a_new_entry_point(tmp_path: Path, run: Runner) -> None:
    root = write_project(tmp_path / "p")
    _warm(run, root)
    (root / "c.py").write_text("import torch\n\nif __name__ == '__main__':\n    torch.zeros(2, 3).view(7)\n")
    code, out, _, replayed = run(root)
    assert not replayed and code == 1 and "c.py" in out


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"CI": "true"}])
def test_environment_is_part_of_the_invocation(tmp_path: Path, run: Runner, monkeypatch: pytest.MonkeyPatch,
                                               env: dict[str, str]) -> None:
    root = write_project(tmp_path / "p")
    _warm(run, root, "a.py")
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert run(root, "a.py")[3] is False


def test_another_working_directory_or_arguments_take_the_full_run(tmp_path: Path, run: Runner) -> None:
    root = write_project(tmp_path / "p")
    (root / "sub").mkdir()
    _warm(run, root, "a.py")
    assert run(root / "sub", "--root", str(root), str(root / "a.py"))[3] is False
    assert run(root, "--fail-on", "warning", "a.py")[3] is False


def test_another_analyzer_takes_the_full_run(tmp_path: Path, run: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    root = write_project(tmp_path / "p")
    _warm(run, root, "a.py")
    monkeypatch.setattr(identity, "analyzer_hash", lambda: "another analyzer")
    assert run(root, "a.py")[3] is False


@pytest.mark.parametrize("garbage", ["", "{not json", "[]", '{"format": 1}', "\x00\x01"])
def test_unreadable_records_take_the_full_run(tmp_path: Path, run: Runner, garbage: str) -> None:
    root = write_project(tmp_path / "p", helper=HELPER_BUG)
    recorded = _warm(run, root, "a.py")
    (record,) = _records(root)
    record.write_text(garbage)
    code, out, err, replayed = run(root, "a.py")
    assert not replayed and (code, _findings(out), err) == (recorded[0], _findings(recorded[1]), recorded[2])


@pytest.mark.parametrize("args", [["--no-cache"], ["--format", "github"], ["--format", "json", "--output", "OUT"]])
def test_runs_with_side_effects_or_no_cache_are_not_recorded(tmp_path: Path, run: Runner, args: list[str]) -> None:
    root = write_project(tmp_path / "p")
    args = [str(tmp_path / "out.json") if a == "OUT" else a for a in args]
    for _ in range(3):
        assert run(root, *args, "a.py")[3] is False
    assert not _records(root)


def test_explicit_cache_dir_is_searched(tmp_path: Path, run: Runner) -> None:
    root = write_project(tmp_path / "p")
    cache = tmp_path / "elsewhere"
    recorded = _warm(run, root, "--cache-dir", str(cache), "a.py")
    assert list((cache / "replay").glob("*/*.replay"))
    code, out, err, replayed = run(root, "--cache-dir", str(cache), "a.py")
    assert replayed and (code, out, err) == recorded


def test_walk_matches_os_walk(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "x.py").write_text("")
    (tmp_path / "a" / "b" / "y.py").write_text("")
    (tmp_path / "skip").mkdir()
    (tmp_path / "skip" / "z.py").write_text("")
    (tmp_path / "link").symlink_to(tmp_path / "a", target_is_directory=True)
    (tmp_path / "f.py").write_text("")

    def walked(walker: Callable[[str], object]) -> list[tuple[str, list[str], list[str]]]:
        out = []
        for dirpath, dirnames, files in walker(str(tmp_path)):  # type: ignore[attr-defined]
            dirnames[:] = sorted(d for d in dirnames if d != "skip")
            out.append((dirpath, list(dirnames), sorted(files)))
        return out

    assert walked(fs.walk) == walked(os.walk)


def test_journal_records_each_question_and_a_change_during_the_run(tmp_path: Path) -> None:
    f = tmp_path / "m.py"
    f.write_text("x = 1\n")
    journal = fs.open_journal()
    try:
        assert fs.read(str(f)) == b"x = 1\n" and not fs.isfile(str(tmp_path / "absent.py"))
        assert fs.unchanged([[k, p, a] for (k, p), a in journal.facts.items()])
        f.write_text("x = 2\n")
        fs.read(str(f))
    finally:
        fs.close_journal()
    assert not journal.replayable
    assert not fs.unchanged([["read", str(f), journal.facts[("read", str(f))]]])


SELECTION = ("config.py", "discover.py", "select.py", "imports_graph.py", "check.py", "results.py")
DIRECT = {"os.path.isfile", "os.path.isdir", "os.path.exists", "os.path.lexists", "os.path.realpath",
          "os.path.getsize", "os.walk", "os.listdir", "os.scandir", "glob.glob", "glob.iglob", "open"}


def _direct_calls(tree: ast.AST) -> list[str]:
    return [f"{ast.unparse(n.func)} (line {n.lineno})" for n in ast.walk(tree)
            if isinstance(n, ast.Call) and ast.unparse(n.func) in DIRECT]


def test_selection_asks_the_file_system_only_through_fs() -> None:
    """What the replay re-asks must be everything the selection asked: a direct call would be missed."""
    folder = Path(fs.__file__).parent
    found = {name: _direct_calls(ast.parse((folder / name).read_text())) for name in SELECTION}
    gitdiff = ast.parse((folder / "gitdiff.py").read_text())
    (work_tree,) = [n for n in ast.walk(gitdiff) if isinstance(n, ast.FunctionDef) and n.name == "work_tree"]
    found["gitdiff.py:work_tree"] = _direct_calls(work_tree)
    assert not {k: v for k, v in found.items() if v}


def test_record_format_round_trips_any_output() -> None:
    tricky = "stdout\t3\nfact\tread\t/x\t-\n\r\nünïcode ✓\n"
    doc = {"key": "k", "analyzer": "a", "code": 1, "stdout": tricky, "stderr": tricky[::-1],
           "facts": [["read", "/p/a b.py", "d1"], ["isfile", "/p/c.py", "0"]]}
    text = replay._dump(doc)
    assert text is not None and replay._load(text) == doc
    for cut in (1, len(text) // 2, len(text) - 1):
        assert replay._load(text[:cut]) is None  # truncated
    assert replay._load(text + "x") is None
    assert replay._dump({**doc, "facts": [["read", "/p/new\nline.py", "d"]]}) is None


def test_truncated_record_takes_the_full_run(tmp_path: Path, run: Runner) -> None:
    root = write_project(tmp_path / "p", helper=HELPER_BUG)
    recorded = _warm(run, root, "a.py")
    (record,) = _records(root)
    record.write_text(record.read_text()[:-5])
    code, out, err, replayed = run(root, "a.py")
    assert not replayed and (code, _findings(out), err) == (recorded[0], _findings(recorded[1]), recorded[2])


def test_explicit_root_is_searched_from_elsewhere(tmp_path: Path, run: Runner) -> None:
    root = write_project(tmp_path / "p")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    args = ("--root", str(root), str(root / "a.py"))
    recorded = _warm(run, elsewhere, *args)
    code, out, err, replayed = run(elsewhere, *args)
    assert replayed and (code, out, err) == recorded
