"""Statement-level snippets of the Python fuzzer (`tests/oracle/fuzz_python.py`): one function per
construct, each drawing a few lines that define what they need (an enum, a dataclass, a closure, a
class hierarchy, a `match`, ...) and bind `v_K` from it; the expressions inside come from the
generator's expression grammar, so statement constructs and expression constructs compose. Each
returns (lines, constructs); `raising` snippets end the program with a Python exception in CPython.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol


class Exprs(Protocol):
    rng: random.Random

    def int_expr(self, depth: int = 2) -> str: ...
    def list_expr(self, depth: int = 1) -> str: ...
    def str_expr(self, depth: int = 1) -> str: ...
    def bool_expr(self, depth: int = 1) -> str: ...
    def any_expr(self, depth: int = 2) -> str: ...
    def leaf(self) -> str: ...
    def lit(self, lo: int = 0, hi: int = 6) -> str: ...


Made = tuple[list[str], tuple[str, ...]]


def enum_snippet(g: Exprs, k: int) -> Made:
    rng = g.rng
    base = rng.choice(["enum.Enum", "enum.IntEnum", "enum.Flag", "enum.IntFlag", "str, enum.Enum"])
    names = rng.sample(["FIXED", "LEARNED", "LEARNED_RANGE", "SMALL", "LARGE"], rng.randint(2, 4))
    flag = "Flag" in base
    if base.startswith("str"):
        values = [repr(n.lower()) for n in names]
    elif rng.random() < 0.5:
        values = ["enum.auto()"] * len(names)
    else:
        values = [str(2 ** i if flag else i + 1) for i in range(len(names))]
    E = f"E_{k}"
    lines = [f"class {E}({base}):"] + [f"    {n} = {v}" for n, v in zip(names, values)]
    m = f"{E}.{rng.choice(names)}"
    others = ", ".join(f"{E}.{n}" for n in rng.sample(names, rng.randint(1, len(names))))
    container = rng.choice([f"[{others}]", f"({others},)", f"{{{others}}}"])
    exprs = [
        f"{rng.randint(2, 5)} if m_{k} in {container} else {rng.randint(6, 9)}",
        f"{rng.randint(2, 5)} if m_{k} not in {container} else {rng.randint(6, 9)}",
        f"{rng.randint(2, 5)} if m_{k} == {E}.{rng.choice(names)} else {rng.randint(6, 9)}",
        f"{rng.randint(2, 5)} if m_{k} is {E}.{rng.choice(names)} else {rng.randint(6, 9)}",
        f"len(list({E}))", f"len({E})",
        f"len(m_{k}.name)", f"[e.name for e in {E}].index(m_{k}.name)",
        f"list({E}).index(m_{k})",
        f"{{{', '.join(f'{E}.{n}: {i + 2}' for i, n in enumerate(names))}}}[m_{k}]",
        f"{E}[{names[-1]!r}] is m_{k}",
        f"sum(1 for e in {E} if e != m_{k})",
        f"m_{k} in {E}",
    ]
    if not base.startswith("str"):
        exprs += [f"m_{k}.value", f"[e.value for e in {E}]", f"{E}({g.lit(1, 2)}).value" if not flag else
                  f"({E}.{names[0]} | {E}.{names[1]}).value"]
    if flag:
        exprs += [f"{E}.{names[0]} in ({E}.{names[0]} | {E}.{names[-1]})", f"bool(m_{k} & {E}.{names[0]})",
                  f"len(list({E}.{names[0]} | {E}.{names[1]}))"]
    if "Int" in base:
        exprs += [f"m_{k} + {g.int_expr(1)}", f"m_{k} * 2", f"sorted({E})[-1].value"]
    if base.startswith("str"):
        exprs += [f"len(m_{k})", f"m_{k} == {m.split('.')[1].lower()!r}", f"m_{k}.value.upper()"]
    lines.append(f"m_{k} = {m}")
    if rng.random() < 0.35:  # a branch statement, as model code chooses a layer (issue 31's `kind in [...]`)
        test = rng.choice([f"m_{k} in {container}", f"m_{k} not in {container}", f"m_{k} == {E}.{rng.choice(names)}",
                           f"m_{k} is {E}.{rng.choice(names)}"])
        return lines + [f"if {test}:", f"    v_{k} = {g.lit(2, 5)}", "else:", f"    v_{k} = {g.lit(6, 9)}"], ("enum",)
    lines.append(f"v_{k} = {rng.choice(exprs)}")
    return lines, ("enum",)


def dataclass_snippet(g: Exprs, k: int) -> Made:
    rng = g.rng
    D = f"D_{k}"
    frozen = rng.choice(["", "(frozen=True)", "(order=True)"])
    lines = [f"@dataclasses.dataclass{frozen}", f"class {D}:", "    a: int", f"    b: int = {g.lit(1, 4)}",
             "    c: list = dataclasses.field(default_factory=list)"]
    if rng.random() < 0.4 and "frozen" not in frozen:
        lines += ["", "    def __post_init__(self):", f"        self.b = self.b * {g.lit(1, 3)}"]
    lines += ["", "    def total(self):", "        return self.a + self.b + len(self.c)",
              f"d_{k} = {D}({g.int_expr(1)}" + rng.choice(["", f", {g.leaf()}", f", c={g.list_expr(1)}"]) + ")"]
    exprs = [f"d_{k}.total()", f"dataclasses.replace(d_{k}, b={g.leaf()}).total()",
             f"len(dataclasses.asdict(d_{k}))", f"len(dataclasses.fields({D}))", f"dataclasses.astuple(d_{k})[1]",
             f"d_{k} == {D}({g.leaf()})", f"d_{k}.b", f"len(d_{k}.c)", f"dataclasses.asdict(d_{k})['a']"]
    if "order" in frozen:
        exprs.append(f"d_{k} < {D}({g.leaf()})")
    lines.append(f"v_{k} = {rng.choice(exprs)}")
    return lines, ("dataclasses",)


def namedtuple_snippet(g: Exprs, k: int) -> Made:
    rng = g.rng
    N = f"N_{k}"
    if rng.random() < 0.6:
        lines = [f"class {N}(typing.NamedTuple):", "    x: int", f"    y: int = {g.lit(1, 4)}", "", "    def area(self):",
                 "        return self.x * self.y"]
        area = [f"n_{k}.area()"]
    else:
        lines = [f"{N} = collections.namedtuple({N!r}, 'x y', defaults=[{g.lit(1, 4)}])"]
        area = []
    lines.append(f"n_{k} = {N}({g.int_expr(1)}" + rng.choice(["", f", {g.leaf()}", f", y={g.leaf()}"]) + ")")
    exprs = area + [f"n_{k}.x + n_{k}.y", f"n_{k}[{rng.choice([0, 1, -1])}]", f"n_{k}._replace(x={g.leaf()}).x",
                    f"len({N}._fields)", f"n_{k}._asdict()['y']", f"sum(n_{k})", f"len(n_{k})",
                    f"(lambda a, b: a - b)(*n_{k})", f"max(n_{k})"]
    if rng.random() < 0.4:
        lines.append(f"a_{k}, b_{k} = n_{k}")
        exprs = [f"a_{k} * b_{k}"]
    lines.append(f"v_{k} = {rng.choice(exprs)}")
    return lines, ("namedtuple",)


def closure_snippet(g: Exprs, k: int) -> Made:
    rng = g.rng
    which = rng.randrange(5)
    if which == 0:
        lines = [f"def make_{k}(n):", "    count = 0", "", "    def inc(step=1):", "        nonlocal count",
                 "        count += step", "        return count + n", "", "    return inc",
                 f"f_{k} = make_{k}({g.int_expr(1)})", f"f_{k}()",
                 f"v_{k} = f_{k}({g.leaf()})"]
    elif which == 1:
        lines = [f"fs_{k} = [lambda: i for i in range(1, {g.lit(2, 5)})]",
                 f"gs_{k} = [lambda i=i: i * 2 for i in range({g.lit(1, 4)})]",
                 f"v_{k} = " + rng.choice([f"fs_{k}[0]()", f"gs_{k}[-1]()", f"sum(f() for f in fs_{k})",
                                           f"[f() for f in gs_{k}]"])]
    elif which == 2:
        lines = [f"G_{k} = {g.leaf()}", "", f"def bump_{k}(by):", f"    global G_{k}", f"    G_{k} += by",
                 f"    return G_{k}", f"bump_{k}({g.leaf()})", f"v_{k} = bump_{k}({g.leaf()}) + G_{k}"]
    elif which == 3:
        lines = [f"x_{k} = {g.int_expr(1)}", "", f"def shadow_{k}():", f"    x_{k} = {g.leaf()}",
                 f"    return x_{k} * 2", f"v_{k} = shadow_{k}() + x_{k}"]
    else:
        lines = [f"def adder_{k}(a):", "    return lambda b: (lambda c: a + b + c)",
                 f"v_{k} = adder_{k}({g.leaf()})({g.leaf()})({g.int_expr(1)})"]
    return lines, ("closures",)


def scoping_snippet(g: Exprs, k: int) -> Made:
    """Unbound names on the path not taken, caught the way robust code does."""
    rng = g.rng
    flag = rng.choice(["True", "False", g.bool_expr(1)])
    which = rng.randrange(4)
    if which == 0:
        lines = [f"def pick_{k}(flag):", "    if flag:", f"        a = {g.int_expr(1)}", "    else:",
                 f"        b = {g.leaf()}", "    try:", "        return a", "    except UnboundLocalError:",
                 "        return b", f"v_{k} = pick_{k}({flag})"]
    elif which == 1:
        lines = [f"def three_{k}(flag):", "    if flag:", f"        a, b, c = {g.leaf()}, {g.leaf()}, {g.leaf()}",
                 "        return a, b, c", f"    return {g.leaf()}, {g.leaf()}, 0",
                 f"p_{k}, q_{k}, r_{k} = three_{k}({flag})", f"v_{k} = p_{k} + q_{k} + r_{k}"]
    elif which == 2:
        lines = ["try:", f"    undefined_name_{k}", "except NameError:", f"    v_{k} = {g.int_expr(1)}"]
    else:
        lines = [f"y_{k} = {g.leaf()}", f"del y_{k}", "try:", f"    v_{k} = y_{k}", "except NameError as e:",
                 f"    v_{k} = len(str(e)) % 7 + {g.leaf()}"]
    return lines, ("scoping",)


def exception_snippet(g: Exprs, k: int) -> Made:
    rng = g.rng
    which = rng.randrange(5)
    err = rng.choice(["ValueError", "KeyError", "IndexError", "ZeroDivisionError"])
    catch = {"ValueError": rng.choice(["ValueError", "Exception"]), "KeyError": rng.choice(["KeyError", "LookupError"]),
             "IndexError": rng.choice(["IndexError", "LookupError", "(KeyError, IndexError)"]),
             "ZeroDivisionError": rng.choice(["ZeroDivisionError", "ArithmeticError"])}[err]
    trigger = {"ValueError": "int('x' * (n > {t}) or '7')", "KeyError": "{{'a': n}}['b' if n > {t} else 'a']",
               "IndexError": "[n][n > {t}]", "ZeroDivisionError": "n // (n <= {t})"}[err].format(t=g.lit(0, 5))
    if which == 0:
        lines = [f"def f_{k}(n):", "    r = 0", "    try:", f"        r = {trigger}", f"    except {catch}:",
                 f"        r = {rng.randint(10, 19)}", "    else:", "        r += 1", "    finally:",
                 "        r += 100", "    return r", f"v_{k} = f_{k}({g.int_expr(1)})"]
    elif which == 1:
        lines = [f"class Err_{k}(Exception):", "    def __init__(self, size):", "        super().__init__(size)",
                 "        self.size = size", "", f"def f_{k}(n):", "    try:",
                 f"        if n > {g.lit(0, 4)}:", f"            raise Err_{k}(n * 2)", "        return n",
                 f"    except Err_{k} as e:", "        return e.size", "    finally:", "        pass",
                 f"v_{k} = f_{k}({g.int_expr(1)})"]
    elif which == 2:
        lines = [f"def f_{k}(n):", "    try:", "        return n", "    finally:",
                 f"        {rng.choice(['n += 1', 'pass'])}", f"v_{k} = f_{k}({g.int_expr(1)})"]
    elif which == 3:
        lines = [f"class CM_{k}:", "    def __init__(self, n):", "        self.n = n", "        self.closed = 0",
                 "", "    def __enter__(self):", "        return self.n + 1", "",
                 "    def __exit__(self, *exc):", "        self.closed = 1", f"        return {rng.choice(['True', 'False'])}",
                 f"cm_{k} = CM_{k}({g.int_expr(1)})", f"with cm_{k} as w_{k}:", f"    u_{k} = w_{k} * 2",
                 f"v_{k} = u_{k} + cm_{k}.closed"]
        return lines, ("with",)
    else:
        lines = ["@contextlib.contextmanager", f"def ctx_{k}(n):", "    yield n * 2", "",
                 f"with ctx_{k}({g.int_expr(1)}) as w_{k}:", f"    v_{k} = w_{k}",
                 f"with contextlib.suppress({catch}):", "    n = v_" + str(k), f"    v_{k} = {trigger}"]
        return lines, ("with", "exceptions")
    return lines, ("exceptions",)


def generator_snippet(g: Exprs, k: int) -> Made:
    rng = g.rng
    lines = [f"def gen_{k}(n):", "    for i in range(n):", f"        if i % {g.lit(1, 3)} == 0:", "            yield i",
             f"    yield from {g.list_expr(1)}"]
    if rng.random() < 0.3:
        lines += ["    return"]
    arg = g.int_expr(1)
    lines.append(f"v_{k} = " + rng.choice([f"sum(gen_{k}({arg}))", f"len(list(gen_{k}({arg})))",
                                           f"next(gen_{k}({arg}), -1)", f"list(gen_{k}({arg}))",
                                           f"max(gen_{k}({arg}), default=0)",
                                           f"[i for i, _ in enumerate(gen_{k}({arg}), start=1)]",
                                           f"sum(1 for x in gen_{k}({arg}) if x)"]))
    return lines, ("generators",)


def match_snippet(g: Exprs, k: int) -> Made:
    rng = g.rng
    subject = rng.choice([g.int_expr(1), g.list_expr(1), f"{{'k': {g.leaf()}}}", g.str_expr(1),
                          f"({g.leaf()}, {g.leaf()})", f"P_{k}({g.leaf()}, {g.leaf()})"])
    cases = [("0", g.lit(2, 9)), (f"1 | 2 | {g.lit(3, 4)}", g.lit(2, 9)), ("[p, q]", "p + q"),
             ("[p, *rest]", "len(rest) + p"), ("{'k': val}", "val + 1"), (f"P_{k}(x=0, y=yy)", "yy"),
             (f"P_{k}(x=xx)", "xx * 3"), (f"int(n) if n > {g.lit(1, 5)}", "n * 2"), ("str() as s", "len(s)"),
             ("(a, b) if a < b", "b - a"), ("[]", g.lit(2, 9))]
    rng.shuffle(cases)
    lines = ["@dataclasses.dataclass", f"class P_{k}:", "    x: int", "    y: int", "", f"def m_{k}(subject):",
             "    match subject:"]
    for pat, res in cases[:rng.randint(2, 6)]:
        lines += [f"        case {pat}:", f"            return {res}"]
    lines += ["        case _:", f"            return {g.lit(10, 14)}", f"v_{k} = m_{k}({subject})"]
    return lines, ("match",)


def class_snippet(g: Exprs, k: int) -> Made:
    rng = g.rng
    which = rng.randrange(4)
    if which == 0:
        lines = [f"class Base_{k}:", f"    scale = {g.lit(1, 3)}", "", "    def __init__(self, n):", "        self.n = n",
                 "", "    @property", "    def size(self):", "        return self.n * self.scale", "",
                 "    def f(self):", "        return 1", "", f"class Mid1_{k}(Base_{k}):", "    def f(self):",
                 "        return super().f() + 10", "", f"class Mid2_{k}(Base_{k}):", f"    scale = {g.lit(2, 4)}",
                 "", "    def f(self):", "        return super().f() + 100", "",
                 f"class Leaf_{k}(Mid1_{k}, Mid2_{k}):", "    def f(self):", "        return super().f() * 2",
                 f"o_{k} = Leaf_{k}({g.int_expr(1)})"]
        exprs = [f"o_{k}.f()", f"o_{k}.size", f"len(Leaf_{k}.__mro__)", f"Leaf_{k}.scale", f"Mid1_{k}({g.leaf()}).size",
                 f"isinstance(o_{k}, Mid2_{k})", f"issubclass(Mid1_{k}, Mid2_{k})"]
    elif which == 1:
        lines = [f"class Cfg_{k}:", "    defaults = {'width': " + g.lit(1, 8) + ", 'depth': " + g.lit(1, 4) + "}",
                 "", "    def __init__(self, **kw):", "        self.kw = dict(self.defaults, **kw)", "",
                 "    def __getattr__(self, name):", "        if name in self.kw:", "            return self.kw[name]",
                 "        return len(name)", f"c_{k} = Cfg_{k}(width={g.int_expr(1)})"]
        exprs = [f"c_{k}.width", f"c_{k}.depth", f"c_{k}.abcd", f"getattr(c_{k}, 'depth', 0) + c_{k}.width",
                 f"hasattr(c_{k}, 'zz')", f"c_{k}.__class__.__name__"]
    elif which == 2:
        lines = [f"class Counted_{k}:", "    made = 0", "", "    def __init__(self, n):", "        self.n = n",
                 f"        Counted_{k}.made += 1", "", "    @classmethod", "    def twice(cls, n):",
                 "        return cls(n * 2)", "", "    @staticmethod", "    def unit():", f"        return {g.lit(1, 3)}",
                 "", "    def __len__(self):", "        return self.n", "", "    def __getitem__(self, i):",
                 "        return i * self.unit()", "",
                 "    def __call__(self, x):", "        return x + self.n",
                 f"a_{k} = Counted_{k}({g.int_expr(1)})", f"b_{k} = Counted_{k}.twice({g.leaf()})"]
        exprs = [f"len(a_{k}) + len(b_{k})", f"Counted_{k}.made", f"a_{k}[{g.leaf()}]", f"b_{k}({g.leaf()})",
                 f"list(iter(Counted_{k}({g.lit(0, 3)})[0:0] if False else []))", f"a_{k}.made"]
    else:
        lines = [f"class Shape_{k}:", "    def __init__(self, w):", "        self._w = w", "", "    @property",
                 "    def w(self):", "        return self._w", "", "    @w.setter", "    def w(self, value):",
                 "        self._w = max(value, 1)", "", "    @functools.cached_property",
                 "    def area(self):", "        return self._w * self._w",
                 f"s_{k} = Shape_{k}({g.int_expr(1)})", f"s_{k}.w = {g.leaf()}"]
        exprs = [f"s_{k}.w", f"s_{k}.area", f"vars(s_{k})['_w']"]
        lines.append(f"v_{k} = {rng.choice(exprs)}")
        return lines, ("classes", "functools")
    lines.append(f"v_{k} = {rng.choice(exprs)}")
    return lines, ("classes",)


def functools_snippet(g: Exprs, k: int) -> Made:
    rng = g.rng
    which = rng.randrange(3)
    if which == 0:
        lines = ["@functools.lru_cache(maxsize=None)", f"def fib_{k}(n):", "    return n if n < 2 else "
                 f"fib_{k}(n - 1) + fib_{k}(n - 2)", f"v_{k} = fib_{k}({g.lit(0, 12)})"]
    elif which == 1:
        lines = [f"def scale_{k}(fn):", "    @functools.wraps(fn)", "    def inner(*a, **kw):",
                 f"        return fn(*a, **kw) * {g.lit(1, 3)}", "    return inner", "", f"@scale_{k}",
                 f"def width_{k}(a, b={g.lit(1, 4)}):", "    return a + b",
                 f"v_{k} = " + rng.choice([f"width_{k}({g.int_expr(1)})", f"width_{k}.__name__",
                                           f"functools.partial(width_{k}, b={g.leaf()})({g.leaf()})"])]
    else:
        lines = [f"v_{k} = functools.reduce(lambda acc, x: acc + [x * 2] if x % 2 else acc, "
                 f"{g.list_expr(1)}, [])"]
    return lines, ("functools",)


def call_snippet(g: Exprs, k: int) -> Made:
    """Parameters (positional-only, defaults, *args, keyword-only, **kwargs), decorators with arguments,
    `__init_subclass__` and a descriptor: the ways model code passes and stores its sizes."""
    rng = g.rng
    which = rng.randrange(4)
    if which == 0:
        call = rng.choice([f"f_{k}({g.int_expr(1)})", f"f_{k}({g.leaf()}, {g.leaf()}, 1, 2, scale={g.lit(1, 3)})",
                           f"f_{k}({g.leaf()}, b={g.leaf()}, extra=1)",
                           f"f_{k}(*[{g.leaf()}, {g.leaf()}, 5], **{{'scale': {g.lit(1, 3)}, 'x': 0}})"])
        lines = [f"def f_{k}(a, /, b={g.lit(1, 4)}, *rest, scale=1, **kw):",
                 "    return (a + b + len(rest)) * scale + len(kw)", f"v_{k} = {call}"]
    elif which == 1:
        lines = [f"def times_{k}(n):", "    def deco(fn):", "        def inner(*a, **kw):",
                 "            return fn(*a, **kw) * n", "        return inner", "    return deco", "",
                 f"@times_{k}({g.lit(1, 3)})", f"def g_{k}(x, *, shift={g.lit(0, 2)}):", "    return x + shift",
                 f"v_{k} = g_{k}({g.int_expr(1)}" + rng.choice([")", f", shift={g.leaf()})"])]
    elif which == 2:
        subs = rng.randint(1, 3)
        lines = [f"class Reg_{k}:", "    registry = []", "", "    def __init_subclass__(cls, **kw):",
                 "        super().__init_subclass__(**kw)", f"        Reg_{k}.registry.append(cls.__name__)", ""]
        lines += [line for i in range(subs) for line in (f"class Sub{i}_{k}(Reg_{k}):", "    pass")]
        lines.append(f"v_{k} = " + rng.choice([f"len(Reg_{k}.registry)", f"len(Reg_{k}.registry[-1])",
                                               f"len(Reg_{k}.__subclasses__())"]))
    else:
        lines = [f"class Positive_{k}:", "    def __set_name__(self, owner, name):", "        self.name = '_' + name",
                 "", "    def __get__(self, obj, objtype=None):", "        return getattr(obj, self.name)", "",
                 "    def __set__(self, obj, value):", "        setattr(obj, self.name, max(value, 1))", "",
                 f"class Layer_{k}:", f"    width = Positive_{k}()", "", "    def __init__(self, w):",
                 "        self.width = w", f"v_{k} = Layer_{k}({g.int_expr(1)}).width"]
    return lines, ("calls",)


def async_snippet(g: Exprs, k: int) -> Made:
    """`async def`, `await`, `async for` and `async with`, run by `asyncio.run` (their synchronous meaning)."""
    rng = g.rng
    lines = [f"async def fetch_{k}(n):", "    return n * 2", "", f"async def agen_{k}(n):", "    for i in range(n):",
             "        yield i", "", f"class Session_{k}:", "    async def __aenter__(self):",
             f"        return {g.lit(1, 4)}", "", "    async def __aexit__(self, *exc):", "        return False", "",
             f"async def main_{k}(n):", "    total = 0"]
    lines += rng.choice([["    for i in range(n):", f"        total += await fetch_{k}(i)"],
                         [f"    async for i in agen_{k}(n):", "        total += i"],
                         [f"    async with Session_{k}() as s:", "        total = s + n"]])
    lines += ["    return total", f"v_{k} = asyncio.run(main_{k}({g.int_expr(1)}))"]
    return lines, ("async",)


# names an attribute query asks: what `object` and `type` give, what a class may hold without the program
# writing it, what builtin bases and `nn.Module` have, and names nothing defines
_ATTR_NAMES = ("__class__", "__dict__", "__doc__", "__module__", "__init__", "__eq__", "__hash__", "__weakref__",
               "__qualname__", "__name__", "__mro__", "__len__", "__iter__", "__call__", "__getitem__", "__slots__",
               "__signature__", "__dataclass_fields__", "__match_args__", "__getattr__", "keys", "args",
               "with_traceback", "weight", "forward", "training", "_parameters", "reset_parameters", "w", "size",
               "missing", "extra")


def attributes_snippet(g: Exprs, k: int) -> Made:
    """`hasattr` and `getattr(obj, name, default)` on a class or an instance of one, plain or with
    `__slots__`, a `__getattr__`, a builtin or exception base, `@dataclass`, or an `nn.Module` (a program's or
    a torch layer), or a namespace of options (`getattr(args, "fp16", False)`): the checks model code makes
    before it uses an attribute."""
    rng = g.rng
    body = rng.choice([["    w = 1", "", "    def size(self):", "        return 2"],
                       ["    __slots__ = ('w',)", "", "    def __init__(self):", "        self.w = 1"],
                       ["    def __getattr__(self, name):", "        if name == 'extra':", "            return 3",
                        "        raise AttributeError(name)"],
                       ['    """a docstring"""', "    size = 2"]])
    base = rng.choice(["", "(dict)", "(Exception)", "(nn.Module)", "(nn.Linear)"])
    init = {"(nn.Linear)": "(2, 3)"}.get(base, "()")
    if base in ("(nn.Module)", "(nn.Linear)") and "__slots__" in body[0]:
        body = ["    w = 1"]  # a Module needs its `__dict__`
    lines = [f"class A_{k}{base}:", *body]
    if base == "" and rng.random() < 0.3:
        lines = ["@dataclasses.dataclass", f"class A_{k}:", "    w: int = 1"]
    obj = rng.choice([f"A_{k}", f"A_{k}{init}", f"A_{k}{init}", "nn.Linear(2, 3)",
                      rng.choice(["argparse.Namespace(w=1, size=2)", "types.SimpleNamespace(w=1)",
                                  "argparse.ArgumentParser().parse_args([])", "argparse.Namespace"])])
    name = rng.choice(_ATTR_NAMES)
    query = rng.choice([f"hasattr({obj}, {name!r})", f"getattr({obj}, {name!r}, None) is None",
                        f"{rng.choice(['not ', ''])}hasattr({obj}, {name!r}) and {g.bool_expr(1)}"])
    lines.append(f"v_{k} = {query}")
    return lines, ("attributes",)


_WORDS = ("i", "like", "dog", "love", "coffee", "hate", "milk", "the", "a", "cat")


def sets_snippet(g: Exprs, k: int) -> Made:
    """A vocabulary of words (strings hash by PYTHONHASHSEED: a set of them iterates in an order CPython does
    not fix, interp/unordered.py) or of small ints (iterated in their own order), numbered by `enumerate`,
    `zip(range(n), ...)`, `dict.fromkeys`, or sorted first; then what the program reads of it: a size, an
    id, the largest id, the first item, a join, a membership, a sorted view."""
    rng = g.rng
    pool = [repr(w) for w in _WORDS] if rng.random() < 0.8 else [str(i) for i in (0, 8, 16, 3, 11, 1, 5)]
    words = [rng.choice(pool) for _ in range(rng.randint(1, 9))]
    w = rng.choice(words)
    lines = [f"words_{k} = [{', '.join(words)}]",
             f"s_{k} = " + rng.choice([f"set(words_{k})", f"frozenset(words_{k})", f"{{w for w in words_{k}}}",
                                       f"set(words_{k}) | {{{w}}}"]),
             f"vocab_{k} = " + rng.choice([f"list(s_{k})", f"sorted(s_{k})", f"[w for w in s_{k}]", f"tuple(s_{k})",
                                           f"list(dict.fromkeys(s_{k}))", f"list(s_{k})"]),
             f"stoi_{k} = " + rng.choice([f"{{w: i for i, w in enumerate(vocab_{k})}}",
                                          f"dict(zip(vocab_{k}, range(len(vocab_{k}))))",
                                          f"{{w: i for i, w in zip(range(len(vocab_{k})), vocab_{k})}}",
                                          f"{{w: i + 1 for i, w in enumerate(vocab_{k})}}"])]
    exprs = [f"len(s_{k})", f"len(vocab_{k})", f"len(stoi_{k})", f"max(stoi_{k}.values())", f"min(stoi_{k}.values())",
             f"sum(stoi_{k}.values())", f"stoi_{k}[{w}]", f"len(str(vocab_{k}[0]))", f"len(str(sorted(vocab_{k})[-1]))",
             f"len(''.join(map(str, s_{k})))", f"{w} in s_{k}", f"{w} in vocab_{k}", f"sum(len(str(x)) for x in s_{k})",
             f"max(len(str(x)) for x in vocab_{k})", f"len(collections.Counter(vocab_{k}))",
             f"next(iter(s_{k})) in words_{k}", f"vocab_{k}.index({w})",
             f"sorted(stoi_{k}.values()) == list(range(len(stoi_{k})))",
             f"[stoi_{k}[x] for x in words_{k}].count(max(stoi_{k}.values())) > 0",
             f"len({{x: 1 for x in s_{k}}})", f"len(sorted(s_{k}, key=lambda x: len(str(x))))",
             f"stoi_{k}[{w}] < len(stoi_{k})"]
    lines.append(f"v_{k} = {rng.choice(exprs)}")
    return lines, ("sets",)


def expr_snippet(g: Exprs, k: int) -> Made:
    if g.rng.random() < 0.25:  # the value chosen by a branch statement
        return [f"if {g.bool_expr(2)}:", f"    v_{k} = {g.int_expr(1)}", "else:", f"    v_{k} = {g.int_expr(1)}"], ()
    return [f"v_{k} = {g.any_expr(2)}"], ()


SNIPPETS: tuple[Callable[[Exprs, int], Made], ...] = (
    enum_snippet, dataclass_snippet, namedtuple_snippet, closure_snippet, scoping_snippet, exception_snippet,
    generator_snippet, match_snippet, class_snippet, functools_snippet, call_snippet, async_snippet,
    attributes_snippet, sets_snippet, expr_snippet, expr_snippet,
)


def raising_snippet(g: Exprs, k: int) -> Made:
    """A tail CPython ends with a Python exception (never a tensor error): what follows never runs."""
    rng = g.rng
    which = rng.randrange(5)
    if which in (0, 4):  # issue 31: locals unbound on the path not taken, read by `return a, b, c`
        caller = f"a_{k}, b_{k}, c_{k}" if which == 0 else f"a_{k}, b_{k}"  # CPython never gets to the unpack
        lines = [f"def three_{k}(flag):", "    if flag:", f"        a, b, c = {g.leaf()}, {g.leaf()}, {g.leaf()}",
                 "    return a, b, c", f"p_{k}, q_{k} = torch.split(torch.zeros(4), 2)",
                 f"{caller} = three_{k}(False)"]
        return lines, ("scoping",)
    if which == 1:
        lines = [f"table_{k} = {{'small': {g.leaf()}}}", f"n_{k} = table_{k}['large']",
                 f"x_{k} = torch.zeros(n_{k})"]
        return lines, ("builtins",)
    if which == 2:
        lines = [f"opt_{k} = {g.leaf()} > 100", f"assert opt_{k}, 'needs --resume'", f"x_{k} = torch.zeros(3)"]
        return lines, ("builtins",)
    lines = [f"def get_{k}(n):", "    if n > 100:", "        w = n", "    return w",
             f"y_{k} = nn.Linear(get_{k}({g.leaf()}), 2)(torch.zeros(1, 3))"]
    return lines, ("scoping",)
