"""The inline-YAML reader (pytea_ci/models/yaml_text.py) against PyYAML's safe loader: on every
document it either gives up (None: the analyzer keeps the document unknown) or reads exactly what
PyYAML reads."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytea_ci.models.yaml_text import parse

yaml = pytest.importorskip("yaml")

DOCS = [
    "model:\n  in_channels: 3\n  widths: [16, 32]\n  dropout: 0.1\ndata:\n  image_size: 32\n",
    "a: 1\nb: [1, 2.5, x]\nc:\n  - 1\n  - two\n  - 'q'\nd: {x: 1, y: null}\ne: yes\n",
    "lr: 1e-3\n", "x: 0.5\ny: -3\nz: .5\nw: 1.\n", "list:\n- a\n- b\nk: ~\n", "x: 2020-01-01\n",
    "x: &a 1\ny: *a\n", "# c\nmodel: # m\n  name: resnet  # n\n  depth: 18\n", "- 1\n- 2\n",
    "s: 'it''s'\n", "x: 010\n", "x: 0x10\n", "x: 1_000\n", "x: .inf\n", "x: |\n  text\n", "---\na: 1\n",
    "a: 1\n---\nb: 2\n", "on: off\n", "x: 'a: b'\n", "k: v # comment\n", "x: -\n", "x: [a, [b]]\n",
    # Hydra's defaults lists: mappings inside list items, keys with `/`, `@` and spaces
    "defaults:\n  - model: mlp\n  - data@train: toy\n  - override hydra/launcher: basic\n  - _self_\n",
    "d:\n-   a: 1\n    b: [1, 2]\n-   c:\n      e: 3\n- x\n", "- a: 1\n  b:\n    c: 2\n- d: 3\n",
    "- a: 1\n   b: 2\n", "- a: 1\n b: 2\n", "- a: 1\n- - b\n", "- a:\n  - 1\n  b: 2\n", "- a b: 1\n",
    "a: {x: don't, y: 1}\n", "a: {x: 'it''s', y: 1}\n", "a: [a'b, c]\n", "a: {'k:1': 2}\n", "a: ['x\n", "a: [\"a\\tb\"]\n",
    *(QUOTED_FLOW := [
        "train: {path: 'data/train.txt', sep: '\t', lower: true}\nsave: {path_to_folder: 'models/lstm/', onnx: false}\n",
        "a: ['x, y', \"z\", 3]\n", "a: {x: 'a:b', y: 'c,d', z: \"\"}\n", "a: [ 'x' ,  'y' ]\n",
    ]),
]


@pytest.mark.parametrize("doc", QUOTED_FLOW)
def test_quoted_scalars_in_flow_collections_are_read(doc: str) -> None:
    assert parse(doc) == yaml.safe_load(doc)  # a tagger's config: `{path: 'data/train.txt', sep: '\t'}`


@pytest.mark.parametrize("doc", DOCS)
def test_reads_what_pyyaml_reads_or_gives_up(doc: str) -> None:
    mine = parse(doc)
    if mine is not None:
        assert mine == yaml.safe_load(doc)


_SCALARS = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
                     st.none(), st.text("abcxyz_019.-: ", min_size=1, max_size=8))
_KEYS = st.text("abcdefgh_", min_size=1, max_size=6)
_DOCS = st.recursive(st.dictionaries(_KEYS, _SCALARS, min_size=1, max_size=4),
                     lambda inner: st.dictionaries(_KEYS, st.one_of(inner, st.lists(_SCALARS, max_size=4), _SCALARS,
                                                                    st.lists(inner, max_size=3)),
                                                   min_size=1, max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(_DOCS, st.booleans())
def test_dumped_documents(data: dict, flow: bool) -> None:
    text = yaml.safe_dump(data, default_flow_style=flow, sort_keys=False)
    mine = parse(text)
    if mine is not None:
        assert mine == yaml.safe_load(text) == data
