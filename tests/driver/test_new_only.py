"""`--new-only` on real git repositories: new means no finding with the same fingerprint on the base
(analyzed from a snapshot of its commit); the changed-lines rule is the stated fallback when the base
cannot be analyzed (a shallow clone without the merge-base)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytea_ci.diagnostics import Diagnostic, Frame, Related, Severity, Span
from pytea_ci.driver import gitdiff, newonly
from tests.driver.conftest import B_BUG, HELPER_BUG, findings, git, make_repo, run_json

MNIST = Path(__file__).resolve().parents[2] / "examples" / "mnist" / "main.py"


def _mnist_repo(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "main.py").write_text(MNIST.read_text())
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "mnist")
    return root


def test_readme_example_reports_its_one_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The bug is reported at `self.fc1(x)` (an unchanged line); the changed line is a related location."""
    repo = _mnist_repo(tmp_path / "mnist")
    git(repo, "checkout", "-q", "-b", "bigger-fc1")
    main = repo / "main.py"
    main.write_text(main.read_text().replace("nn.Linear(320, 50)", "nn.Linear(500, 50)"))
    git(repo, "commit", "-qam", "fc1 takes 500 features")
    code, doc = run_json(repo, "--diff", "main...HEAD", "--new-only")
    assert code == 1
    assert findings(doc) == [("PT001", "main.py", 28)]
    assert "same fingerprint on the base" in capsys.readouterr().err


def test_moving_an_old_bug_is_not_new(repo: Path) -> None:
    (repo / "b.py").write_text(B_BUG)
    git(repo, "commit", "-qam", "old bug")
    git(repo, "checkout", "-q", "-b", "move")
    (repo / "b.py").write_text("import torch\n\n# a comment\n\n\n" + B_BUG.split("\n", 1)[1])
    git(repo, "commit", "-qam", "move the old bug down")
    code, doc = run_json(repo, "--diff", "main...HEAD")
    assert findings(doc) == [("PT001", "b.py", 9)]  # it is still there, 4 lines down
    code, doc = run_json(repo, "--diff", "main...HEAD", "--new-only")
    assert code == 0 and findings(doc) == []


def test_renaming_a_file_with_an_old_bug_is_not_new(repo: Path) -> None:
    (repo / "b.py").write_text(B_BUG)
    git(repo, "commit", "-qam", "old bug")
    git(repo, "mv", "b.py", "c.py")
    git(repo, "commit", "-qm", "rename")
    code, doc = run_json(repo, "--diff", "HEAD~1...HEAD", "--new-only")
    assert code == 0 and findings(doc) == []


def test_a_bug_caused_at_an_unchanged_call_site_is_new(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "helper.py").write_text(HELPER_BUG)  # breaks a.py:7, a line the change does not touch
    git(repo, "commit", "-qam", "helper")
    code, doc = run_json(repo, "--diff", "main...HEAD", "--new-only")
    assert code == 1 and findings(doc) == [("PT001", "a.py", 7)]


def test_old_and_new_findings_are_told_apart(repo: Path) -> None:
    (repo / "b.py").write_text(B_BUG)
    git(repo, "commit", "-qam", "old bug")
    (repo / "helper.py").write_text(HELPER_BUG)
    code, doc = run_json(repo, "--new-only", "helper.py", "b.py")  # pre-commit's form: against HEAD
    assert code == 1 and findings(doc) == [("PT001", "a.py", 7)]
    git(repo, "add", "helper.py")
    code, doc = run_json(repo, "--staged", "--new-only")
    assert code == 1 and findings(doc) == [("PT001", "a.py", 7)]


def test_shallow_clone_uses_the_stated_fallback_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = make_repo(tmp_path / "origin")
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "helper.py").write_text(HELPER_BUG)
    git(repo, "commit", "-qam", "helper")
    (repo / "notes.py").write_text("print('more notes')\n")
    git(repo, "commit", "-qam", "notes")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "feature", f"file://{repo}", str(clone))
    git(clone, "fetch", "-q", "--depth", "1", "origin", "main:main")
    code, doc = run_json(clone, "--diff", "main...HEAD", "--new-only")
    err = capsys.readouterr().err
    assert "shallow clone" in err and "fallback rule" in err and "changed line" in err
    # the finding's primary location (a.py:7) is unchanged; where in_features was born (helper.py) changed
    assert code == 1 and findings(doc) == [("PT001", "a.py", 7)]


def test_fallback_rule_looks_at_every_location() -> None:
    changes = gitdiff.ChangeSet(hunks={"/p/helper.py": [(5, 5)], "/p/a.py": [(12, 12)]})
    far = Span("other.py", 3)
    primary = Diagnostic("PT001", Severity.ERROR, Span("a.py", 7), "m")
    related = Diagnostic("PT001", Severity.ERROR, Span("a.py", 8), "m", related=(Related(Span("helper.py", 5), "x"),))
    unrelated = Diagnostic("PT001", Severity.ERROR, Span("a.py", 9), "m", related=(Related(far, "x"),))
    verdict = newonly.by_hunks([primary, related, unrelated], changes, "/p", "test")
    assert [verdict.is_new(d) for d in (primary, related, unrelated)] == [False, True, False]
    on_path = Diagnostic("PT001", Severity.ERROR, Span("a.py", 7), "m", trace=(Frame(Span("a.py", 12), "main()"),))
    assert newonly.by_hunks([on_path], changes, "/p", "test").is_new(on_path)
