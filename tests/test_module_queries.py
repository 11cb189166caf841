"""`named_parameters()` (tests/fixtures/core/module_queries.py, checked against torch by tests/oracle): names
and tensors only where `parameters()` is torch's exact list; a module holding a parameter of its own (which
may come before the layers' weights) claims nothing of its first parameter's dtype."""

from __future__ import annotations

import textwrap

from pytea_ci.driver.run import Options, run

SCALED = textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class Scaled(nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = nn.Parameter(torch.ones(1, dtype=torch.float64))
            self.proj = nn.Linear(4, 4)


    def parameter_dtype(m):
        for name, p in m.named_parameters():
            if p.is_floating_point():
                return p.dtype
        return None


    fc = nn.Linear(4, 2)
    fc(torch.zeros(3, 4 if parameter_dtype(Scaled()) == torch.float64 else 5))
""")


def test_a_module_with_its_own_parameter_claims_no_first_dtype(tmp_path) -> None:
    (tmp_path / "scaled.py").write_text(SCALED)
    entry = run([str(tmp_path / "scaled.py")], Options(root=str(tmp_path), strict=True)).entries[0]
    # torch: the first parameter is `scale`, float64, and the line runs; were the Linear's weight taken
    # for the first, this would be a PT001 error (at most a warning on a side not known is allowed)
    assert [d.rule for d in entry.diagnostics if d.severity.name == "ERROR"] == []
