"""Configuration: every key read from [tool.pytea-ci] (or --config), CLI flags on top, and clear
errors (exit 2, naming the key) for unknown keys and wrong types."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytea_ci.driver import config
from pytea_ci.driver.config import ConfigError
from tests.driver.conftest import entries, findings, run_json, write_project

BATCH = ("import argparse\nimport torch\n\nif __name__ == \"__main__\":\n    p = argparse.ArgumentParser()\n"
         "    p.add_argument('--batch-size', type=int, default=4)\n    a = p.parse_args()\n"
         "    x = torch.randn(a.batch_size, 3)\n    y = x.view(12)\n")


def _project(tmp_path: Path, table: str) -> Path:
    root = write_project(tmp_path / "cfg")
    (root / "batch.py").write_text(BATCH)
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n\n[tool.pytea-ci]\n" + table)
    return root


def test_defaults_without_a_file(tmp_path: Path) -> None:
    cfg = config.load(str(tmp_path))
    assert cfg.fail_on == "error" and cfg.cache_dir == ".pytea_cache" and cfg.source == ""


@pytest.mark.parametrize("table, key", [
    ("entry_points = ['a.py']\n", "entry_points"),
    ("max-paths = 'many'\n", "max-paths"),
    ("fail-on = 'sometimes'\n", "fail-on"),
    ("severity = { PT999 = 'note' }\n", "severity"),
    ("disable = ['no-such-rule']\n", "disable"),
    ("symbolic = { n = [5, 1] }\n", "symbolic"),
    ("solver-timeout = true\n", "solver-timeout"),
])
def test_bad_keys_exit_2_naming_the_key(tmp_path: Path, table: str, key: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, table)
    code, _ = run_json(root)
    err = capsys.readouterr().err
    assert code == 2 and key in err and "pyproject.toml" in err and err.count("\n") == 1


def test_invalid_toml(tmp_path: Path) -> None:
    bad = tmp_path / "pyproject.toml"
    bad.write_text("[tool.pytea-ci\n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        config.load(str(tmp_path))


def test_entry_points_exclude_and_args(tmp_path: Path) -> None:
    root = _project(tmp_path, "entry-points = ['*.py']\nexclude = ['notes.py', 'helper.py']\n"
                              "args = { 'batch.py' = { batch_size = 5 } }\n")
    _code, doc = run_json(root)
    assert sorted(entries(doc)) == ["a.py", "b.py", "batch.py"]
    assert findings(doc) == [("PT001", "batch.py", 9)]  # 5 x 3 cannot be viewed as 12


def test_global_args_and_cli_override(tmp_path: Path) -> None:
    root = _project(tmp_path, "args = { batch_size = 5 }\n")
    assert run_json(root, "batch.py")[0] == 1
    assert run_json(root, "batch.py", "--arg", "batch_size=4")[0] == 0


def test_symbolic_sizes(tmp_path: Path) -> None:
    root = _project(tmp_path, "symbolic = { batch_size = [1, 64] }\n")
    code, doc = run_json(root, "batch.py", "--fail-on", "warning")
    assert code == 1 and [f[0] for f in findings(doc)] == ["PT002"]


def test_severity_override_disable_and_fail_on(tmp_path: Path) -> None:
    root = _project(tmp_path, "severity = { shape-mismatch = 'warning' }\n")
    code, doc = run_json(root, "b.py")
    (root / "b.py").write_text((root / "b.py").read_text().replace("view(6)", "view(7)"))
    code, doc = run_json(root, "b.py")
    assert code == 0 and doc["diagnostics"][0]["severity"] == "warning"
    assert run_json(root, "b.py", "--fail-on", "warning")[0] == 1
    (root / "pyproject.toml").write_text("[tool.pytea-ci]\ndisable = ['PT001']\nfail-on = 'warning'\n")
    code, doc = run_json(root, "b.py")
    assert code == 0 and doc["diagnostics"] == []


def test_explicit_config_file_and_budgets(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p")
    cfg_file = tmp_path / "pytea.toml"
    cfg_file.write_text("max-paths = 3\nloop-unroll = 2\nsolver-timeout = 500\ntime-budget = 5\n"
                        "cache-dir = 'build/cache'\njobs = 2\n")
    cfg = config.load(str(root), str(cfg_file))
    assert (cfg.max_paths, cfg.loop_unroll, cfg.solver_timeout, cfg.time_budget, cfg.jobs) == (3, 2, 500, 5.0, 2)
    code, _ = run_json(root, "--config", str(cfg_file))
    assert code == 0 and (root / "build" / "cache" / "results").is_dir()
    code, _ = run_json(root, "--config", str(tmp_path / "missing.toml"))
    assert code == 2


def test_pyproject_found_from_a_subfolder(tmp_path: Path) -> None:
    root = _project(tmp_path, "fail-on = 'never'\n")
    sub = root / "pkg"
    sub.mkdir()
    assert config.find_pyproject(str(sub)) == str(root / "pyproject.toml")
    assert config.load(str(sub)).fail_on == "never"
