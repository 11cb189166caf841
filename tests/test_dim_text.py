"""The printed text of a size is bounded (shapes/dim.py `TEXT_LIMIT`): a size whose sub-terms are shared
is exponential in the depth of the sharing when written out (asteroid's SuDORMRF: its per-layer table
spent ~500 s building such texts, issue 31 item 9). A longer text prints as its start and a digest of
the whole, distinct sizes keep distinct texts, and the normal form that orders atoms by their text
still makes equal sums equal. The symbol names of a term, which the solver asks for at every check,
are walked once."""

from __future__ import annotations

from pytea_ci.shapes.dim import TEXT_LIMIT, Op, Sym, add, dmax, mul
from pytea_ci.shapes.tensor import fmt_shape


def _nested(depth: int, name: str = "n", const: int = 1) -> Op | Sym:
    """max(d, d + const) nested `depth` times: `depth` distinct terms, 2**depth paths through them."""
    d: Sym | Op = Sym(name)
    for _ in range(depth):
        m = dmax(d, add(d, const))
        assert isinstance(m, Op)
        d = m
    return d


def test_a_size_nested_through_shared_subterms_prints_bounded() -> None:
    deep = _nested(20)  # written out: 2**20 copies of `n`, 13 MB
    text = fmt_shape((Sym("b"), deep))
    assert len(text) < 2 * TEXT_LIMIT
    assert text.startswith("[b, max(") and "<size #" in text


def test_distinct_long_sizes_print_distinctly_and_deterministically() -> None:
    a, b = _nested(16), _nested(16, const=2)
    assert repr(a) != repr(b) and repr(a)[:20] == repr(b)[:20]
    assert repr(_nested(16)) == repr(a)  # the same structure, built again: the same text


def test_short_sizes_print_in_full() -> None:
    n = Sym("n")
    assert repr(_nested(2)) == "max(max(n, n + 1), max(n, n + 1) + 1)"
    assert repr(mul(add(n, 3), Sym("c"))) == "(c * (n + 3))"


def test_sums_of_long_terms_are_equal_whatever_the_order_they_were_added_in() -> None:
    x, y, z = _nested(16), _nested(16, const=2), _nested(16, name="m")
    assert add(add(x, y), z) == add(add(z, x), y) == add(y, add(z, x))
    assert mul(mul(x, y), z) == mul(z, mul(y, x))


def test_the_symbol_names_of_a_term_are_walked_once(monkeypatch) -> None:
    """The solver asks for the names of every path-condition conjunct at every check (`_relevant`):
    kept on the term, they are walked once (asteroid's SuDORMRF walked them 457,000 times)."""
    from pytea_ci.shapes import dim
    from pytea_ci.shapes.pred import le

    walks = []
    real = dim.symbols
    monkeypatch.setattr(dim, "symbols", lambda d: walks.append(d) or real(d))
    p = le(add(_nested(12), Sym("m")), 10**6)
    assert [dim.symbol_names(p) for _ in range(5)] == [frozenset({"n", "m"})] * 5
    assert len(walks) == 1
