"""The command line: exit codes, bad input handled without tracebacks, formats, rule docs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytea_ci.cli import main
from pytea_ci.diagnostics.result import EntryResult
from pytea_ci.driver import run as driver_run

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert "pytea-ci 0.1.0" in capsys.readouterr().out


def test_clean_example_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(EXAMPLES / "mnist" / "main.py")]) == 0
    out = capsys.readouterr().out
    assert "PT00" not in out and "0 error(s)" in out


@pytest.fixture()
def mnist_bug(tmp_path: Path) -> Path:
    """The bundled example with `nn.Linear(320, 50)` changed to `nn.Linear(500, 50)`."""
    source = (EXAMPLES / "mnist" / "main.py").read_text()
    assert "nn.Linear(320, 50)" in source
    path = tmp_path / "main.py"
    path.write_text(source.replace("nn.Linear(320, 50)", "nn.Linear(500, 50)"))
    return path


def test_buggy_example_reports_linear_mismatch(mnist_bug: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--root", str(mnist_bug.parent), str(mnist_bug)]) == 1
    out = capsys.readouterr().out
    findings = [line for line in out.splitlines() if ": PT0" in line]
    assert len(findings) == 1
    assert ":28:" in findings[0] and "PT001 [shape-mismatch]" in findings[0]
    assert "320" in findings[0] and "500" in findings[0]
    assert "in_features = 500: literal" in out and "input features = 320: literal" in out


def test_missing_file_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "no/such/file.py"]) == 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0 and "no such file" in err


def test_parse_error_reported_as_pt012(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import torch\nx = (1,\n")
    assert main(["check", "--root", str(tmp_path), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "bad.py:2:" in out and "PT012 [parse-error]" in out


def test_internal_error_isolated_to_its_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    good, boom = tmp_path / "good.py", tmp_path / "boom.py"
    good.write_text("import torch\nx = torch.randn(2, 3).view(4, 2)\n")
    boom.write_text("import torch\n")
    real = driver_run.analyze_entry

    def flaky(entry: str, *args: object, **kwargs: object) -> EntryResult:
        if entry.endswith("boom.py"):
            raise KeyError("simulated analyzer bug")
        return real(entry, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(driver_run, "analyze_entry", flaky)
    code = main(["check", "--root", str(tmp_path), str(boom), str(good)])
    out = capsys.readouterr().out
    assert code == 2
    assert "internal error: KeyError" in out
    assert "good.py:2:" in out and "PT001" in out


def test_json_output(mnist_bug: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "out.json"
    code = main(["check", str(mnist_bug), "--format", "text", "--format", "json",
                 "--output", str(tmp_path / "out.txt"), "--output", str(out_file)])
    assert code == 1
    data = json.loads(out_file.read_text())
    assert data["version"] == 2
    assert [d["rule"] for d in data["diagnostics"]] == ["PT001"]
    assert "PT001" in (tmp_path / "out.txt").read_text()


def test_rules_and_rule_docs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    assert "PT001  shape-mismatch" in capsys.readouterr().out
    assert main(["rule", "shape-mismatch"]) == 0
    doc = capsys.readouterr().out
    for section in ("What it does", "Why is this bad?", "Example", "Use instead"):
        assert section in doc
    assert main(["rule", "PT999"]) == 2


def test_never_imports_torch_nor_runs_the_program(tmp_path: Path) -> None:
    marker = tmp_path / "executed.txt"
    prog = tmp_path / "prog.py"
    prog.write_text(
        "import sys\nimport torch\n"
        f"open({str(marker)!r}, 'w').write('ran')\n"
        "x = torch.randn(4, 5)\ny = x.view(3, -1)\n"
        "sys.exit(3)\n")
    code = (
        "import sys\n"
        "for name in ('torch', 'numpy', 'torchvision'):\n"
        "    sys.modules[name] = None  # importing them now raises ImportError\n"
        "from pytea_ci.cli import main\n"
        f"rc = main(['check', '--root', {str(tmp_path)!r}, {str(prog)!r}])\n"
        "assert not any(sys.modules.get(m) for m in ('torch', 'numpy')), 'analyzer imported torch'\n"
        "sys.exit(rc)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "prog.py:5:" in p.stdout and "PT001" in p.stdout
    assert not marker.exists(), "the analyzed program was executed"


def test_python_dash_m_entry() -> None:
    p = subprocess.run([sys.executable, "-m", "pytea_ci", "--version"], capture_output=True, text=True,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 0 and "pytea-ci" in p.stdout


def test_sarif_merge_command(mnist_bug: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two shards' SARIF merge into one run holding both shards' findings; mismatches exit 2."""
    good = tmp_path / "ok" / "main.py"
    good.parent.mkdir()
    good.write_text((EXAMPLES / "mnist" / "main.py").read_text())
    a, b, merged = tmp_path / "a.sarif", tmp_path / "b.sarif", tmp_path / "all.sarif"
    root = str(tmp_path)
    main(["check", "--root", root, "--no-cache", str(mnist_bug), "--format", "sarif", "--output", str(a)])
    main(["check", "--root", root, "--no-cache", str(good), "--format", "sarif", "--output", str(b)])
    assert main(["sarif", "merge", str(a), str(b), "-o", str(merged)]) == 0
    runs = json.loads(merged.read_text())["runs"]
    assert len(runs) == 1 and [r["ruleId"] for r in runs[0]["results"]] == ["PT001"]
    assert main(["sarif", "merge", str(a), str(tmp_path / "missing.sarif")]) == 2
    assert "missing.sarif" in capsys.readouterr().err


def test_sarif_paths_are_relative_to_the_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A project in a sub-folder of the repository: SARIF and annotations name `ml/main.py`."""
    repo = tmp_path / "repo"
    project = repo / "ml"
    project.mkdir(parents=True)
    (repo / ".git").mkdir()  # enough for the work-tree lookup
    (project / "pyproject.toml").write_text("[tool.pytea-ci]\n")
    (project / "main.py").write_text("import torch\nx = torch.randn(2, 3).view(7)\n")
    out = tmp_path / "out.sarif"
    monkeypatch.chdir(project)
    assert main(["check", "main.py", "--no-cache", "--format", "sarif", "--output", str(out),
                 "--format", "text", "--output", str(tmp_path / "out.txt")]) == 1
    loc = json.loads(out.read_text())["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "ml/main.py" and loc["region"]["startLine"] == 2
    assert (tmp_path / "out.txt").read_text().startswith("main.py:2:")
