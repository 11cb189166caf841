"""A model whose size check meets a value it does not understand gives unknown, not a solver error (issue 31
item 9). Stop 31 fixed `nn.LayerNorm` alone; these layers built the same kind of check over an Unknown (a size
read by `torch.load`), which the solver's canonical text rejected with a TypeError (the model "gave up", or,
in strict mode, the analysis failed). The guard is the solver's: a check with a leaf that is no size is
unknown, a branch on it is a guess, and nothing is learnt from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytea_ci.driver.run import Options, run
from pytea_ci.models.values import Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Sym
from pytea_ci.solver import Decider, Verdict

LAYERS = {
    "batch_norm": "nn.BatchNorm1d(u)(torch.randn(2, 3))",
    "attention": "nn.MultiheadAttention(u, 2)(torch.randn(2, 1, 8), torch.randn(2, 1, 8), torch.randn(2, 1, 8))",
    "lstm": "nn.LSTM(u, 4)(torch.randn(2, 1, 3))",
}


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_a_layer_over_a_size_not_understood_is_unknown(tmp_path: Path, layer: str) -> None:
    (tmp_path / "main.py").write_text("import torch\nfrom torch import nn\n\nu = torch.load('n.pt')\n"
                                      f"y = {LAYERS[layer]}\n")
    (entry,) = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), strict=True)).entries
    assert entry.status == "ok", entry.diagnostics
    assert not [w for w in entry.stats.unmodeled if "gave up" in w], entry.stats.unmodeled
    assert entry.stats.unknown_origins, "the check is counted as unknown, with its origin"
    assert any("torch.load" in str(o) for o in entry.stats.unknown_origins), entry.stats.unknown_origins


def test_the_solver_answers_unknown_for_a_check_over_a_value_not_understood() -> None:
    n = Sym("n", lo=1)
    odd = P.eq(n, Unknown("read at run time"))
    assert isinstance(odd, P.Pred) and not P.understood(odd) and P.opaque(odd)
    d = Decider()
    assert d.check(odd, []).verdict is Verdict.UNKNOWN
    assert d.branch(odd, []) == (True, True)
    # a path condition holding one says nothing: the rest is decided as without it
    assert d.check(P.lt(n, 0), [odd]).verdict is Verdict.FAILS
    assert d.sat([odd, P.eq(n, 3)])[0] == "sat"
