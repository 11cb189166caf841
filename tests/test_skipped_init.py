"""Models that raised on what a program may do (issue 31 item 9): a layer whose subclass skips the layer's
`__init__` (peft's `LoraEmbeddingATPHolder(nn.Embedding)` calls `nn.Module.__init__` and sets its weight
through `_parameters`) is read through `self.weight` as torch's forward does, so an attribute the analyzer
did not see set is an unknown with its origin, never a model that raised (`model torch.nn.Embedding.forward
gave up: KeyError`); and a LayerNorm of a shape not understood is unknown, not a TypeError."""

from __future__ import annotations

from pathlib import Path

from pytea_ci.driver.run import Options, run

HOLDER = """\
import torch
import torch.nn as nn


class Holder(nn.{layer}):
    def __init__(self, w):
        nn.Module.__init__(self)
        self.padding_idx = None
        self._parameters["weight"] = nn.Parameter(w.T.contiguous())


if __name__ == "__main__":
    h = Holder(torch.randn(4, 10))
    y = h({inputs})
"""


def test_a_layer_built_without_its_init_reads_its_weight_as_an_attribute(tmp_path: Path) -> None:
    for layer, inputs in (("Embedding", "torch.zeros(2, 3, dtype=torch.long)"),
                          ("Bilinear", "torch.randn(2, 3), torch.randn(2, 4)")):
        (tmp_path / "holder.py").write_text(HOLDER.format(layer=layer, inputs=inputs))
        result = run([str(tmp_path / "holder.py")], Options(root=str(tmp_path)))
        (entry,) = result.entries
        assert entry.stats.unmodeled and not [w for w in entry.stats.unmodeled if "gave up" in w], layer


ADD_NORM = """\
import torch
from torch import nn


class AddNorm(nn.Module):
    def __init__(self, norm_shape):
        super().__init__()
        self.ln = nn.LayerNorm(norm_shape)

    def forward(self, X):
        return self.ln(X)


if __name__ == "__main__":
    y = AddNorm(torch.load("shape.pt"))(torch.randn(2, 3))
"""


def test_a_layer_norm_of_a_shape_not_understood_is_unknown(tmp_path: Path) -> None:
    """d2l's `nn.LayerNorm(norm_shape)` with a size library mode did not understand: the model built
    a size check over the unknown value, and the solver's canonical text raised a TypeError."""
    (tmp_path / "add_norm.py").write_text(ADD_NORM)
    (entry,) = run([str(tmp_path / "add_norm.py")], Options(root=str(tmp_path))).entries
    assert any("normalized_shape not understood" in w for w in entry.stats.unmodeled), entry.stats.unmodeled
    assert not [w for w in entry.stats.unmodeled if "gave up" in w]
