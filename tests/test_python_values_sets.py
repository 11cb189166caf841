"""Sets whose iteration order CPython leaves to PYTHONHASHSEED (issue 31 item 1/2, interp/unordered.py),
against CPython: what does not depend on the order is exact (sizes, membership, sorted views, the largest
id of a vocabulary numbered in a set's order), what does (the first word, one word's id, a join's text)
is never claimed — the analyzer says nothing of it rather than its own process's order."""

from __future__ import annotations

import pytest

from tests.oracle.fuzz_python import Analyzer
from tests.test_python_values import exact, verdicts


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


VOCAB = '''
    import collections
    import torch

    words = "i like dog i love coffee i hate milk".split()
    vocab = list(set(words))
    stoi = {w: i for i, w in enumerate(vocab)}
    pairs = dict(zip(vocab, range(len(vocab))))
'''


def test_what_does_not_depend_on_the_order_is_exact(analyzer: Analyzer) -> None:
    exact(analyzer, VOCAB + '''
    p_len = torch.zeros(len(set(words)), len(vocab), len(stoi), len(pairs))
    p_max = torch.zeros(max(stoi.values()) + 1, max(pairs.values()) + 1, min(stoi.values()) + 1)
    p_sum = torch.zeros(sum(stoi.values()))
    p_sorted = torch.zeros(len(sorted(vocab)[0]), len(sorted(set(words))[-1]), len(max(vocab)))
    p_in = torch.zeros(2 if "dog" in vocab else 3, 2 if "cat" in stoi else 3)
    p_longest = torch.zeros(max(len(w) for w in vocab), sum(len(w) for w in set(words)))
    p_counter = torch.zeros(len(collections.Counter(vocab)), len(dict.fromkeys(set(words))))
    p_perm = torch.zeros(2 if sorted(stoi.values()) == list(range(len(stoi))) else 3)
    p_ids = torch.zeros(max([stoi[w] for w in words]) + 1)
    p_setcomp = torch.zeros(len({len(w) for w in set(words)}), len({w: 1 for w in set(words)}))
    ''')


def test_what_depends_on_the_order_is_not_claimed(analyzer: Analyzer) -> None:
    got = verdicts(analyzer, VOCAB + '''
    p_first = torch.zeros(len(vocab[0]))
    p_id = torch.zeros(stoi["dog"] + 1)
    p_next = torch.zeros(len(next(iter(set(words)))))
    p_join = torch.zeros(len("".join(set(words))[:3]) + len(" ".join(vocab).split(" ")[0]))
    p_pop = torch.zeros(len(set(words).pop()))
    p_index = torch.zeros(vocab.index("dog") + 1)
    p_keys = torch.zeros(len(list(stoi)[0]))
    p_tie = torch.zeros(ord(sorted(set(words), key=len)[2][0]) - 100)  # like, love, hate, milk tie on len
    loop = []
    for w in set(words):
        loop.append(len(w))
    p_loop = torch.zeros(loop[0])
    ''')
    claimed = {k: v for k, v in got.items() if v in ("exact", "wrong")}
    assert not claimed, claimed


def test_numbers_keep_their_order(analyzer: Analyzer) -> None:
    """hash(n) == n: a set of small ints built the same way iterates the same in every run."""
    exact(analyzer, '''
    import torch

    ids = list({5, 1, 3, 1})
    p_first = torch.zeros(ids[0] + 1, ids[-1] + 1)
    p_enum = torch.zeros({w: i for i, w in enumerate(set([7, 2, 9]))}[9] + 1)
    ''')
