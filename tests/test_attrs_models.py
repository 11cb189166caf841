"""attrs classes against attrs itself (models/attrs_.py): each program ends its values in probes
`p_NAME = torch.zeros(v)`; CPython with the installed attrs runs it for the truth (tests/test_python_values.py
`cpython_probes`), and the analyzer's shape of every probe must be CPython's. Skipped where attrs is not
installed (the models never import it)."""

from __future__ import annotations

import pytest

from tests.oracle.fuzz_python import Analyzer
from tests.test_python_values import exact, verdicts

pytest.importorskip("attr")


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def test_classic_fields_converters_aliases_and_evolve(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import attr
        import torch

        @attr.s
        class Params(object):
            name = attr.ib(default="copy")
            width = attr.ib(default=8, converter=int)
            _seed = attr.ib(default=2)
            sizes = attr.ib(factory=list)

        p = Params()
        q = attr.evolve(p, width="11", seed=5)
        r = Params("add", "3", 4, [1, 2])
        p_width = torch.zeros(p.width, q.width, r.width)
        p_seed = torch.zeros(p._seed, q._seed, r._seed)
        p_sizes = torch.zeros(len(p.sizes), len(r.sizes))
        p_eq = torch.zeros(int(p == Params()), int(p == q), int(p != q))
        p_dict = torch.zeros(len(attr.asdict(r)), len(attr.astuple(q)), len(attr.fields(Params)))
        p_names = torch.zeros(*[len(f.name) for f in attr.fields(Params)])
        p_has = torch.zeros(int(attr.has(Params)), int(attr.has(object)))
    ''')


def test_default_decorators_factories_and_post_init(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import attr
        import torch

        @attr.s
        class Base(object):
            batch = attr.ib(default=4)

        @attr.s
        class Task(Base):
            width = attr.ib(default=attr.Factory(lambda self: self.batch * 2, takes_self=True))
            depth = attr.ib()
            seen = attr.ib(init=False, default=7)

            @depth.default
            def _depth(self):
                return self.width + 1

            def __attrs_post_init__(self):
                self.total = self.batch + self.width + self.depth + self.seen

        t = Task()
        u = Task(3)
        v = Task(width=5, batch=1)
        p_t = torch.zeros(t.batch, t.width, t.depth, t.total)
        p_u = torch.zeros(u.batch, u.width, u.depth, u.total)
        p_v = torch.zeros(v.batch, v.width, v.depth, v.seen)
    ''')


def test_define_annotations_frozen_and_slots(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import attrs
        import torch

        @attrs.define
        class Config:
            hidden: int = 16
            layers: list = attrs.field(factory=lambda: [1, 2, 3])
            scale: int = attrs.field(default=2, kw_only=True)

        @attrs.frozen
        class Frozen:
            n: int = 3

        c = Config(8, scale=5)
        try:
            c.extra = 1
            slotted = 0
        except AttributeError:
            slotted = 1
        f = Frozen()
        try:
            f.n = 4
            frozen = 0
        except AttributeError:
            frozen = 1
        d = attrs.evolve(c, hidden=2)
        p_c = torch.zeros(c.hidden, len(c.layers), c.scale, slotted, frozen, f.n)
        p_d = torch.zeros(d.hidden, d.scale, len(attrs.asdict(d)))
    ''')


def test_a_call_that_does_not_fit_raises(analyzer: Analyzer) -> None:
    got = verdicts(analyzer, '''
        import attr
        import torch

        @attr.s
        class P(object):
            a = attr.ib()
            b = attr.ib(default=1, kw_only=True)

        try:
            P()
            missing = 0
        except TypeError:
            missing = 1
        try:
            P(1, 2)
            extra = 0
        except TypeError:
            extra = 1
        p_raised = torch.zeros(missing, extra, P(4).a, P(4, b=6).b)
    ''')
    assert set(got.values()) == {"exact"}, got


def test_a_frozen_dataclass_raises_an_attribute_error(analyzer: Analyzer) -> None:
    """dataclasses' FrozenInstanceError is an AttributeError: `except AttributeError` catches it (it
    ended the path before)."""
    exact(analyzer, '''
        import dataclasses
        import torch

        @dataclasses.dataclass(frozen=True)
        class Frozen:
            n: int = 3

        f = Frozen()
        try:
            f.n = 4
            caught = 0
        except AttributeError:
            caught = 1
        p_caught = torch.zeros(caught, f.n)
    ''')


def test_an_option_that_collects_values_is_its_default_when_not_given(analyzer: Analyzer) -> None:
    """`-p key=value` options (`action="append"`, `"extend"`, `"append_const"`) of a run that gives none."""
    exact(analyzer, '''
        import argparse
        import torch

        parser = argparse.ArgumentParser()
        parser.add_argument("-p", "--param", action="append", default=["a=1", "b=2"])
        parser.add_argument("--tag", action="append")
        parser.add_argument("--more", action="extend", nargs="+", default=[])
        parser.add_argument("--const", action="append_const", const=3, default=[1])
        args = parser.parse_args([])
        p_lengths = torch.zeros(len(args.param), int(args.tag is None), len(args.more), len(args.const))
    ''')
