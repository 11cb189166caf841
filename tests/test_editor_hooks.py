"""The analyzer's hooks for the language server, without the server: a buffer text stands in for the
file on disk (installed for the driver's file questions, diagnostics/sources.py, and handed to the
interpreter in the request's `Editor`, interp/observe.py), the shape recorder sees tensor bindings,
and the resident caches carry over between runs (driver/resident.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pytea_ci.diagnostics import Span, sources
from pytea_ci.diagnostics.budgets import CANCELLED
from pytea_ci.driver.check import CheckRequest, check
from pytea_ci.driver.resident import BoundedCache, Resident
from pytea_ci.interp.observe import Editor

CLEAN = "import torch\n\nx = torch.randn(4, 3)\ny = x @ torch.randn(3, 5)\n"
BUGGY = "import torch\n\nx = torch.randn(4, 3)\ny = x @ torch.randn(2, 5)\n"


@pytest.fixture
def program(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "pyproject.toml").write_text("[tool.pytea-ci]\n")
    path = tmp_path / "main.py"
    path.write_text(CLEAN)
    yield path
    sources.install({})


def _findings(path: Path, resident: Resident | None = None, editor: Editor | None = None) -> list[tuple[str, int]]:
    out = check(CheckRequest(paths=[str(path)], root=str(path.parent), no_cache=True, resident=resident, editor=editor))
    return [(d.rule, d.span.line) for d in out.result.diagnostics if d.severity.value != "note"]


def test_an_installed_buffer_is_analyzed_instead_of_the_file(program: Path) -> None:
    assert _findings(program) == []
    buffers = {str(program): BUGGY.encode()}
    sources.install(buffers)
    assert _findings(program, editor=Editor.of(buffers)) == [("PT001", 4)]
    sources.install({})
    assert _findings(program) == []


def test_ignore_comments_are_read_from_the_buffer(program: Path) -> None:
    buffers = {str(program): BUGGY.replace("(2, 5)\n", "(2, 5)  # pytea: ignore[PT001]\n").encode()}
    sources.install(buffers)
    assert _findings(program, editor=Editor.of(buffers)) == []


def test_the_recorder_sees_tensor_bindings_only(program: Path) -> None:
    seen: list[tuple[int, str, str]] = []

    def record(span: Span, name: str, text: str, origins: tuple[str, ...]) -> None:
        seen.append((span.line, name, text))

    _findings(program, editor=Editor(recorder=record))
    assert (3, "x", "[4, 3] float32") in seen and (4, "y", "[4, 5] float32") in seen
    assert all(text.startswith("[") for _, _, text in seen)


def test_resident_caches_carry_over_between_runs(program: Path) -> None:
    resident = Resident()
    buffers = {str(program): BUGGY.encode()}
    sources.install(buffers)
    assert _findings(program, resident, Editor.of(buffers)) == [("PT001", 4)]
    decider = resident._decider
    facts = len(resident.imports.data)
    assert decider is not None and facts > 0
    assert _findings(program, resident, Editor.of(buffers)) == [("PT001", 4)]
    assert resident._decider is decider and len(resident.imports.data) == facts


def test_bounded_cache_drops_the_least_recently_used() -> None:
    cache = BoundedCache(limit=2)
    cache.put("a", ("sat", {}, 10))
    cache.put("b", ("unsat", {}, 20))
    assert cache.get("a") == ("sat", {}, 10)  # a is now the most recent
    cache.put("c", ("sat", {"n": 1}, 30))
    assert cache.get("b") is None and cache.get("a") is not None and cache.get("c") is not None


def test_a_cancelled_run_stops_like_a_run_out_of_budget(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.pytea-ci]\n")
    path = tmp_path / "main.py"  # long enough to reach the interpreter's budget test (every 128 steps)
    path.write_text("import torch\n\nx = torch.randn(4, 3)\n" + "y = x + 1\n" * 400 + "z = x @ torch.randn(2, 5)\n")
    stop = Editor(cancel=lambda: True)
    cancelled = check(CheckRequest(paths=[str(path)], root=str(tmp_path), no_cache=True, editor=stop)).result.diagnostics
    assert any(d.rule == "PT011" and CANCELLED in d.message for d in cancelled)
    assert not any(d.rule == "PT001" for d in cancelled)  # stopped before the bug
    done = check(CheckRequest(paths=[str(path)], root=str(tmp_path), no_cache=True)).result.diagnostics
    assert any(d.rule == "PT001" for d in done)


def test_kept_parses_serve_the_same_text_and_not_a_changed_one() -> None:
    try:
        sources.keep_parsed()
        first = sources.parse(b"x = 1\n", "a.py")
        assert sources.parse(b"x = 1\n", "a.py") is first
        assert sources.parse(b"x = 2\n", "a.py") is not first
        with pytest.raises(SyntaxError):
            sources.parse(b"x = (\n", "a.py")
    finally:
        sources.keep_parsed(False)
    assert sources.parse(b"x = 1\n", "a.py") is not first  # off: parsed afresh
