"""`from __future__ import ...` is a compiler directive: it is not counted as a module not modeled
(it was, once per project module, among the top "unmodeled APIs" of every real project)."""

from __future__ import annotations

from pathlib import Path

from pytea_ci.driver.run import Options, run


def test_future_imports_are_not_unmodeled_apis(tmp_path: Path) -> None:
    program = tmp_path / "main.py"
    program.write_text("from __future__ import annotations\nimport torch\n\n"
                       "x: torch.Tensor = torch.zeros(2, 3)\ny = x.view(3, 2)\n")
    entry = run([str(program)], Options(root=str(tmp_path), strict=True)).entries[0]
    assert entry.stats.unmodeled == {}
    assert entry.diagnostics == []
