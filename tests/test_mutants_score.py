"""The mutation benchmark's scorer (benchmarks/mutants/score.py): which findings of a library-mode check
count for the mutated subject. `check FILE` reaches more than the subject (the file's own `__main__`
self-test, other models' `_test()` functions, other modules of the file): a finding there is outside
the subject, neither a find nor a false alarm, and counted apart; driver and script modes count every
finding of their entry (it is the subject), and script mode's library-mode findings (a module the script
defines, checked alone) as library mode does."""

from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks", "mutants")


def _score() -> ModuleType:
    sys.path.insert(0, HERE)  # score.py imports its siblings (common, fetch, subjects)
    try:
        spec = importlib.util.spec_from_file_location("mutants_score", os.path.join(HERE, "score.py"))
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(HERE)


def _finding(path: str, line: int, library: bool, severity: str = "error") -> dict:
    return {"rule": "PT001", "severity": severity, "path": path, "line": line, "message": "m", "library": library}


def _result(mode: str, *findings: dict) -> dict:
    return {"key": "k", "subject": "subj", "mode": mode, "id": "subj#0", "checked": 3, "findings": list(findings)}


def test_library_findings_count_only_on_the_subjects_path() -> None:
    score = _score()
    score._EXECUTED["subj"] = {"model.py": {10, 11, 12}}  # the lines the subject's runs execute
    never = {"label": "never"}
    forward = _finding("model.py", 11, library=True)  # the module checked alone, on the subject's lines
    self_test = _finding("model.py", 40, library=False)  # the file's __main__ block, never run for the subject
    script_through = _finding("model.py", 12, library=False)  # an entry point's inputs through forward
    other_module = _finding("model.py", 30, library=True)  # a module of the file the subject never runs
    fig = score.Fig()
    fig.add(_result("library", self_test, script_through, other_module), never)
    assert (fig.c["fa_error"], fig.c["outside"]) == (0, 1)
    fig.add(_result("library", forward, self_test), never)
    assert (fig.c["fa_error"], fig.c["outside"]) == (1, 2)


def test_a_find_outside_the_subject_is_no_find_but_the_raising_statement_is() -> None:
    score = _score()
    score._EXECUTED["subj"] = {"model.py": {10, 11, 12}}
    always = {"label": "always", "file": "model.py", "line": 12}
    fig = score.Fig()
    fig.add(_result("library", _finding("model.py", 40, library=False)), always)
    assert (fig.c["always_found"], fig.c["always_at"]) == (0, 0)
    fig.add(_result("library", _finding("model.py", 12, library=False)), always)  # an entry point at the raise
    assert (fig.c["always_found"], fig.c["always_at"]) == (1, 1)


def test_driver_and_script_modes_count_every_finding() -> None:
    score = _score()
    score._EXECUTED["subj"] = {"model.py": {10}}
    fig = score.Fig()
    fig.add(_result("driver", _finding("model.py", 40, library=False)), {"label": "never"})
    assert (fig.c["fa_error"], fig.c["outside"]) == (1, 0)
    fig.add(_result("script", _finding("model.py", 40, library=False)), {"label": "never"})
    assert (fig.c["fa_error"], fig.c["outside"]) == (2, 0)


def test_a_scripts_module_checked_alone_counts_only_on_the_lines_its_runs_execute() -> None:
    """A class the script defines and never runs (patrickloeber's 11_softmax_and_crossentropy builds
    `NeuralNet1` and never calls it): library mode's finding in its `forward` is code torch never ran, which
    the label does not cover — outside the subject, as in library mode. On lines the runs execute, or at the
    raising statement, it counts."""
    score = _score()
    score._EXECUTED["subj"] = {"train.py": {10, 11}}
    fig = score.Fig()
    fig.add(_result("script", _finding("train.py", 40, library=True)), {"label": "never"})
    assert (fig.c["fa_error"], fig.c["outside"]) == (0, 1)
    fig.add(_result("script", _finding("train.py", 11, library=True)), {"label": "never"})
    assert (fig.c["fa_error"], fig.c["outside"]) == (1, 1)
    fig.add(_result("script", _finding("train.py", 40, library=True)),
            {"label": "always", "file": "train.py", "line": 40})
    assert (fig.c["always_found"], fig.c["always_at"]) == (1, 1)


def test_older_score_files_are_judged_by_line() -> None:
    score = _score()
    score._EXECUTED["subj"] = {"model.py": {10}}
    old = {"rule": "PT001", "severity": "error", "path": "model.py", "line": 10, "message": "m"}  # no "library"
    assert score.on_path(old, {"label": "never"}, score.executed("subj"))
    assert not score.on_path({**old, "line": 40}, {"label": "never"}, score.executed("subj"))


def test_a_scripts_command_line_becomes_argparse_overrides() -> None:
    """Script mode checks the run torch labelled: the subject's command line as `--arg` overrides (as a
    user sets `[tool.pytea-ci.args]`), and nothing where it is not `--name value` pairs."""
    score = _score()
    assert score.argv_overrides(("--epochs", "3", "--dry-run", "--lr=0.5", "--seed", "-1")) == (
        "--arg", "epochs=3", "--arg", "dry_run=True", "--arg", "lr=0.5", "--arg", "seed=-1")
    assert score.argv_overrides(("--type", "bigram", "--verbose")) == (
        "--arg", "type=bigram", "--arg", "verbose=True")
    assert score.argv_overrides(("data.txt", "--epochs", "3")) == ()  # a positional: not an override
    assert score.argv_overrides(()) == ()


def test_a_script_whose_setup_stubs_modules_is_checked_without_naming_the_venv() -> None:
    """The labelling runs had the stand-ins the setup puts in `sys.modules`; `/work/venv` lacks those modules,
    and naming it makes their imports ModuleNotFoundErrors that end the run (stop 40: the chatbot's nltk)."""
    score = _score()
    stub = "import sys, types\nsys.modules['nltk'] = types.ModuleType('nltk')\n"
    assert score.stubs_modules(score.Script("s", "src", ".", "train.py", ("train.py",), setup=stub))
    assert not score.stubs_modules(score.Script("s", "src", ".", "train.py", ("train.py",), setup="open('a', 'w')"))


def test_a_mutant_not_labelled_yet_is_skipped_not_a_crash() -> None:
    """Between `mutate.py` (recipes without a label) and `label.py --merge`, `score.py run` skips the new mutants as
    it skips unlabelled ones, and still checks the labelled mutants (stop 41: it raised KeyError 'label')."""
    score = _score()
    doc = {"inputs": {"lecun1989-repro": [0]}, "mutants": [
        {"id": "lecun1989-repro#0", "subject": "lecun1989-repro"},
        {"id": "lecun1989-repro#1", "subject": "lecun1989-repro", "label": {"label": "always"}},
        {"id": "lecun1989-repro#2", "subject": "lecun1989-repro", "label": {"label": "unlabelled"}}]}
    keys = [job[0] for job in score._jobs(doc, {"dev"})]
    assert "lecun1989-repro#1|script" in keys
    assert not [k for k in keys if k.startswith(("lecun1989-repro#0", "lecun1989-repro#2"))]
    assert "lecun1989-repro|orig|script" in keys


def test_a_report_names_the_subjects_whose_executed_lines_are_not_recorded(monkeypatch) -> None:
    """Without the lines a subject's runs execute, every finding of its library-mode checks counts for it: a
    `__main__` self-test's true error on a mutant labelled `never` is then a false alarm. The report says so,
    with the command that records them (stop 42: three such false alarms in the dev half)."""
    score = _score()
    name = next(iter(score.SUBJECTS))
    half = {score.SUBJECTS[name].source: "dev"}
    res = {"a": {**_result("library"), "subject": name}, "b": {**_result("driver"), "subject": name}}
    score._EXECUTED.clear()
    monkeypatch.setattr(score, "CACHE", "/nonexistent")
    score._EXECUTED["other"] = {}
    assert score.unrecorded_lines(res, half, "dev") == [name]
    assert score.unrecorded_lines(res, half, "test") == []
    score._EXECUTED[name] = {"model.py": {1}}
    assert score.unrecorded_lines(res, half, "dev") == []
