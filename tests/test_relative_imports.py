"""Relative imports of an entry point (interp/imports.py `entry_package`): an entry that sits in a package
runs as `python -m pkg.sub.entry` would, so `from . import Name` finds what the package's `__init__`
binds and `from .sibling import f` the package's own module; a script outside any package keeps
reading `from . import sibling` as the module beside it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pytea_ci.driver.run import Options, run


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))


def _findings(root: Path, entry: str) -> list[tuple[str, int, str]]:
    result = run([str(root / entry)], Options(root=str(root), strict=True))
    return [(d.span.path, d.span.line, d.rule) for d in result.diagnostics if d.rule != "PT011"]


def test_an_entry_in_a_package_imports_relatively_as_under_python_m(tmp_path: Path) -> None:
    # encodec's modules/seanet.py: `from . import SConv1d`, bound by modules/__init__.py (the layer was
    # a third-party module not understood, half of the test's operations unchecked)
    _write(tmp_path, {
        "codec/__init__.py": "",
        "codec/modules/__init__.py": "from .conv import Block\n",
        "codec/modules/conv.py": """\
            import torch.nn as nn
            class Block(nn.Module):
                def __init__(self, c):
                    super().__init__()
                    self.conv = nn.Conv1d(c, 2 * c, 3, padding=1)
                def forward(self, x):
                    return self.conv(x)
            """,
        "codec/modules/seanet.py": """\
            import torch
            from . import Block
            from .conv import Block as Same
            y = Block(4)(torch.randn(1, 4, 10))
            assert Same is Block
            y.view(1, 8, 10) + torch.zeros(1, 8, 11)
            """,
    })
    assert _findings(tmp_path, "codec/modules/seanet.py") == [("codec/modules/seanet.py", 6, "PT001")]


def test_a_script_outside_any_package_reads_from_dot_as_the_module_beside_it(tmp_path: Path) -> None:
    _write(tmp_path, {
        "tools/helpers.py": "import torch\ndef make():\n    return torch.zeros(2, 3)\n",
        "tools/run.py": "import torch\nfrom . import helpers\nhelpers.make() + torch.zeros(4)\n",
    })
    assert _findings(tmp_path, "tools/run.py") == [("tools/run.py", 3, "PT001")]
