"""The expression grammar of the Python fuzzer (`tests/oracle/fuzz_python.py`): ints, lists, strings
and bools drawn from builtins, itertools, functools, operator, collections, math, strings, f-strings
and comprehensions, over the small values earlier snippets bound; each draw records the constructs it
used. CPython evaluates sub-expressions where a draw needs a value (an index in range).
"""

from __future__ import annotations

import random
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

HEADER = [
    "import argparse", "import asyncio", "import collections", "import contextlib", "import dataclasses", "import enum", "import functools",
    "import itertools", "import math", "import operator", "import types", "import typing", "",
    "import torch", "import torch.nn as nn", "import torch.nn.functional as F", "",
]
MAX_INT = 4096
MAX_LEN = 12
WORDS = ("ab", "cde", "x", "mlp", "attn", "head", "conv", "", "a_b", "Q")


class Reject(Exception):
    """A draw to throw away (CPython raised, or a value too large to be a size)."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    def stop(*_: object) -> None:
        raise Reject("timeout")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def small(v: Any) -> bool:
    if isinstance(v, bool) or isinstance(v, str):
        return len(v) <= 40 if isinstance(v, str) else True
    if isinstance(v, int):
        return abs(v) <= MAX_INT
    if isinstance(v, (list, tuple)):
        return len(v) <= MAX_LEN and all(isinstance(x, int) and not isinstance(x, bool) and abs(x) <= MAX_INT
                                          for x in v)
    return False


class Gen:
    """Draws expressions over the values bound so far (`self.ints`, `self.lists`, ...), each tagged with
    the constructs it uses; `self.env` is the CPython namespace the snippets ran in."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.env: dict[str, Any] = {}
        exec("\n".join(h for h in HEADER if "torch" not in h), self.env)  # noqa: S102  (the oracle)
        self.ints: list[str] = []
        self.lists: list[str] = []
        self.strs: list[str] = []
        self.tags: set[str] = set()

    # ---------------------------------------------------------------- leaves and helpers
    def pick(self, *options: Callable[[], str]) -> str:
        return self.rng.choice(options)()

    def lit(self, lo: int = 0, hi: int = 6) -> str:
        return str(self.rng.randint(lo, hi))

    def truth(self, expr: str) -> Any:
        with deadline(1.0):
            return eval(expr, self.env)  # noqa: S307  (CPython is the oracle)

    def leaf(self) -> str:
        small = [v for v in self.ints if isinstance(self.env.get(v), int) and 0 <= self.env[v] <= 8]
        if small and self.rng.random() < 0.4:
            return self.rng.choice(small)
        return self.lit()

    def tag(self, *names: str) -> None:
        self.tags.update(names)

    # ---------------------------------------------------------------- ints
    def int_expr(self, depth: int = 2) -> str:
        if depth <= 0 or self.rng.random() < 0.2:
            return self.leaf()
        d = depth - 1
        a, b = (lambda: self.int_expr(d)), (lambda: self.leaf())
        rng = self.rng
        choices: list[tuple[str, Callable[[], str]]] = [
            ("builtins", lambda: f"({a()} {rng.choice(['+', '-', '*', '//', '%', '&', '|', '^', '<<'])} "
                                 f"{rng.randint(1, 3)})"),
            ("builtins", lambda: f"{rng.choice(['max', 'min'])}({a()}, {b()})"),
            ("builtins", lambda: f"abs({a()} - {b()})"),
            ("builtins", lambda: f"len({self.list_expr(d)})"),
            ("builtins", lambda: f"sum({self.list_expr(d)})"),
            ("builtins", lambda: f"{rng.choice(['max', 'min'])}({self.list_expr(d)}, default={b()})"),
            ("builtins", lambda: f"round({a()} / {rng.randint(2, 4)})"),
            ("builtins", lambda: f"int({a()} / {rng.randint(2, 4)})"),
            ("builtins", lambda: f"int(str({a()}) + str({b()}))"),
            ("builtins", lambda: f"divmod({a()}, {rng.randint(1, 4)})[{rng.randint(0, 1)}]"),
            ("builtins", lambda: f"next(iter({self.list_expr(d)}), {b()})"),
            ("builtins", lambda: f"len(range({b()}, {a()}, {rng.randint(1, 3)}))"),
            ("builtins", lambda: f"({a()}).bit_length()"),
            ("builtins", lambda: f"int({self.bool_expr(d)}) + {b()}"),
            ("builtins", lambda: f"{{'p': {a()}, 'q': {b()}}}.get({rng.choice(['p', 'q', 'r'])!r}, {b()})"),
            ("builtins", lambda: f"len({{x % {rng.randint(1, 4)} for x in {self.list_expr(d)}}})"),
            ("builtins", self.index_expr),
            ("builtins", lambda: f"({a()} if {self.bool_expr(d)} else {b()})"),
            ("math", lambda: f"math.{rng.choice(['ceil', 'floor'])}({a()} / {rng.randint(2, 4)})"),
            ("math", lambda: f"math.gcd({a()}, {b()})"),
            ("math", lambda: f"math.isqrt({a()})"),
            ("math", lambda: f"math.comb({b()}, 2)"),
            ("math", lambda: f"math.prod({self.list_expr(0)})"),
            ("math", lambda: f"int(math.log2(2 ** {b()}))"),
            ("math", lambda: f"int(math.sqrt({a()}))"),
            ("math", lambda: f"int(10 * math.{rng.choice(['erf', 'tanh', 'atan', 'log1p', 'expm1'])}({a()} / {b()}))"),
            ("math", lambda: f"int(math.copysign({a()}, {rng.choice([-1, 1])}))"),
            ("math", lambda: f"math.lcm({b()}, {rng.randint(1, 4)})"),
            ("math", lambda: f"int(math.pi * {b()})"),
            ("operator", lambda: f"operator.{rng.choice(['add', 'mul', 'sub', 'floordiv'])}({a()}, {rng.randint(1, 3)})"),
            ("operator", lambda: f"operator.index({a()})"),
            ("functools", lambda: f"functools.reduce(operator.add, {self.list_expr(d)}, {b()})"),
            ("functools", lambda: f"functools.reduce(lambda s, t: s * 2 + t, {self.list_expr(d)}, 0) % 97"),
            ("functools", lambda: f"functools.partial(max, {b()})({a()})"),
            ("itertools", lambda: f"len(list(itertools.combinations({self.list_expr(0)}, 2)))"),
            ("itertools", lambda: f"len(list(itertools.product({self.list_expr(0)}, repeat=2)))"),
            ("itertools", lambda: f"sum(1 for _ in itertools.islice(itertools.count({b()}), {a()}))"),
            ("itertools", lambda: f"len(list(itertools.chain.from_iterable({self.nested_expr(d)})))"),
            ("collections", lambda: f"collections.Counter({self.list_expr(d)})[{b()}]"),
            ("collections", lambda: f"len(collections.Counter({self.str_expr(d)}))"),
            ("collections", lambda: f"len(collections.deque({self.list_expr(d)}, maxlen={rng.randint(1, 4)}))"),
            ("collections", self.defaultdict_expr),
            ("strings", lambda: f"len({self.str_expr(d)})"),
            ("strings", lambda: f"{self.str_expr(d)}.count({rng.choice(['a', 'b', '_', 'x'])!r})"),
            ("strings", lambda: f"len({self.str_expr(d)}.split({rng.choice(['_', 'x', ','])!r}))"),
            ("strings", lambda: f"({self.str_expr(d)}).find({rng.choice(['a', 'b', 'x'])!r})"),
            ("comprehensions", lambda: f"sum(x * y for x in range({b()}) for y in range({b()}) if x < y)"),
            ("comprehensions", lambda: f"len([x for x in {self.list_expr(d)} if {self.filter_cond('x')}])"),
            ("comprehensions", lambda: f"len({{k: k * 2 for k in {self.list_expr(d)}}})"),
            ("sets_dicts", lambda: f"len(set({self.list_expr(d)}) {rng.choice(['|', '&', '-', '^'])} "
                                   f"set({self.list_expr(d)}))"),
            ("sets_dicts", lambda: f"len({{**dict.fromkeys({self.list_expr(d)}, 0), **{{{b()}: 1}}}})"),
            ("sets_dicts", lambda: f"sum((dict.fromkeys({self.list_expr(d)}, {b()}) | {{9: {b()}}}).values())"),
            ("sets_dicts", lambda: f"len(dict.fromkeys({self.list_expr(d)}).keys() & {{{b()}, {b()}}})"),
            ("sets_dicts", lambda: f"sorted({{{b()}: {a()}, 7: 1}}.items())[0][1]"),
            ("sets_dicts", lambda: f"len(frozenset({self.list_expr(d)}))"),
        ]
        construct, make = rng.choice(choices)
        self.tag(construct)
        return make()

    def index_expr(self) -> str:
        lst = self.list_expr(1)
        n = len(self.truth(lst))
        if n == 0:
            return f"len({lst})"
        return f"{lst}[{self.rng.randint(-n, n - 1)}]"

    def defaultdict_expr(self) -> str:
        lst = self.list_expr(1)
        return (f"(lambda d: [d[k % 3].append(k) for k in {lst}] and len(d) or len(d))"
                f"(collections.defaultdict(list))")

    def filter_cond(self, x: str) -> str:
        rng = self.rng
        return rng.choice([f"{x} % 2 == {rng.randint(0, 1)}", f"{x} < {self.leaf()}", f"{x} != {self.leaf()}",
                           f"{x} not in ({self.leaf()}, {self.leaf()})", f"{x}"])

    # ---------------------------------------------------------------- lists, strings, bools
    def list_expr(self, depth: int = 1) -> str:
        rng, d = self.rng, max(depth - 1, 0)
        if depth <= 0 or rng.random() < 0.25:
            if self.lists and rng.random() < 0.4:
                return rng.choice(self.lists)
            return rng.choice([f"[{', '.join(self.leaf() for _ in range(rng.randint(0, 4)))}]",
                               f"list(range({self.leaf()}))", f"list(range({self.leaf()}, {self.lit(3, 9)}))"])
        li = lambda: self.list_expr(d)  # noqa: E731
        choices: list[tuple[str, Callable[[], str]]] = [
            ("builtins", lambda: f"sorted({li()}, reverse={rng.choice([True, False])})"),
            ("builtins", lambda: f"{li()}[{rng.choice(['::-1', '1:', ':2', '::2', '-2:'])}]"),
            ("builtins", lambda: f"list(map(abs, {li()}))"),
            ("builtins", lambda: f"list(filter(None, {li()}))"),
            ("builtins", lambda: f"[*{li()}, *{li()}]"),
            ("builtins", lambda: f"[i * x for i, x in enumerate({li()})]"),
            ("builtins", lambda: f"[a + b for a, b in zip({li()}, {li()})]"),
            ("builtins", lambda: f"list(dict.fromkeys({li()}))"),
            ("builtins", lambda: f"sorted(set({li()}))"),
            ("builtins", lambda: f"list(reversed({li()}))"),
            ("builtins", lambda: f"list(divmod({self.int_expr(d)}, {rng.randint(1, 4)}))"),
            ("itertools", lambda: f"list(itertools.chain({li()}, {li()}))"),
            ("itertools", lambda: f"list(itertools.chain.from_iterable({self.nested_expr(d)}))"),
            ("itertools", lambda: f"list(itertools.accumulate({li()}))"),
            ("itertools", lambda: f"list(itertools.islice(itertools.count({self.leaf()}), {self.leaf()}))"),
            ("itertools", lambda: f"list(itertools.islice(itertools.cycle({li()}), {self.leaf()}))"),
            ("itertools", lambda: f"[a + b for a, b in zip({li()}, itertools.cycle({li()}))]"),
            ("itertools", lambda: f"[a * i for i, a in zip(range({self.leaf()}), itertools.count({self.leaf()}, 2))]"),
            ("itertools", lambda: f"[k for k, _ in itertools.groupby(sorted({li()}))]"),
            ("itertools", lambda: f"list(itertools.compress({li()}, [1, 0, 1, 1]))"),
            ("itertools", lambda: f"[a * b for a, b in itertools.zip_longest({li()}, {li()}, fillvalue=1)]"),
            ("itertools", lambda: f"list(itertools.repeat({self.leaf()}, {self.leaf()}))"),
            ("operator", lambda: f"list(itertools.starmap(operator.mul, zip({li()}, {li()})))"),
            ("operator", lambda: f"list(map(operator.neg, {li()}))"),
            ("collections", lambda: f"list(collections.Counter({li()}).values())"),
            ("collections", lambda: f"list(collections.deque({li()}, maxlen={rng.randint(1, 3)}))"),
            ("collections", lambda: f"list(collections.OrderedDict.fromkeys({li()}))"),
            ("comprehensions", lambda: f"[x * {self.lit(1, 3)} for x in {li()} if {self.filter_cond('x')}]"),
            ("comprehensions", lambda: f"[x + y for x in range({self.leaf()}) for y in range({self.leaf()}) "
                                       f"if {self.filter_cond('x')}]"),
            ("comprehensions", lambda: f"[len(w) for w in {self.str_expr(d)}.split({rng.choice(['_', 'a'])!r})]"),
            ("comprehensions", lambda: f"[y for x in {self.nested_expr(d)} for y in x]"),
            ("strings", lambda: f"[int(c) for c in str({self.int_expr(d)})]"),
            ("strings", lambda: f"[int(t) for t in {self.str_expr(d)!s}.split('_') if t.isdigit()]"),
        ]
        construct, make = rng.choice(choices)
        self.tag(construct)
        return make()

    def nested_expr(self, depth: int) -> str:
        rng = self.rng
        return rng.choice([
            "[]", "[[]]", "()", f"[{self.list_expr(depth)}, {self.list_expr(depth)}]",
            f"[(a, a) for a in {self.list_expr(depth)}]", f"[[k] * k for k in range({self.leaf()})]",
            f"(({self.leaf()}, {self.leaf()}) for _ in range({self.leaf()}))",
        ])

    def str_expr(self, depth: int = 1) -> str:
        rng, d = self.rng, max(depth - 1, 0)
        if depth <= 0 or rng.random() < 0.3:
            if self.strs and rng.random() < 0.4:
                return rng.choice(self.strs)
            return repr(rng.choice(WORDS))
        s = lambda: self.str_expr(d)  # noqa: E731
        choices: list[tuple[str, Callable[[], str]]] = [
            ("fstrings", lambda: f"f\"{{{self.int_expr(d)}}}_{{{s()}}}\""),
            ("fstrings", lambda: f"f\"{{{self.int_expr(d)}:03d}}\""),
            ("fstrings", lambda: f"f\"{{{s()}!r}}\""),
            ("fstrings", lambda: f"f\"{{{s()}:>{rng.randint(1, 6)}}}\""),
            ("fstrings", lambda: f"f\"{{{self.int_expr(d)}:b}}\""),
            ("strings", lambda: f"'_'.join(map(str, {self.list_expr(d)}))"),
            ("strings", lambda: f"{s()}.upper()"),
            ("strings", lambda: f"{s()}[::-1]"),
            ("strings", lambda: f"{s()} * {rng.randint(0, 3)}"),
            ("strings", lambda: f"{s()}.replace({rng.choice(['a', 'b', '_'])!r}, {rng.choice(['', 'xx'])!r})"),
            ("strings", lambda: f"({s()} + '  ').strip()"),
            ("strings", lambda: f"'%d-%s' % ({self.int_expr(d)}, {s()})"),
            ("strings", lambda: f"'{{}}{{}}'.format({s()}, {self.int_expr(d)})"),
            ("strings", lambda: f"{s()}.zfill({rng.randint(1, 5)})"),
            ("strings", lambda: f"{s()}.partition('_')[{rng.choice([0, 2])}]"),
            ("strings", lambda: f"{s()}.title()"),
            ("strings", lambda: f"str({self.int_expr(d)})"),
        ]
        construct, make = rng.choice(choices)
        self.tag(construct)
        return make()

    def bool_expr(self, depth: int = 1) -> str:
        rng, d = self.rng, max(depth - 1, 0)
        a = lambda: self.int_expr(d)  # noqa: E731
        choices: list[tuple[str, Callable[[], str]]] = [
            ("builtins", lambda: f"{a()} {rng.choice(['<', '<=', '==', '!=', '>', '>='])} {self.leaf()}"),
            ("builtins", lambda: f"{self.leaf()} in {self.list_expr(d)}"),
            ("builtins", lambda: f"{self.leaf()} not in {self.list_expr(d)}"),
            ("builtins", lambda: f"bool({self.list_expr(d)})"),
            ("builtins", lambda: f"any({self.list_expr(d)})"),
            ("builtins", lambda: f"all(x > {self.leaf()} for x in {self.list_expr(d)})"),
            ("builtins", lambda: f"isinstance({rng.choice([a(), repr('s'), 'True', 'None', '[]'])}, "
                                 f"{rng.choice(['int', 'str', 'list', 'bool', '(int, str)'])})"),
            ("builtins", lambda: f"{self.leaf()} < {a()} <= {self.leaf()}"),
            ("builtins", lambda: f"not {self.list_expr(d)}"),
            ("builtins", lambda: f"({a()} > 1 and {self.leaf()} < 5) or {self.leaf()} == 0"),
            ("strings", lambda: f"{self.str_expr(d)}.startswith({rng.choice(['a', 'c', 'Q', ''])!r})"),
            ("strings", lambda: f"{rng.choice(['a', 'b', '_'])!r} in {self.str_expr(d)}"),
            ("strings", lambda: f"{self.str_expr(d)} == {self.str_expr(d)}"),
            ("strings", lambda: f"{self.str_expr(d)}.isdigit()"),
        ]
        construct, make = rng.choice(choices)
        self.tag(construct)
        return make()

    def any_expr(self, depth: int = 2) -> str:
        r = self.rng.random()
        if r < 0.55:
            return self.int_expr(depth)
        if r < 0.75:
            return self.list_expr(depth)
        if r < 0.88:
            return self.bool_expr(depth)
        return self.str_expr(depth)
