"""`object.__getattribute__(obj, name)` (and `super().__getattribute__(name)`) never calls the class's
`__getattr__`: in CPython only the attribute slot (`obj.name`) falls back to it. A `__getattr__` that ends
in `return super().__getattribute__(key)` for the names it does not hold (monai's layer factories,
`Conv.CONV`) recursed in the interpreter until the recursion budget, ending the analysis of that
path's later statements with an "analysis incomplete" note (the stop-32 sweep: monai)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pytea_ci.driver.check import check
from pytea_ci.driver.project import CheckRequest

FACTORY = """\
    import torch
    from torch import nn


    class Store:
        def __init__(self):
            self.components = {}

        def add(self, name, value):
            self.components[name.upper()] = value

        def __getattr__(self, key):
            if key in self.components:
                return key
            return super().__getattribute__(key)

        def __getitem__(self, key):
            return self.components[key]


    Conv = Store()
    Conv.add("linear", nn.Linear)

    if __name__ == "__main__":
        layer = Conv[Conv.LINEAR](8, 4)
        doc = getattr(Conv, "description", "no description")
        y = layer(torch.zeros(2, 5))
    """


def test_getattr_falling_back_on_object_getattribute_does_not_recurse(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text(textwrap.dedent(FACTORY))
    out = check(CheckRequest(root=str(tmp_path), paths=[str(tmp_path / "main.py")], no_cache=True,
                             overrides={"jobs": 1, "library_mode": "never"})).result
    assert {(d.span.line, d.rule) for d in out.diagnostics} == {(27, "PT001")}  # Linear(8, 4) fed [2, 5]; no PT011
    assert [e.status for e in out.entries] == ["findings"]  # not "incomplete"
