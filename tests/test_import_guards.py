"""A guard in import-time code on a value not understood (`if <not understood>: raise`) takes the side
that goes on. Import-time branches are not forked (`Interpreter.choose`); their first side used to be
taken, which for a guard is the raising one: the module's import ended there, and every class it defined
after that point was never reached. A module that a working program imports imports without raising, so
the side that goes on is the one CPython takes. Seen in the stop-32 sweep: torchdrug's registry
(`if key in table: raise KeyError(...)`, on a table holding keys not understood) ended the import of
every registered model (57 of 86 library modules checked nothing)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pytea_ci.driver.check import check
from pytea_ci.driver.project import CheckRequest

REGISTRY = """\
    import nosuchlib

    TABLE = dict(nosuchlib.DEFAULTS)


    def register(name):
        def wrap(cls):
            if name in TABLE:
                raise KeyError(f"{name} is already registered")
            TABLE[name] = cls
            return cls
        return wrap
    """

MODEL = """\
    import torch
    from torch import nn

    from pkg.registry import register


    @register("ffn")
    class FFN(nn.Module):
        def __init__(self, a=8, b=4):
            super().__init__()
            self.dense = nn.Linear(a, b)

        def forward(self, x):
            return self.dense(x)
    """

TRAIN = """\
    import torch
    from pkg.model import FFN

    if __name__ == "__main__":
        net = FFN()
        y = net(torch.zeros(2, 9))
    """

VERSION_GUARD = """\
    import nosuchlib
    if nosuchlib.__version__ < "2":
        raise ImportError("pkg needs nosuchlib 2")
    """


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))


def _check(root: Path, mode: str) -> tuple[dict[str, tuple[int, int]], set[tuple[str, int, str]]]:
    out = check(CheckRequest(root=str(root), paths=[], no_cache=True,
                             overrides={"jobs": 1, "library_mode": mode})).result
    entries = {e.entry: (e.stats.ops_checked, e.stats.ops_reached) for e in out.entries}
    return entries, {(d.span.path, d.span.line, d.rule) for d in out.diagnostics if d.rule != "PT011"}


def test_an_entry_point_reaches_a_model_registered_behind_a_guard_not_understood(tmp_path: Path) -> None:
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/registry.py": REGISTRY, "pkg/model.py": MODEL, "train.py": TRAIN})
    entries, findings = _check(tmp_path, "never")
    assert entries["train.py"][1] == entries["train.py"][0] > 0
    assert findings == {("pkg/model.py", 14, "PT001")}  # Linear(8, 4) fed [2, 9]


def test_library_mode_checks_a_module_whose_own_import_time_guard_is_not_understood(tmp_path: Path) -> None:
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/registry.py": REGISTRY,
                      "pkg/model.py": textwrap.dedent(MODEL) + textwrap.dedent(VERSION_GUARD)})
    entries, findings = _check(tmp_path, "only")
    assert entries == {"pkg/model.py::FFN": (2, 2)}  # the Linear, and the driver's calls on the class's line
    assert findings == set()


BRANCHY = """\
    import nosuchlib
    import torch
    from torch import nn

    if nosuchlib.FLAG:
        class FFN(nn.Module):
            def __init__(self, a=8, b=4):
                super().__init__()
                self.dense = nn.Linear(a, b)

            def forward(self, x):
                return self.dense(x)
    """


def test_an_import_time_branch_that_is_no_guard_keeps_its_first_side(tmp_path: Path) -> None:
    """Only a guard is steered: an import-time `if <not understood>:` whose sides both go on still takes
    its first side (the module defines FFN only there, so the entry point reaches it)."""
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/model.py": BRANCHY, "train.py": TRAIN})
    _, findings = _check(tmp_path, "never")
    assert findings == {("pkg/model.py", 12, "PT001")}
