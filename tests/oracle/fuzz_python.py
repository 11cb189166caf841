"""Random programs in the Python real model code is written in, for differential testing of the
interpreter's Python semantics against CPython (issue 31, item 1).

A program is a few *snippets*, each written with one or two constructs (builtins, enum, itertools,
functools, operator, collections, math, dataclasses, NamedTuple, strings and f-strings,
comprehensions, closures and scoping, exceptions and `with`, generators, `match`, classes). Each
snippet ends by binding a value `v_K`; snippets may read earlier snippets' small values, so
constructs compose. CPython runs each snippet as it is generated (the truth; a snippet that raises or
whose value is too large is drawn again). Then every value reaches a tensor:

* a *probe* `p_K_J = torch.zeros(...)` whose size is the value (an int directly, a bool through a
  branch `2 if v else 3`, a string through `len` and `==`, a list through its length and elements);
  the analyzer's claim about the value is read back from the shape it records for `p_K_J`
  (`pytea_ci/interp/observe.py`, the language server's hover recorder, used read-only);
* a *sink*, the way model code consumes such values: padding lists (`F.pad`), `torch.split` unpacked
  into names, `view`, an index, a branch choosing the input of an `nn.Linear`, a Python list unpacked.

The last snippet may be one that CPython ends with a Python exception (an unbound local read by
`return a, b, c`, a missing key, a failed assert on a non-tensor value): no shape finding may stand for
it. `compare` runs the final program under CPython + torch and analyzes it with pytea-ci; it reports
per probe whether the analyzer knew the value (exact), did not (symbolic / forked over several values
including the truth / not reached) or claimed a wrong one, and every error finding CPython contradicts.
"""

from __future__ import annotations

import os
import random
import signal
import tempfile
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

HEADER = [
    "import collections", "import contextlib", "import dataclasses", "import enum", "import functools",
    "import itertools", "import math", "import operator", "import typing", "",
    "import torch", "import torch.nn as nn", "import torch.nn.functional as F", "",
]
MAX_INT = 4096
MAX_LEN = 12
WORDS = ("ab", "cde", "x", "mlp", "attn", "head", "conv", "", "a_b", "Q")


class Reject(Exception):
    """A draw to throw away (CPython raised, or a value too large to be a size)."""


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    def stop(*_: object) -> None:
        raise Reject("timeout")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _small(v: Any) -> bool:
    if isinstance(v, bool) or isinstance(v, str):
        return len(v) <= 40 if isinstance(v, str) else True
    if isinstance(v, int):
        return abs(v) <= MAX_INT
    if isinstance(v, (list, tuple)):
        return len(v) <= MAX_LEN and all(isinstance(x, int) and not isinstance(x, bool) and abs(x) <= MAX_INT
                                          for x in v)
    return False


@dataclass
class Snippet:
    lines: list[str]
    var: str
    constructs: tuple[str, ...]
    value: Any = None
    raises: bool = False  # the tail snippet CPython ends with a Python exception


@dataclass
class Probe:
    name: str  # the tensor name the recorder reports
    line: int  # 1-based line of the probe in the program
    want: tuple[int, ...]  # the shape CPython + torch give
    var: str
    constructs: tuple[str, ...]


@dataclass
class Program:
    seed: int
    lines: list[str]
    snippets: list[Snippet]
    probes: list[Probe] = field(default_factory=list)
    sink_lines: set[int] = field(default_factory=set)

    @property
    def source(self) -> str:
        return "\n".join(self.lines) + "\n"


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
        with _deadline(1.0):
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


# -------------------------------------------------------------------- programs
def draw_snippets(seed: int) -> list[Snippet]:
    """Snippets drawn and run under CPython one by one (a snippet CPython rejects is drawn again)."""
    from tests.oracle.fuzz_python_snippets import SNIPPETS, raising_snippet

    rng = random.Random(seed)
    g = Gen(rng)
    out: list[Snippet] = []
    for k in range(rng.randint(2, 5)):
        for _ in range(8):
            g.tags = set()
            try:
                lines, constructs = rng.choice(SNIPPETS)(g, k)
                value = _run_snippet(g, lines, f"v_{k}")
            except Reject:
                continue
            out.append(Snippet(lines, f"v_{k}", tuple(sorted(set(constructs) | g.tags)), value))
            _remember(g, f"v_{k}", value)
            break
    if rng.random() < 0.15:
        g.tags = set()
        lines, constructs = raising_snippet(g, len(out) + 10)
        out.append(Snippet(lines, "", tuple(sorted(set(constructs) | g.tags)), raises=True))
    return out


def _run_snippet(g: Gen, lines: list[str], var: str) -> Any:
    trial = dict(g.env)
    try:
        with _deadline(1.0):
            exec("\n".join(lines), trial)  # noqa: S102  (CPython is the oracle)
    except Reject:
        raise
    except Exception as e:
        raise Reject(repr(e)) from None
    value = trial.get(var)
    if not _small(value):
        raise Reject(f"value {value!r:.40}")
    g.env = trial
    return value


def _remember(g: Gen, var: str, value: Any) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        g.ints.append(var)
    elif isinstance(value, list):
        g.lists.append(var)
    elif isinstance(value, str):
        g.strs.append(var)


def probe_lines(s: Snippet, j0: int = 0) -> list[tuple[str, str, tuple[int, ...]]]:
    """(tensor name, line, shape CPython gives) for each probe of a snippet's value."""
    v, k = s.value, s.var[2:]
    out: list[tuple[str, str, tuple[int, ...]]] = []

    def add(expr: str, shape: tuple[int, ...]) -> None:
        name = f"p_{k}_{len(out)}"
        out.append((name, f"{name} = torch.zeros({expr})", shape))

    if isinstance(v, bool):
        add(f"2 if {s.var} else 3", (2 if v else 3,))
    elif isinstance(v, int):
        add(s.var if v >= 0 else f"-{s.var}", (abs(v),))
    elif isinstance(v, str):
        add(f"len({s.var})", (len(v),))
        add(f"2 if {s.var} == {v!r} else 3", (2,))
    elif isinstance(v, (list, tuple)):
        add(f"len({s.var})", (len(v),))
        if 1 <= len(v) <= 4 and all(0 <= x <= 64 for x in v) and _prod(v) <= 4096:
            add(f"*{s.var}", tuple(v))
        elif v:
            add(f"abs({s.var}[-1])", (abs(v[-1]),))
    return out


def _prod(v: Any) -> int:
    p = 1
    for x in v:
        p *= x
    return p


def sink_lines(s: Snippet, rng: random.Random) -> list[str]:
    """Lines where model code consumes the value: padding, split-and-unpack, view, index, a Linear fed
    a tensor whose size (or branch) the value chose; CPython + torch judge them."""
    v, n, k = s.value, s.var, s.var[2:]
    if isinstance(v, bool):
        a, b = rng.sample([3, 4, 5], 2)
        return [f"h_{k} = torch.zeros(1, {a}) if {n} else torch.zeros(1, {b})",
                f"y_{k} = nn.Linear({a if v else b}, 2)(h_{k})"]
    if isinstance(v, int) and 1 <= v <= 64:
        return [rng.choice([f"y_{k} = nn.Linear({n}, 2)(torch.zeros(1, {v}))",
                            f"s1_{k}, s2_{k} = torch.split(torch.zeros(2 * {n}), {n})",
                            f"s1_{k}, s2_{k} = torch.split(torch.zeros({2 * v}), {n})",
                            f"y_{k} = torch.zeros({v} * 3).view({n}, -1)",
                            f"y_{k} = torch.zeros({v} + 2)[{n}]",
                            f"y_{k} = torch.zeros(2, {v * 2}).view(-1, {n}, 2)"])]
    if isinstance(v, (list, tuple)):
        if v and len(v) <= 8 and all(0 <= x <= 3 for x in v):
            return [f"y_{k} = F.pad(torch.zeros(2, 3, 4, 5), {n})"]
        if 2 <= len(v) <= 3 and all(0 <= x <= 64 for x in v):
            return [f"first_{k}, *rest_{k} = {n}", f"y_{k} = torch.zeros(first_{k}, len(rest_{k}))"]
    if isinstance(v, str) and v:
        return [f"y_{k} = nn.Linear(len({n}), 2)(torch.zeros(1, {len(v)}))"]
    return []


def make_program(seed: int, snippets: list[Snippet] | None = None) -> Program:
    rng = random.Random(seed * 7 + 1)
    snippets = draw_snippets(seed) if snippets is None else snippets
    prog = Program(seed, list(HEADER), snippets)
    for s in snippets:
        if not s.raises:
            prog.lines += s.lines + [""]
    for s in snippets:
        if not s.raises:
            for name, line, shape in probe_lines(s):
                prog.lines.append(line)
                prog.probes.append(Probe(name, len(prog.lines), shape, s.var, s.constructs))
    for s in snippets:
        if not s.raises and rng.random() < 0.7:
            for line in sink_lines(s, rng):
                prog.lines.append(line)
                prog.sink_lines.add(len(prog.lines))
    for s in snippets:
        if s.raises:
            prog.lines += [""] + s.lines
    return prog


# -------------------------------------------------------------------- the two runs
@dataclass
class Truth:
    error: str | None = None  # exception type name
    line: int | None = None  # innermost program line of the traceback
    lines: set[int] = field(default_factory=set)  # every program line in the traceback


def run_cpython(prog: Program) -> Truth:
    """The whole program under CPython + torch (the oracle)."""
    env: dict[str, Any] = {"__name__": "__main__"}
    try:
        with _deadline(20.0):
            exec(compile(prog.source, "<pyfuzz>", "exec"), env)  # noqa: S102  (the oracle runs it on purpose)
    except Exception as e:
        frames = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<pyfuzz>"]
        return Truth(type(e).__name__, frames[-1] if frames else None, {x for x in frames if x})
    finally:
        for p in prog.probes:  # the generator's own claim, checked by torch
            if p.name in env and tuple(env[p.name].shape) != p.want:
                raise AssertionError(f"seed {prog.seed}: {p.name} is {tuple(env[p.name].shape)}, not {p.want}")
    return Truth()


@dataclass
class Analysis:
    shapes: dict[str, set[str]]  # probe name -> every shape text the recorder saw (one per path)
    errors: list[tuple[int, str, str]]  # (line, rule, message) of error findings
    warnings: list[tuple[int, str, str]]
    crash: str | None = None


class Analyzer:
    """pytea-ci in this process with one decider, the hover recorder installed for each run."""

    def __init__(self, strict: bool = False) -> None:
        from pytea_ci.solver import Decider

        self.decider = Decider(timeout_ms=2000, salt="pytea-ci pyfuzz")
        self.folder = tempfile.mkdtemp(prefix="pytea-pyfuzz-")
        self.strict = strict

    def analyze(self, source: str) -> Analysis:
        from pytea_ci.diagnostics import Severity
        from pytea_ci.driver.run import Options, run_one
        from pytea_ci.interp import observe

        path = os.path.join(self.folder, "prog.py")
        with open(path, "w") as f:
            f.write(source)
        seen: dict[str, set[str]] = {}

        def record(span: Any, name: str, text: str, origins: tuple[str, ...]) -> None:
            if name.startswith("p_"):
                seen.setdefault(name, set()).add(text.split("]")[0] + "]")

        observe.install(record)
        try:
            result = run_one(path, Options(root=self.folder, strict=self.strict), self.decider)
        except Exception as e:  # an analyzer bug under strict mode: a finding of the fuzzer
            return Analysis(seen, [], [], f"{type(e).__name__}: {e}")
        finally:
            observe.install(None)
        crash = next((d.message for d in result.diagnostics if "internal error" in d.message), None)
        errors = [(d.span.line, d.rule, d.message) for d in result.diagnostics if d.severity == Severity.ERROR]
        warnings = [(d.span.line, d.rule, d.message) for d in result.diagnostics if d.severity == Severity.WARNING]
        return Analysis(seen, errors, warnings, crash)


def parse_shape(text: str) -> tuple[int, ...] | None:
    """The concrete shape of a recorded text such as `[3, 4]`; None when any size is symbolic."""
    inner = text.strip()[1:-1].strip()
    if not inner:
        return ()
    try:
        return tuple(int(x) for x in inner.split(","))
    except ValueError:
        return None


def judge_probe(want: tuple[int, ...], texts: set[str] | None) -> str:
    """exact | wrong | symbolic | forked | unreached."""
    if not texts:
        return "unreached"
    shapes = [parse_shape(t) for t in texts]
    concrete = {s for s in shapes if s is not None}
    symbolic = any(s is None for s in shapes)
    if concrete and want not in concrete and not symbolic:
        return "wrong"
    if concrete == {want} and not symbolic:
        return "exact"
    return "forked" if len(concrete - {want}) else "symbolic"


@dataclass
class Outcome:
    seed: int
    prog: Program
    truth: Truth
    probes: list[tuple[Probe, str, set[str]]]  # (probe, verdict, recorded texts)
    failures: list[tuple[str, str]]  # (kind, detail): wrong-value, false-alarm, exception-as-shape-error, crash
    found: bool | None = None  # a torch error at a sink: was it reported at its line (None: no such error)
    warnings_on_clean: int = 0
    true_asserts: int = 0


def compare(seed: int, analyzer: Analyzer, prog: Program | None = None) -> Outcome:
    prog = make_program(seed) if prog is None else prog
    truth = run_cpython(prog)
    got = analyzer.analyze(prog.source)
    out = Outcome(seed, prog, truth, [], [])
    if got.crash:
        out.failures.append(("crash", got.crash))
    for p in prog.probes:
        verdict = judge_probe(p.want, got.shapes.get(p.name))
        out.probes.append((p, verdict, got.shapes.get(p.name, set())))
        if verdict == "wrong":
            out.failures.append(("wrong-value", f"line {p.line} {p.name}: CPython {list(p.want)}, "
                                                f"pytea {sorted(got.shapes[p.name])}"))
    sink_error = truth.error is not None and truth.line in prog.sink_lines
    for line, rule, msg in got.errors:
        if sink_error and line == truth.line:
            continue
        if truth.error == "AssertionError" and line == truth.line and rule == "PT004":
            out.true_asserts += 1  # the program's own assert, which CPython fails too
            continue
        kind = "exception-as-shape-error" if truth.error and not sink_error and line in truth.lines else "false-alarm"
        out.failures.append((kind, f"line {line} {rule}: {msg} (CPython: {truth.error or 'runs'})"))
    if sink_error:
        out.found = any(line == truth.line for line, _, _ in got.errors + got.warnings)
    if truth.error is None:
        out.warnings_on_clean = len(got.warnings)
    return out


def failure_key(kind: str, detail: str) -> str:
    """What identifies one failure across reductions: the probe of a wrong value, else the kind and rule."""
    words = detail.split()
    if kind == "wrong-value":
        return f"{kind} {words[2].rstrip(':')}"
    return f"{kind} {words[2].rstrip(':') if len(words) > 2 and words[0] == 'line' else ''}".strip()


def reduce(out: Outcome, analyzer: Analyzer, key: str) -> Program:
    """The failing program with every snippet dropped that the failure `key` does not need (greedy, one
    at a time, last first; a snippet another one reads is kept)."""
    snippets = list(out.prog.snippets)
    i = len(snippets) - 1
    while i >= 0 and len(snippets) > 1:
        trial = snippets[:i] + snippets[i + 1:]
        dropped = snippets[i].var
        if not dropped or not any(dropped in line for s in trial for line in s.lines):
            again = compare(out.seed, analyzer, make_program(out.seed, trial))
            if key in {failure_key(k, d) for k, d in again.failures}:
                snippets = trial
        i -= 1
    return make_program(out.seed, snippets)
