"""Git awareness on real repositories: staged changes (also before the first commit), PR ranges
from the merge-base, renames, deletions, a helper imported by one of two entry points, shallow
clones, detached HEAD, and folders that are not repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.driver.conftest import (
    B_BUG,
    HELPER_BUG,
    entries,
    findings,
    git,
    make_repo,
    run_json,
    write_project,
)


def test_staged_change_to_helper_analyzes_its_importer_only(repo: Path) -> None:
    (repo / "helper.py").write_text(HELPER_BUG)
    git(repo, "add", "helper.py")
    code, doc = run_json(repo, "--staged")
    assert code == 1
    assert list(entries(doc)) == ["a.py"]
    assert findings(doc) == [("PT001", "a.py", 7)]


def test_unstaged_change_is_not_staged(repo: Path) -> None:
    (repo / "b.py").write_text(B_BUG)
    code, doc = run_json(repo, "--staged")
    assert code == 0 and entries(doc) == {}


def test_staged_before_the_first_commit(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "fresh", commit=False)
    code, doc = run_json(root, "--staged")
    assert code == 0
    assert sorted(entries(doc)) == ["a.py", "b.py"]


def test_pr_range_uses_the_merge_base(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "b.py").write_text(B_BUG)
    git(repo, "commit", "-qam", "feature: break b")
    git(repo, "checkout", "-q", "main")
    (repo / "helper.py").write_text(HELPER_BUG)  # the base branch's own change: not the PR's
    git(repo, "commit", "-qam", "main: break helper")
    git(repo, "checkout", "-q", "feature")
    code, doc = run_json(repo, "--diff", "main...feature", "--affected-only")
    assert code == 1 and list(entries(doc)) == ["b.py"]
    assert findings(doc) == [("PT001", "b.py", 5)]
    # without --affected-only the report is complete: every entry point, the unaffected ones cached
    code, doc = run_json(repo, "--diff", "main...HEAD")
    assert sorted(entries(doc)) == ["a.py", "b.py"] and entries(doc)["b.py"] is True


def test_helper_change_analyzes_one_and_takes_the_other_from_cache(repo: Path) -> None:
    code, doc = run_json(repo)
    assert code == 0 and entries(doc) == {"a.py": False, "b.py": False}
    (repo / "helper.py").write_text(HELPER_BUG)
    code, doc = run_json(repo, "--diff", "HEAD")
    assert code == 1
    assert entries(doc) == {"a.py": False, "b.py": True}
    assert doc["summary"]["analyzed"] == 1 and doc["summary"]["cached"] == 1
    assert findings(doc) == [("PT001", "a.py", 7)]


def test_rename_of_an_imported_module(repo: Path) -> None:
    git(repo, "mv", "helper.py", "util.py")
    _code, doc = run_json(repo, "--staged")
    assert list(entries(doc)) == ["a.py"]  # its import now fails: it is affected


def test_rename_with_updated_import(repo: Path) -> None:
    git(repo, "mv", "helper.py", "util.py")
    (repo / "util.py").write_text(HELPER_BUG)
    (repo / "a.py").write_text((repo / "a.py").read_text().replace("from helper", "from util"))
    git(repo, "add", "-A")
    code, doc = run_json(repo, "--staged")
    assert code == 1 and list(entries(doc)) == ["a.py"]
    assert findings(doc) == [("PT001", "a.py", 7)]


def test_deletion_makes_importers_affected(repo: Path) -> None:
    git(repo, "rm", "-q", "helper.py")
    _code, doc = run_json(repo, "--staged")
    assert list(entries(doc)) == ["a.py"]


def test_deleted_entry_point_is_simply_gone(repo: Path) -> None:
    git(repo, "rm", "-q", "b.py")
    code, doc = run_json(repo, "--staged")
    assert code == 0 and entries(doc) == {}


def test_new_only_reports_what_the_change_introduced(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "b.py").write_text(B_BUG)
    (repo / "helper.py").write_text(HELPER_BUG)
    _code, doc = run_json(repo, "--diff", "HEAD", "--new-only")
    # b.py's bug is on its changed line; a.py's is on an unchanged line of a.py, caused by helper.py
    assert findings(doc) == [("PT001", "a.py", 7), ("PT001", "b.py", 5)]
    assert "same fingerprint on the base" in capsys.readouterr().err


def test_shallow_clone_falls_back_with_a_clear_message(repo: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    first = git(repo, "rev-parse", "HEAD")
    (repo / "b.py").write_text(B_BUG)
    git(repo, "commit", "-qam", "second")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    code, doc = run_json(clone, "--diff", f"{first}...HEAD")
    err = capsys.readouterr().err
    assert "shallow clone" in err and "fetch-depth: 0" in err
    assert sorted(entries(doc)) == ["a.py", "b.py"]  # every entry point
    assert code == 1


def test_unknown_base_is_a_usage_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(repo, "--diff", "no-such-branch...HEAD")
    err = capsys.readouterr().err
    assert code == 2 and doc == {}
    assert err.count("\n") == 1 and "no-such-branch" in err and "unknown revision" in err


def test_detached_head(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    (repo / "helper.py").write_text(HELPER_BUG)
    git(repo, "commit", "-qam", "break helper")
    git(repo, "checkout", "-q", "--detach", "HEAD")
    code, doc = run_json(repo, "--diff", f"{base}...HEAD", "--affected-only")
    assert code == 1 and list(entries(doc)) == ["a.py"]
    code, doc = run_json(repo, "--diff", base, "--affected-only")
    assert list(entries(doc)) == ["a.py"]


def test_project_in_a_subfolder_of_the_repository(tmp_path: Path) -> None:
    repo = tmp_path / "mono"
    repo.mkdir()
    git(repo, "init", "-q")
    proj = write_project(repo / "svc")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    (proj / "helper.py").write_text(HELPER_BUG)
    git(repo, "add", "-A")
    code, doc = run_json(proj, "--staged")
    assert list(entries(doc)) == ["a.py"] and code == 1


def test_not_a_repository_file_arguments_still_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "plain", helper=HELPER_BUG)
    code, doc = run_json(root, "helper.py")  # a module: mapped to the entry point importing it
    assert code == 1 and list(entries(doc)) == ["a.py"]
    code, doc = run_json(root, "--staged")
    assert code == 2 and "not inside a git repository" in capsys.readouterr().err
