"""A layer whose subclass skips the layer's `__init__` (peft's `LoraEmbeddingATPHolder(nn.Embedding)` calls
`nn.Module.__init__` and sets its weight through `_parameters`): the layer's model reads `self.weight` as
torch's forward does, so an attribute the analyzer did not see set is an unknown with its origin, never a
model that raised (`model torch.nn.Embedding.forward gave up: KeyError`, issue 31 item 9)."""

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
