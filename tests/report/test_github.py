"""The `github` format: workflow-command annotations, their escaping and limits, and the job summary."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from pytea_ci.diagnostics import Diagnostic, Severity, Span
from pytea_ci.diagnostics.modshapes import ModuleShapes
from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.report import github
from pytea_ci.report.source import Sources


def test_snapshot(result: RunResult, root: str, snapshot: Callable[[str, str], None]) -> None:
    snapshot("github.txt", github.render(result, root))


def test_summary_snapshot(result: RunResult, root: str, snapshot: Callable[[str, str], None]) -> None:
    snapshot("summary.md", github.step_summary(result, root))


def test_escaping() -> None:
    assert github.escape_data("100% a:b, c\r\nd") == "100%25 a:b, c%0D%0Ad"
    assert github.escape_property("100% a:b, c\r\nd") == "100%25 a%3Ab%2C c%0D%0Ad"


def test_annotation_escapes_message_and_properties(tmp_path: Path) -> None:
    d = Diagnostic("PT002", Severity.WARNING, Span("dir,x/a:b.py", 3, 4, 3, 9), "50% of n:\nsecond, line")
    line = github.annotation(d, Sources(str(tmp_path)))
    assert line == ("::warning file=dir%2Cx/a%3Ab.py,line=3,col=5,endLine=3,endColumn=10,"
                    "title=PT002 possible-shape-mismatch::50%25 of n:%0Asecond, line")
    assert "\n" not in line


def test_columns_only_on_single_line_spans(tmp_path: Path) -> None:
    d = Diagnostic("PT001", Severity.ERROR, Span("a.py", 3, 4, 5, 1), "m")
    line = github.annotation(d, Sources(str(tmp_path)))
    assert line.startswith("::error file=a.py,line=3,endLine=5,title=PT001 shape-mismatch::")


def test_at_most_ten_per_level(tmp_path: Path) -> None:
    diags = [Diagnostic("PT001", Severity.ERROR, Span("a.py", i + 1), f"e{i}") for i in range(12)]
    diags += [Diagnostic("PT010", Severity.NOTE, Span("a.py", 1), "n")]
    out = github.render(RunResult([EntryResult("a.py", diags)]), str(tmp_path)).splitlines()
    assert sum(line.startswith("::error ") for line in out) == 10
    assert sum(line.startswith("::notice ") for line in out) == 1
    assert out[-1].startswith("pytea-ci: not annotated") and "2 error" in out[-1]


def test_summary_escapes_cells(tmp_path: Path) -> None:
    d = Diagnostic("PT001", Severity.ERROR, Span("a|b.py", 1), "x | y *z* [l](u) <b>\nnext")
    md = github.step_summary(RunResult([EntryResult("a|b.py", [d])]), str(tmp_path))
    row = next(line for line in md.splitlines() if line.startswith("| error"))
    assert row == r"| error | PT001 shape-mismatch | a\|b.py:1 | x \| y \*z\* \[l\](u) \<b\><br>next |"
    assert row.count(" | ") == 3  # still four cells


def test_write_step_summary_appends(result: RunResult, root: str, tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    path.write_text("previous step\n", encoding="utf-8")
    github.write_step_summary(result, root, str(path))
    text = path.read_text(encoding="utf-8")
    assert text.startswith("previous step\n## pytea-ci")
    assert "| train.py | findings | no | 4 | 90% (18/20) | 1.23 s |" in text


def test_summary_without_findings(tmp_path: Path) -> None:
    run = RunResult([EntryResult("a.py", cached=True)], seconds=0.5)
    md = github.step_summary(run, str(tmp_path))
    assert "**0 errors, 0 warnings, 0 notes** in 1 entry point (0 analyzed, 1 from the cache)" in md
    assert "### Findings" not in md


def test_level_follows_the_diagnostic_not_the_rule(tmp_path: Path) -> None:
    d = Diagnostic("PT001", Severity.ERROR, Span("a.py", 1), "m")
    lowered = dataclasses.replace(d, severity=Severity.NOTE)
    assert github.annotation(lowered, Sources(str(tmp_path))).startswith("::notice ")


def test_summary_links_to_file_and_line(result: RunResult, root: str, tmp_path: Path) -> None:
    env = {"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": "abc"}
    assert github.blob_url(env) == "https://github.com/o/r/blob/abc/"
    assert github.blob_url({}) is None
    path = tmp_path / "summary.md"
    github.write_step_summary(result, root, str(path), env=env)
    md = path.read_text(encoding="utf-8")
    assert "| [pkg/model.py:9](https://github.com/o/r/blob/abc/pkg/model.py#L9) |" in md
    weird = "data/run%202%2C%20v1%3A%20%C3%B1and%C3%BA%20%F0%9F%9A%80.py#L4"
    assert f"(https://github.com/o/r/blob/abc/{weird})" in md
    github.write_step_summary(result, root, str(tmp_path / "plain.md"), env={})  # not in a workflow
    plain = (tmp_path / "plain.md").read_text(encoding="utf-8")
    assert "| pkg/model.py:9 |" in plain and "https://" not in plain


# ----- the module shapes of library mode in the job summary ------------------------------------------------
def _module(name: str, layers: int, contract: list[str] | None = None) -> ModuleShapes:
    from pytea_ci.diagnostics.modshapes import InputShape, Layer

    rows = [Layer(1, f"layers.{i}", "Linear", ["[N, D]"], "[N, D]", "D*D + D") for i in range(layers)]
    return ModuleShapes(f"m.py::{name}", "m.py", 3, "defaults", "determined", [InputShape("x", ["N", "D"], [1, 1])],
                        contract or [], {"N": 1, "D": 1}, "[N, D]", [1, 1], rows, "5*D*D")


def test_summary_shows_library_modules_collapsed() -> None:
    m = _module("Mlp", 2, ["1 <= D", "D | 2 == 0 < D"])
    result = RunResult([EntryResult("train.py"), EntryResult("m.py::Mlp", shapes=m)])
    text = github.step_summary(result, ".")
    section = text.split("### Module shapes", 1)[1]
    assert section.count("<details>") == section.count("</details>") == 1
    assert "<summary><code>m.py::Mlp</code> (determined): <code>x: [N, D]</code> → <code>[N, D]</code>" in section
    assert "| &nbsp;&nbsp;layers.0 | Linear | `[N, D]` | `[N, D]` | `D*D + D` |" in section
    assert "`D \\| 2 == 0 < D`" in section  # a pipe inside a condition does not split the table or the text
    assert "### Module shapes" not in github.step_summary(RunResult([EntryResult("train.py")]), ".")


def test_summary_shapes_are_bounded() -> None:
    from pytea_ci.report import shapes

    many = [_module(f"M{i}", 100, [f"{i} <= D" + " + D" * 50] * 20) for i in range(30)]
    text = shapes.render_details(many)
    assert text.count("<details>") == shapes.MAX_DETAILS_MODULES
    assert "… and 10 more modules" in text and "… and 60 more layers" in text
    rows = [line for line in text.splitlines() if line.startswith("| &nbsp;")]
    assert len(rows) == shapes.MAX_DETAILS_MODULES * shapes.MAX_DETAILS_LAYERS
    assert max(len(line) for line in text.splitlines()) < 1200 and len(text) < 200_000
