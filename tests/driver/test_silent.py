"""Runs that would check less than asked say so: one line on stderr (a SARIF notification too), exit 2
where the run cannot mean what was asked; git failures are one line with exit 2; a closed pipe ends
the output quietly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytea_ci.cli import main
from tests.driver.conftest import entries, git, make_repo, run_json, write_project

ARGPARSE_PY = ("import argparse\nimport torch\n\n\ndef main():\n    p = argparse.ArgumentParser()\n"
               "    p.add_argument('--batch-size', type=int, default=4)\n    args = p.parse_args()\n"
               "    x = torch.randn(args.batch_size, 3)\n    return x.view(-1)\n\n\n"
               "if __name__ == \"__main__\":\n    main()\n")


def _err_lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().err.splitlines()


def test_entry_point_glob_matching_nothing_warns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "p")
    (root / "pyproject.toml").write_text('[tool.pytea-ci]\nentry-points = ["a.py", "scripts/*.py"]\n')
    code, doc = run_json(root)
    err = _err_lines(capsys)
    assert code == 0 and list(entries(doc)) == ["a.py"]
    assert any("'scripts/*.py' matches no file" in line for line in err)


def test_entry_points_matching_nothing_at_all_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "p")
    (root / "pyproject.toml").write_text('[tool.pytea-ci]\nentry-points = ["train/*.py"]\n')
    code, doc = run_json(root)
    err = _err_lines(capsys)
    assert code == 2 and doc == {} and len(err) == 1 and "no entry point matches" in err[0]


def test_no_entry_point_discovered_warns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    (root / "util.py").write_text("def f():\n    return 1\n")
    code, doc = run_json(root)
    assert code == 0 and entries(doc) == {}
    assert any("no entry point found" in line and "nothing was checked" in line for line in _err_lines(capsys))


def test_a_folder_without_entry_points_has_its_modules_checked_alone(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    # a folder given as a path is what the root is without a path: its modules are checked alone
    # (library mode); it was exit 2, so `pytea-ci check models/` checked nothing
    root = write_project(tmp_path / "p")
    (root / "lib").mkdir()
    (root / "lib" / "util.py").write_text("def f():\n    return 1\n")
    code, doc = run_json(root, "lib")
    err = _err_lines(capsys)
    assert code == 0 and entries(doc) == {}
    assert len(err) == 1 and "no entry point found under lib" in err[0] and "nothing was checked" in err[0]
    code, doc = run_json(root, "lib", "a.py")  # another path selects something: a warning only
    assert code == 0 and list(entries(doc)) == ["a.py"]
    assert any("lib: no entry point in this folder" in line for line in _err_lines(capsys))
    (root / "lib" / "net.py").write_text("import torch.nn as nn\n\n\nclass Net(nn.Module):\n"
                                         "    def __init__(self):\n        super().__init__()\n"
                                         "        self.fc = nn.Linear(4, 2)\n\n    def forward(self, x):\n"
                                         "        return self.fc(x.view(x.size(0), 5))\n")
    code, doc = run_json(root, "lib")
    assert code == 1 and list(entries(doc)) == ["lib/net.py::Net"]
    assert any("no entry point found under lib" in line and "only 1 module(s) were checked alone" in line
               for line in _err_lines(capsys))
    code, _doc = run_json(root, "lib", "--library-mode", "never")  # nothing could check it: exit 2
    err = _err_lines(capsys)
    assert code == 2 and len(err) == 1 and "no entry point in lib" in err[0]


def test_given_files_no_entry_point_imports_say_what_library_mode_checked(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # the warning said "nothing was checked" and then library mode checked the file's module alone
    root = write_project(tmp_path / "p")
    (root / "pyproject.toml").write_text('[tool.pytea-ci]\nentry-points = ["a.py"]\n')
    (root / "net.py").write_text("import torch.nn as nn\n\n\nclass Net(nn.Module):\n"
                                 "    def __init__(self):\n        super().__init__()\n"
                                 "        self.fc = nn.Linear(4, 2)\n\n    def forward(self, x):\n"
                                 "        return self.fc(x)\n")
    (root / "util.py").write_text("def f():\n    return 1\n")
    code, doc = run_json(root, "net.py", "--library-mode", "only")
    err = _err_lines(capsys)
    assert code == 0 and list(entries(doc)) == ["net.py::Net"]
    assert [line for line in err if "none of the given files" in line] == [
        "pytea-ci: warning: none of the given files is an entry point or imported by one: "
        "only their 1 module(s) were checked alone (library mode)"]
    code, doc = run_json(root, "util.py")
    assert code == 0 and entries(doc) == {}
    assert any(line.endswith("none of the given files is an entry point or imported by one: nothing was checked")
               for line in _err_lines(capsys))


def test_unknown_arg_name_warns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "train.py").write_text(ARGPARSE_PY)
    code, _doc = run_json(root, "--arg", "batch_size=8")
    assert code == 0 and not any("override" in line for line in _err_lines(capsys))
    code, _doc = run_json(root, "--arg", "batch_sz=8")
    err = _err_lines(capsys)
    assert code == 0 and any(line.startswith("pytea-ci: warning: --arg batch_sz:") for line in err)
    (root / "pyproject.toml").write_text('[tool.pytea-ci]\n[tool.pytea-ci.args]\nepochs = 2\n')
    run_json(root)
    assert any("[tool.pytea-ci.args] epochs:" in line for line in _err_lines(capsys))


def test_unknown_arg_is_a_sarif_notification(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "train.py").write_text(ARGPARSE_PY)
    out = tmp_path / "out.sarif"
    saved = os.getcwd()
    os.chdir(root)
    try:
        main(["check", "--root", str(root), "--format", "sarif", "--output", str(out), "--arg", "lr=0.1"])
    finally:
        os.chdir(saved)
    notes = json.loads(out.read_text())["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["level"] for n in notes] == ["warning"] and "--arg lr" in notes[0]["message"]["text"]


@pytest.mark.parametrize("table", ["pytea_ci", "pytea"])
def test_misnamed_table_warns(tmp_path: Path, table: str, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "p")
    (root / "pyproject.toml").write_text(f'[tool.{table}]\nentry-points = ["b.py"]\n')
    code, doc = run_json(root)
    assert sorted(entries(doc)) == ["a.py", "b.py"]  # the table is not read
    assert any(f"[tool.{table}] is not read by pytea-ci" in line for line in _err_lines(capsys))


def test_output_file_takes_the_format_its_extension_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--format text --format sarif --output out.sarif`: SARIF into the file, text on the terminal (they were
    paired by position, which put the text report into out.sarif)."""
    root = write_project(tmp_path / "p")
    saved = os.getcwd()
    os.chdir(root)
    try:
        code = main(["check", "a.py", "--format", "text", "--format", "sarif", "--output", str(tmp_path / "out.sarif")])
    finally:
        os.chdir(saved)
    out = capsys.readouterr().out
    assert code in (0, 1) and "Analyzed 1 entry point" in out
    assert json.loads((tmp_path / "out.sarif").read_text())["version"] == "2.1.0"


def test_depth_1_clone_diff_head_1_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = make_repo(tmp_path / "origin")
    (repo / "b.py").write_text((repo / "b.py").read_text() + "\n")
    git(repo, "commit", "-qam", "second")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    code, doc = run_json(clone, "--diff", "HEAD~1")
    err = _err_lines(capsys)
    assert code == 2 and doc == {} and len(err) == 1
    assert "HEAD~1" in err[0] and "shallow clone" in err[0] and "Traceback" not in err[0]


def test_git_failure_is_one_line_exit_2(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _doc = run_json(repo, "--diff", "main...--output")
    err = _err_lines(capsys)
    assert code == 2 and len(err) == 1 and err[0].startswith("pytea-ci: error: ")


def test_closed_pipe_exits_quietly(tmp_path: Path) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written: every write fails with EPIPE
    try:
        p = subprocess.run([sys.executable, "-m", "pytea_ci", "rule", "PT001"], stdout=write, stderr=subprocess.PIPE,
                           text=True, timeout=60, cwd=tmp_path)
    finally:
        os.close(write)
    assert p.returncode == 0 and p.stderr == ""


def test_files_without_entry_points_say_nothing_was_checked(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "p")
    (root / "pyproject.toml").write_text('[tool.pytea-ci]\nentry-points = ["a.py"]\n')
    (root / "setup.py").write_text("print('setup')\n")
    code, doc = run_json(root, "setup.py")  # what pre-commit passes: not an error, but said
    assert code == 0 and entries(doc) == {}
    assert any("nothing was checked" in line for line in _err_lines(capsys))
