"""Data files of the project in the selection: a changed YAML config or label map selects the entry
points that read it (named by a literal, or recorded by an earlier analysis), also when passed as a
path (pre-commit), and the file's content is what the analysis uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.driver.conftest import entries, findings, git, run_json

TRAIN = """import torch
import torch.nn as nn
import yaml


def main():
    with open("conf/model.yaml") as f:
        cfg = yaml.safe_load(f)
    net = nn.Linear(cfg["width"], 2)
    return net(torch.randn(3, 8))


if __name__ == "__main__":
    main()
"""
# the label map's path is in the config, not in the code: only an earlier analysis knows it is read
LABELS = """import json

import torch
import torch.nn as nn
import yaml


def main():
    with open("conf/data.yaml") as f:
        cfg = yaml.safe_load(f)
    with open(cfg["labels"]) as f:
        classes = json.load(f)
    head = nn.Linear(16, len(classes))
    logits = head(torch.randn(4, 16))
    return torch.nn.functional.cross_entropy(logits, torch.tensor([0, 1, 2, 2]))


if __name__ == "__main__":
    main()
"""
OTHER = "import torch\n\nif __name__ == \"__main__\":\n    torch.randn(2, 3).view(6)\n"


def _project(root: Path) -> Path:
    (root / "conf").mkdir(parents=True)
    (root / "assets").mkdir()
    (root / "train.py").write_text(TRAIN)
    (root / "labels.py").write_text(LABELS)
    (root / "other.py").write_text(OTHER)
    (root / "conf" / "model.yaml").write_text("width: 8\n")
    (root / "conf" / "data.yaml").write_text("labels: assets/classes.json\n")
    (root / "assets" / "classes.json").write_text('["cat", "dog", "bird"]\n')
    (root / "notes.txt").write_text("nothing reads this\n")
    return root


@pytest.fixture()
def data_repo(tmp_path: Path) -> Path:
    root = _project(tmp_path / "proj")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    return root


def test_the_files_content_is_used(data_repo: Path) -> None:
    code, doc = run_json(data_repo)
    assert code == 0 and findings(doc) == []
    assert all(c["checked"] == c["reached"] for c in _coverage(doc))  # the config and label map were read
    (data_repo / "conf" / "model.yaml").write_text("width: 9\n")
    code, doc = run_json(data_repo)
    assert code == 1 and findings(doc) == [("PT001", "train.py", 10)]


def test_a_staged_config_selects_the_entry_point_naming_it(data_repo: Path) -> None:
    (data_repo / "conf" / "model.yaml").write_text("width: 9\n")
    git(data_repo, "add", "conf/model.yaml")
    code, doc = run_json(data_repo, "--staged", "--no-cache")
    assert list(entries(doc)) == ["train.py"]
    assert code == 1 and findings(doc) == [("PT001", "train.py", 10)]


def test_a_file_named_only_in_data_is_found_by_the_recorded_reads(data_repo: Path) -> None:
    (data_repo / "assets" / "classes.json").write_text('["cat", "dog"]\n')
    git(data_repo, "add", "assets/classes.json")
    code, doc = run_json(data_repo, "--staged")  # no analysis has run yet: nobody names the file
    assert code == 0 and entries(doc) == {}
    git(data_repo, "stash", "-q")
    run_json(data_repo)  # records what each entry point read
    git(data_repo, "stash", "pop", "-q")
    git(data_repo, "add", "assets/classes.json")
    code, doc = run_json(data_repo, "--staged")
    assert list(entries(doc)) == ["labels.py"]
    assert code == 1 and findings(doc) == [("PT003", "labels.py", 15)]


def test_data_files_given_as_paths(data_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(data_repo, "conf/model.yaml")
    assert code == 0 and list(entries(doc)) == ["train.py"]
    code, doc = run_json(data_repo, "notes.txt")
    assert code == 0 and entries(doc) == {}
    assert "no entry point reads or names the given data files" in capsys.readouterr().err


def test_a_file_the_program_writes_is_not_read(tmp_path: Path) -> None:
    root = _project(tmp_path / "w")
    (root / "train.py").write_text(TRAIN.replace('    with open("conf/model.yaml") as f:\n',
                                                 '    with open("conf/model.yaml", "w") as f:\n'
                                                 '        yaml.safe_dump({"width": 8}, f)\n'
                                                 '    with open("conf/model.yaml") as f:\n'))
    (root / "conf" / "model.yaml").write_text("width: 9\n")  # not what the run reads
    code, doc = run_json(root, "train.py", "--no-cache")
    assert code == 0 and findings(doc) == []
    assert _coverage(doc)[0]["checked"] < _coverage(doc)[0]["reached"]  # the width is not known: not checked


def _coverage(doc: dict[str, object]) -> list[dict[str, int]]:
    return [e["coverage"] for e in doc["entries"]]  # type: ignore[index, union-attr]


def test_a_folder_named_in_the_code_holds_the_changed_files(tmp_path: Path) -> None:
    """Hydra's `config_path="conf"`, an images folder: a literal naming a folder selects its readers;
    a literal that merely shares a folder's name elsewhere does not."""
    from pytea_ci.driver.data_files import readers
    from pytea_ci.driver.imports_graph import ImportCache, ImportGraph

    (tmp_path / "conf" / "model").mkdir(parents=True)
    (tmp_path / "tools").mkdir()
    (tmp_path / "app.py").write_text('import hydra\n\n@hydra.main(config_path="conf", config_name="x")\ndef f(c):\n'
                                     '    pass\n')
    (tmp_path / "tools" / "other.py").write_text('MODEL = "model"\nprint(MODEL)\n')  # tools/model: no such folder
    changed = {str(tmp_path / "conf" / "model" / f"m{i}.yaml") for i in range(500)}
    entries = [str(tmp_path / "app.py"), str(tmp_path / "tools" / "other.py")]
    graph = ImportGraph(str(tmp_path), ImportCache(None))
    assert readers(changed, entries, graph, str(tmp_path), None) == [str(tmp_path / "app.py")]
