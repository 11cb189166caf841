"""The solver cache's canonical query text over shared sub-terms (`solver/canon.py`): each long
sub-term is written once, so the text grows with the number of distinct sub-terms, not with the
paths through their sharing (asteroid's SuDORMRF spent 498 s building and hashing such texts)."""

from __future__ import annotations

from pytea_ci.shapes.dim import Lin, Op, Sym
from pytea_ci.shapes.pred import Pred, le
from pytea_ci.solver.canon import canonical_text, query_key


def _nested(depth: int, name: str = "n", const: int = 1) -> Op | Sym:
    """max(d, d + const) nested `depth` times: `depth` distinct terms, 2**depth paths through them."""
    d: Sym | Op = Sym(name)
    for _ in range(depth):
        d = Op("max", (d, Lin(const, ((d, 1),))))
    return d


def _bound(d: object) -> Pred:
    p = le(d, 10**6)  # type: ignore[arg-type]
    assert isinstance(p, Pred)
    return p


def test_text_grows_with_the_distinct_subterms() -> None:
    text, _ = canonical_text([_bound(_nested(14))], "salt")
    assert len(text) < 20 * 14 * 30


def test_equal_structure_same_key_other_structure_other_key() -> None:
    a = query_key([_bound(_nested(12))], "s")[0]
    assert a == query_key([_bound(_nested(12, name="m"))], "s")[0]  # symbols renamed by appearance
    assert a != query_key([_bound(_nested(12, const=2))], "s")[0]
    assert a != query_key([_bound(_nested(11))], "s")[0]


def test_short_queries_are_written_out() -> None:
    text, names = canonical_text([_bound(Lin(3, ((Sym("k"), 2),)))], "s")
    assert "#" not in text and names == {"k": "v0"}
