"""The command line as a user meets it: reports that cannot go to the wrong place, a help text for
every option, errors in the usage of the command that got them, Ctrl-C as the shell expects."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import pytest

from pytea_ci.cli import main
from pytea_ci.cli.common import UsageError
from pytea_ci.cli.outputs import Destination, plan
from pytea_ci.cli.parser import build_parser
from tests.driver.conftest import write_project


@pytest.mark.parametrize(("formats", "outputs", "expected"), [
    (None, None, [Destination("text", None)]),
    (["text", "sarif"], ["a.sarif"], [Destination("sarif", "a.sarif"), Destination("text", None)]),
    (["sarif", "text"], ["a.sarif"], [Destination("sarif", "a.sarif"), Destination("text", None)]),
    (["sarif"], ["results.json"], [Destination("sarif", "results.json")]),
    (["json"], ["report"], [Destination("json", "report")]),
    (None, ["a.sarif"], [Destination("sarif", "a.sarif"), Destination("text", None)]),
    (None, ["out.txt"], [Destination("text", "out.txt")]),
    (["json", "sarif"], ["json=r.out", "sarif=s.out"], [Destination("json", "r.out"), Destination("sarif", "s.out")]),
    (["text"], ["sarif=x"], [Destination("sarif", "x"), Destination("text", None)]),
])
def test_output_plan(formats: list[str] | None, outputs: list[str] | None, expected: list[Destination]) -> None:
    assert plan(formats, outputs) == expected


@pytest.mark.parametrize(("formats", "outputs", "says"), [
    (["json", "sarif"], None, "both go to stdout"),
    (["text", "json"], ["report.bin"], "cannot tell which format"),
    (["json"], ["a.sarif"], "looks like sarif"),
    (["text", "github"], ["x.json"], "no --format asks for"),
    (["json"], ["json="], "expected json=FILE"),
])
def test_ambiguous_outputs_are_usage_errors(formats: list[str], outputs: list[str] | None, says: str) -> None:
    with pytest.raises(UsageError, match=says):
        plan(formats, outputs)


def _in(folder: Path, argv: list[str]) -> int:
    saved = os.getcwd()
    os.chdir(folder)
    try:
        return main(argv)
    finally:
        os.chdir(saved)


def test_two_formats_to_stdout_exit_2_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "p")
    assert _in(root, ["check", "a.py", "--format", "json", "--format", "sarif"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "json and sarif would both go to stdout" in err and err.count("\n") == 1


def test_output_folder_is_created_and_short_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "p")
    code = _in(root, ["check", "a.py", "-o", "reports/nested/x.sarif"])
    out = capsys.readouterr().out
    assert code in (0, 1) and "Analyzed 1 entry point" in out  # the text report stays on the terminal
    assert json.loads((root / "reports/nested/x.sarif").read_text())["version"] == "2.1.0"


def _walk(parser: argparse.ArgumentParser, prog: str = "pytea-ci"):  # type: ignore[no-untyped-def]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _walk(sub, f"{prog} {name}")
        elif not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            yield prog, action


def test_every_option_of_every_command_has_a_help_text() -> None:
    missing = [f"{prog}: {'/'.join(a.option_strings) or a.dest}" for prog, a in _walk(build_parser())
               if not (a.help or "").strip()]
    assert not missing, missing
    assert len(list(_walk(build_parser()))) > 60  # the walk reached the subcommands


def test_unknown_option_shows_the_usage_of_its_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["check", "--frobnicate"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.startswith("usage: pytea-ci check") and "--frobnicate" in err


def test_explain_help_is_explains(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["explain", "--help"])
    assert capsys.readouterr().out.startswith("usage: pytea-ci explain")


@pytest.mark.parametrize(("argv", "shown"), [(["cache"], "{info,clear}"), (["baseline"], "{write}"),
                                             (["sarif"], "{merge}")])
def test_missing_action_names_the_choices_not_internal_names(argv: list[str], shown: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(argv)
    err = capsys.readouterr().err
    assert shown in err and "_command" not in err and "required: action" not in err


def test_baseline_write_takes_the_analysis_options() -> None:
    ns = build_parser().parse_args(["baseline", "write", "--symbolic", "batch_size=1..8", "--python", "/x",
                                    "--library-mode", "never", "--time-budget", "3"])
    assert ns.symbolic == ["batch_size=1..8"] and ns.library_mode == "never" and ns.time_budget == 3


def test_ctrl_c_exits_130_with_a_message(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import pytea_ci.cli as cli

    def interrupted(args: list[str]) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_main", interrupted)
    assert main(["check"]) == 130
    assert capsys.readouterr().err == "pytea-ci: interrupted\n"


def _bug_project(tmp_path: Path, comment: str) -> Path:
    root = tmp_path / "p"
    root.mkdir()
    (root / "main.py").write_text("import torch\n\nif __name__ == '__main__':\n"
                                  f"    y = torch.randn(2, 3).view(7)  {comment}\n")
    return root


@pytest.mark.parametrize("comment", ["# pytea: ignore[shape-mismatch]", "# pytea: ignore[PT001]",
                                     "# pytea: ignore[pt001, PT002]", "# pytea: ignore"])
def test_suppression_by_id_or_slug(tmp_path: Path, comment: str, capsys: pytest.CaptureFixture[str]) -> None:
    root = _bug_project(tmp_path, comment)
    assert _in(root, ["check", "main.py", "--no-cache"]) == 0
    assert "names no rule" not in capsys.readouterr().err


def test_unknown_rule_in_suppression_warns_and_suppresses_nothing(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    root = _bug_project(tmp_path, "# pytea: ignore[PT01]")
    assert _in(root, ["check", "main.py", "--no-cache"]) == 1
    err = capsys.readouterr().err
    assert "main.py:4: # pytea: ignore[PT01] names no rule" in err


def _git(cwd: Path, *args: str) -> None:
    import subprocess

    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t"})


def test_diff_in_a_repository_without_commits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _bug_project(tmp_path, "")
    _git(root, "init", "-q")
    assert _in(root, ["check", "--diff", "HEAD"]) == 2
    err = capsys.readouterr().err
    assert err == "pytea-ci: error: --diff HEAD: the repository has no commit yet; commit once, or check without --diff\n"


def test_staged_with_nothing_staged_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _bug_project(tmp_path, "")
    _git(root, "init", "-q")
    _git(root, "add", "main.py")
    _git(root, "commit", "-qm", "init")
    assert _in(root, ["check", "--staged", "--no-cache"]) == 0
    assert "--staged: nothing is staged" in capsys.readouterr().err


@pytest.mark.parametrize("target", ["broken.py", "broken.py::B", "."])
def test_shapes_of_a_file_that_does_not_parse_is_a_pt012(tmp_path: Path, target: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "broken.py").write_text("import torch.nn as nn\nclass B(nn.Module):\n    def forward(self, x:\n"
                                        "        return x\n")
    assert _in(tmp_path, ["shapes", target]) == 1
    out = capsys.readouterr().out
    assert out.startswith("broken.py:3:16: PT012 [parse-error] error: syntax error")


@pytest.mark.parametrize(("value", "code"), [("abc", 2), ("3.5", 2), ("16", 1), ("'16'", 1)])
def test_arg_value_argparse_would_reject_is_a_usage_error(tmp_path: Path, value: str, code: int,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "main.py").write_text(
        "import argparse\nimport torch\n\nif __name__ == '__main__':\n    p = argparse.ArgumentParser()\n"
        "    p.add_argument('--batch-size', type=int, default=8)\n    a = p.parse_args()\n"
        "    torch.randn(a.batch_size, 3).view(7)\n")
    assert _in(tmp_path, ["check", "main.py", "--no-cache", "--arg", f"batch_size={value}"]) == code
    err = capsys.readouterr().err
    if code == 2:
        assert "the program declares batch_size with type=int" in err and err.count("\n") == 1


@pytest.mark.parametrize(("config", "found"), [("", False), ("library-tests = true\n", True)])
def test_test_fixtures_are_no_library_targets_of_a_whole_project_run(tmp_path: Path, config: str, found: bool,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.pytea-ci]\n{config}")
    fixtures = tmp_path / "tests" / "fixtures"
    fixtures.mkdir(parents=True)
    (fixtures / "net.py").write_text("import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n"
                                     "    def __init__(self):\n        super().__init__()\n"
                                     "        self.fc = nn.Linear(4, 2)\n\n    def forward(self, x):\n"
                                     "        return self.fc(x.view(-1, 5))\n")
    assert _in(tmp_path, ["check", "--no-cache", "--format", "json"]) == (1 if found else 0)
    doc = json.loads(capsys.readouterr().out)
    assert any("tests/fixtures/net.py::Net" in e["entry"] for e in doc["entries"]) == found


def test_progress_covers_the_modules_checked_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "model.py").write_text("import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n"
                                       "        super().__init__()\n        self.fc = nn.Linear(4, 2)\n\n"
                                       "    def forward(self, x):\n        return self.fc(x)\n")
    assert _in(tmp_path, ["check", "--no-cache", "--progress", "model.py"]) == 0
    assert "[1/1] module model.py::Net" in capsys.readouterr().err


def test_nothing_checked_in_a_torch_program_is_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A script whose tensor work happens in libraries the analyzer cannot follow: 'checked 0 of 0' was
    the whole story, with no PT013."""
    (tmp_path / "main.py").write_text("import torch\nimport timm\nimport foolib\n\nif __name__ == '__main__':\n"
                                      "    m = timm.create_model('resnet18')\n    y = m(foolib.load())\n")
    assert _in(tmp_path, ["check", "--no-cache", "main.py"]) == 0
    assert "PT013 [nothing-checked] note: nothing checked" in capsys.readouterr().out


def test_an_excluded_file_given_says_exclude_and_checks_nothing(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.pytea-ci]\nexclude = ["legacy.py"]\n')
    (tmp_path / "legacy.py").write_text("import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n"
                                        "    def __init__(self):\n        super().__init__()\n"
                                        "        self.fc = nn.Linear(4, 2)\n\n    def forward(self, x):\n"
                                        "        return self.fc(x)\n\n\nif __name__ == '__main__':\n"
                                        "    torch.randn(2, 3).view(7)\n")
    assert _in(tmp_path, ["check", "--no-cache", "legacy.py"]) == 0
    out, err = capsys.readouterr()
    assert "legacy.py: matches `exclude` in pyproject.toml; nothing was checked" in err
    assert "checked 0 of 0 tensor operations" in out and "Analyzed 0 entry points:" in out


def test_no_entry_point_but_modules_checked_alone_tells_one_story(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.pytea-ci]\n")
    (tmp_path / "model.py").write_text("import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n"
                                       "        super().__init__()\n        self.fc = nn.Linear(4, 2)\n\n"
                                       "    def forward(self, x):\n        return self.fc(x)\n")
    assert _in(tmp_path, ["check", "--no-cache"]) == 0
    out, err = capsys.readouterr()
    assert "no entry point found" in err and "only 1 module(s) were checked alone" in err
    assert "nothing was checked" not in err and "1 module alone" in out


@pytest.mark.parametrize(("features", "says"), [
    (784, "input features = 490: the -1 of view(64, -1): 40*1*28*28 / 64 = 490 (40: the last batch of this "
          "DataLoader: 1000 % 64 = 40)"),
])
def test_the_short_last_batch_finding_shows_which_batch_and_the_arithmetic(
        tmp_path: Path, features: int, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "main.py").write_text(
        "import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader, TensorDataset\n\n"
        "ds = TensorDataset(torch.randn(1000, 1, 28, 28), torch.randint(0, 10, (1000,)))\n"
        f"loader = DataLoader(ds, batch_size=64)\nfc = nn.Linear({features}, 10)\nfor x, y in loader:\n"
        "    out = fc(x.view(64, -1))\n")
    assert _in(tmp_path, ["check", "--no-cache", "--format", "json", "main.py"]) == 1
    (d,) = json.loads(capsys.readouterr().out)["diagnostics"]
    assert "490 features" in d["message"] and says in [r["message"] for r in d["related"]]


def test_dtype_origin_survives_a_dataset_and_views(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "main.py").write_text(
        "import torch\nimport torch.nn.functional as F\nfrom torch.utils.data import DataLoader, TensorDataset\n\n"
        "x = torch.randn(100, 8)\ny = torch.randint(0, 4, (100,)).float()\n"
        "loader = DataLoader(TensorDataset(x, y), batch_size=10)\nw = torch.randn(8, 4)\n"
        "for xb, yb in loader:\n    loss = F.nll_loss(F.log_softmax(xb @ w, dim=1), yb.view(-1, 1).squeeze(1))\n")
    assert _in(tmp_path, ["check", "--no-cache", "main.py"]) == 1
    assert "= target dtype = float32: .float() (main.py:6:5)" in capsys.readouterr().out


def test_one_module_built_two_ways_is_two_entries_told_apart(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "model.py").write_text("import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self, d):\n"
                                       "        super().__init__()\n        self.fc = nn.Linear(d, 4)\n\n"
                                       "    def forward(self, x):\n        return self.fc(x)\n\n\na = Net(4)\nb = Net(8)\n")
    _in(tmp_path, ["check", "--no-cache", "--format", "json", "model.py"])
    entries = [(e["entry"], e.get("construction")) for e in json.loads(capsys.readouterr().out)["entries"]]
    assert ("model.py::Net", "Net(4) at model.py:13") in entries and ("model.py::Net", "Net(8) at model.py:14") in entries
