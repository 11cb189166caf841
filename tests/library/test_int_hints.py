"""Which required constructor parameters library mode builds as sizes, by their names: `n_` and `d_` only at the
start of a word (`n_heads`, `d_model`, `max_n_tokens`). Main took any name holding them: speechbrain's
`run_opts` (then `run_opts.overridden_args` raised an AttributeError CPython never raises, in 8 constructions)
and asteroid's `rnn_type` (`rnn_type.upper()` not known) were built as positive integers, and mmsegmentation's
`CrossEntropyLoss(class_weight=None)` too (a false PT003: `class_weight[c]` of the 0-d tensor it became). A name
ending in the word `rank` or `neurons` is a size (`read_gate_rank`, a size only through its `d_` before: x-transformers'
GatedMultiResidual checked nothing since; speechbrain's `lin_neurons`)."""
from __future__ import annotations

import pytest

from pytea_ci.library.targets import _int_name


@pytest.mark.parametrize("name", ["n_heads", "d_model", "max_n_tokens", "num_d_layer_dims", "n", "hidden_dim",
                                  "read_gate_rank", "lora_rank", "rank", "lin_neurons", "dnn_neurons"])
def test_sizes(name: str) -> None:
    assert _int_name(name)


@pytest.mark.parametrize("name", ["run_opts", "rnn_type", "attn_drop", "fn", "class_weight", "num_layers", "rank_key",
                                  "low_rank_silu_gates", "filtered_ranking"])
def test_not_sizes(name: str) -> None:
    assert not _int_name(name)
