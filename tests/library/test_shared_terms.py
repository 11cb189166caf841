"""Values of dims whose sub-terms are shared (library mode's examples, `results.evaluate`): each
sub-term is valued once, not once per path through the sharing (imagen-pytorch's SRUnet256 ran past
the sweep's 11 minutes in `evaluate`, issue 31 item 9)."""

from __future__ import annotations

from pytea_ci.library import results
from pytea_ci.shapes.dim import Lin, Op, Sym


def _nested(depth: int) -> Op:
    """max(d, d + 1) nested `depth` times: `depth` distinct terms, 2**depth paths through them."""
    d: Sym | Op = Sym("n")
    for _ in range(depth):
        d = Op("max", (d, Lin(1, ((d, 1),))))
    assert isinstance(d, Op)
    return d


def test_shared_subterms_are_valued_once(monkeypatch) -> None:
    calls = []
    real = results._op
    monkeypatch.setattr(results, "_op", lambda op, args: calls.append(op) or real(op, args))
    assert results.evaluate(_nested(16), {"n": 3}) == 3 + 16
    assert len(calls) == 16


def test_missing_symbol_is_none() -> None:
    assert results.evaluate(_nested(4), {}) is None
    assert results.evaluate(Lin(2, ((Sym("m"), 3),)), {"m": 5}) == 17
