"""Python values as CPython computes them (issue 31; the disagreement classes of benchmarks/RESULTS.md,
"Python semantics against CPython"). Each program ends its values in probes `p_NAME = torch.zeros(v)`;
CPython runs it with a stand-in `torch` (zeros records its sizes, nothing else is needed) for the truth,
and the analyzer's recorded shape of every probe must be CPython's (`exact`) or, where a test says the
value may stay unknown, not a wrong concrete one. Programs that CPython ends in an exception, or that
feed a value to a real tensor operation, are checked for the findings instead (no error CPython does
not raise)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
import types
from typing import Any

import pytest

from tests.oracle.fuzz_python import Analyzer, judge_probe


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def cpython_probes(source: str, **names: Any) -> dict[str, Any]:
    """Run `source` under CPython with a `torch` whose `zeros` records the sizes of each probe (and holding
    `names`, stand-ins such as a `Tensor` class); the probes' values."""
    fake = types.ModuleType("torch")
    fake.zeros = lambda *sizes: tuple(sizes)  # type: ignore[attr-defined]
    for name, value in names.items():
        setattr(fake, name, value)
    saved = sys.modules.get("torch")
    sys.modules["torch"] = fake
    try:
        scope: dict[str, Any] = {"__name__": "__main__"}
        exec(compile(source, "<probe program>", "exec", dont_inherit=True), scope)  # not this file's future import
    finally:
        if saved is not None:
            sys.modules["torch"] = saved
        else:
            del sys.modules["torch"]
    return {k: v for k, v in scope.items() if k.startswith("p_")}


def verdicts(analyzer: Analyzer, source: str) -> dict[str, str]:
    source = textwrap.dedent(source)
    truth = cpython_probes(source)
    assert truth, "the program has no probe"
    seen = analyzer.analyze(source)
    assert seen.crash is None and not seen.errors, (seen.crash, seen.errors)
    return {name: judge_probe(want, seen.shapes.get(name)) for name, want in truth.items()}


def exact(analyzer: Analyzer, source: str) -> None:
    got = verdicts(analyzer, source)
    assert set(got.values()) == {"exact"}, {k: v for k, v in got.items() if v != "exact"}


def never_wrong(analyzer: Analyzer, source: str) -> dict[str, str]:
    got = verdicts(analyzer, source)
    assert "wrong" not in got.values() and "unreached" not in got.values(), got
    return got


def no_error_and_runs(analyzer: Analyzer, source: str) -> None:
    """A program that feeds real tensor operations: no error from the analyzer, and (the oracle, where
    torch is installed) CPython and torch run it to its end."""
    seen = analyzer.analyze(source)
    assert seen.crash is None and not seen.errors, (seen.crash, seen.errors)
    if importlib.util.find_spec("torch") is not None:
        run = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr


def test_wraps_copies_name_qualname_doc_and_wrapped(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import functools
        import torch

        def deco(fn):
            @functools.wraps(fn)
            def inner(*args, **kwargs):
                """the wrapper's own doc"""
                return fn(*args, **kwargs)
            return inner

        @deco
        def features(a):
            """six"""
            return a

        def bare(a):
            return a

        p_name = torch.zeros(len(features.__name__))
        p_qual = torch.zeros(len(features.__qualname__))
        p_doc = torch.zeros(len(features.__doc__))
        p_wrapped = torch.zeros(2 if features.__wrapped__ is not features else 3)
        p_call = torch.zeros(features(4))
        p_update = torch.zeros(len(functools.update_wrapper(lambda: 0, bare).__name__))
        p_nodoc = torch.zeros(2 if bare.__doc__ is None else 3)
        bare.extra = 5
        p_attr = torch.zeros(bare.extra)
    ''')


def test_yield_from_an_empty_iterable_yields_nothing(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import torch

        def layers(extra):
            yield 16
            yield from extra
            yield from ()

        def inner():
            return
            yield 1

        def outer():
            yield from inner()
            yield 2

        p_empty = torch.zeros(len(list(layers([]))) + 1)
        p_two = torch.zeros(len(list(layers([4, 5]))))
        p_sum = torch.zeros(sum(layers([4, 5])))
        p_gen = torch.zeros(len(list(outer())) + 1)
    ''')


def test_yield_from_an_iterable_of_unknown_length_is_not_one_item(analyzer: Analyzer) -> None:
    never_wrong(analyzer, '''
        import itertools
        import torch

        def flat(groups):
            yield from itertools.chain.from_iterable(groups)

        p_flat = torch.zeros(len(list(flat([]))) + 1)
        p_flat2 = torch.zeros(len(list(flat([(), ()]))) + 2)
    ''')


def test_with_calls_exit_and_a_true_exit_suppresses(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import torch

        class Stage:
            def __init__(self, quiet):
                self.closed = 0
                self.quiet = quiet
                self.seen = 0

            def __enter__(self):
                return 7

            def __exit__(self, kind, value, tb):
                self.closed += 1
                self.seen = 2 if kind is None else 3
                return self.quiet

        s = Stage(False)
        with s as got:
            pass
        p_closed = torch.zeros(s.closed + 1)
        p_seen = torch.zeros(s.seen)
        p_got = torch.zeros(got)

        q = Stage(True)
        with q:
            raise KeyError("k")
        p_suppressed = torch.zeros(q.seen + q.closed)

        r = Stage(False)
        hits = 1
        try:
            with r, Stage(False) as inner:
                hits += inner
                raise ValueError("v")
        except ValueError:
            hits += 10
        p_raised = torch.zeros(hits + r.seen)

        def early(st):
            with st:
                return 4
        t = Stage(False)
        p_return = torch.zeros(early(t) + t.closed + t.seen)
    ''')


def test_contextmanager_generators_run_after_their_yield(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import contextlib
        import torch

        log = []

        @contextlib.contextmanager
        def stage(n):
            log.append(n)
            try:
                yield n + 1
            except KeyError:
                log.append(100)
            finally:
                log.append(n * 2)
            log.append(5)

        with stage(3) as v:
            log.append(v)
        p_log = torch.zeros(sum(log) + len(log))
        with stage(1):
            raise KeyError("swallowed by the generator")
        p_after = torch.zeros(sum(log))
        order = []

        @contextlib.contextmanager
        def track():
            order.append(1)
            yield
            order.append(3)

        with track():
            order.append(len(order) + 1)
        p_order = torch.zeros(*order)
        with contextlib.suppress(LookupError):
            order.append({}["missing"])
        with contextlib.nullcontext(6) as six:
            order.append(six)
        p_suppress = torch.zeros(len(order) + order[-1])
    ''')


def test_a_local_unbound_on_the_path_taken_raises_unbound_local_error(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import torch

        c = 9  # a global of the same name is never read by the function

        def parts(fused):
            if fused:
                a, b, c = 1, 2, 3
            return a, b, c

        def caught(fused):
            try:
                return len(parts(fused)) + 1
            except UnboundLocalError:
                return 2

        def by_base(fused):
            try:
                return len(parts(fused)) + 1
            except NameError:
                return 5

        def outer():
            def inner():
                return later
            try:
                return inner()
            except NameError:
                return 6
            later = 1

        p_bound = torch.zeros(caught(True))
        p_unbound = torch.zeros(caught(False))
        p_base = torch.zeros(by_base(False))
        p_free = torch.zeros(outer())
    ''')


def test_an_unbound_local_is_never_a_tensor_finding_at_the_caller(analyzer: Analyzer) -> None:
    seen = analyzer.analyze(textwrap.dedent('''
        import torch

        def parts(x, fused):
            if fused:
                a, b, c = torch.split(x, 2, dim=1)
            return a, b, c

        x = torch.randn(2, 6)
        mean, var = parts(x, False)
    '''))
    assert seen.crash is None and not seen.errors and not seen.warnings, (seen.errors, seen.warnings)


def test_mro_and_bases_end_with_object(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import torch

        class Base:
            pass

        class Left(Base):
            pass

        class Right(Base):
            pass

        class Leaf(Left, Right):
            pass

        p_mro = torch.zeros(len(Leaf.__mro__))
        p_root = torch.zeros(2 if Leaf.__mro__[-1] is object else 3)
        p_base = torch.zeros(len(Base.__bases__) + (Base.__bases__[0] is object))
        p_method = torch.zeros(len(Left.mro()))
    ''')


def test_data_descriptors_run_set_get_and_set_name(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import torch

        class AtLeast:
            def __init__(self, low):
                self.low = low

            def __set_name__(self, owner, name):
                self.name = "_" + name

            def __get__(self, obj, objtype=None):
                if obj is None:
                    return self
                return getattr(obj, self.name)

            def __set__(self, obj, value):
                setattr(obj, self.name, max(value, self.low))

        class Twice:  # not a data descriptor: the instance's own attribute wins once set
            def __get__(self, obj, objtype=None):
                return 2

        class Layer:
            width = AtLeast(1)
            depth = AtLeast(3)
            scale = Twice()

            def __init__(self, width, depth):
                self.width = width
                self.depth = depth

        layer = Layer(0, 5)
        p_width = torch.zeros(layer.width)
        p_depth = torch.zeros(layer.depth)
        p_private = torch.zeros(layer._width + layer._depth)
        p_scale = torch.zeros(layer.scale)
        layer.scale = 4
        p_own = torch.zeros(layer.scale)
        p_cls = torch.zeros(Layer.width.low + 1)
    ''')


def test_dataclass_eq_compares_fields_and_order_compares_tuples(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import dataclasses
        import torch

        @dataclasses.dataclass
        class Cfg:
            width: int
            depth: int = 2

        @dataclasses.dataclass(order=True)
        class Version:
            major: int
            minor: int

        @dataclasses.dataclass(eq=False)
        class Plain:
            n: int

        class Custom:
            def __init__(self, n):
                self.n = n

            def __eq__(self, other):
                return isinstance(other, Custom) and self.n % 3 == other.n % 3

        p_eq = torch.zeros(4 if Cfg(2) == Cfg(2) else 3)
        p_ne = torch.zeros(4 if Cfg(2) != Cfg(2, 3) else 3)
        p_other = torch.zeros(4 if Cfg(2) == 2 else 3)
        p_plain = torch.zeros(4 if Plain(1) == Plain(1) else 3)
        p_lt = torch.zeros(4 if Version(1, 9) < Version(2, 0) else 3)
        p_ge = torch.zeros(4 if Version(1, 9) >= Version(1, 10) else 3)
        p_sorted = torch.zeros(sorted([Version(3, 1), Version(1, 2)])[0].major + 1)
        p_custom = torch.zeros(4 if Custom(1) == Custom(4) else 3)
        p_custom_ne = torch.zeros(4 if Custom(1) != Custom(4) else 3)
    ''')


def test_sorted_with_undecided_comparisons_is_not_the_given_order(analyzer: Analyzer) -> None:
    got = never_wrong(analyzer, '''
        import collections
        import torch

        k = len(collections.Counter("ab"))  # 2, a length the analyzer keeps symbolic
        sizes = sorted([k + 1, 0])
        p_second = torch.zeros(sizes[1])
        p_len = torch.zeros(len(sizes))
        p_keyed = torch.zeros(sorted([3, 1, 2], key=lambda v: -v)[0])
        p_reverse = torch.zeros(*sorted([(1, 2), (1, 3), (0, 9)], reverse=True)[0])
        p_stable = torch.zeros(sorted(["bb", "a", "cc"], key=len)[1] == "bb" and 2 or 3)
    ''')
    assert got["p_len"] == got["p_keyed"] == got["p_reverse"] == got["p_stable"] == "exact", got


def test_auto_in_flags_gives_powers_of_two(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import enum
        import torch

        class Feature(enum.Flag):
            RGB = enum.auto()
            DEPTH = enum.auto()
            NORMALS = enum.auto()

        class Bits(enum.IntFlag):
            A = enum.auto()
            B = 8
            C = enum.auto()

        class Plain(enum.Enum):
            X = enum.auto()
            Y = 5
            Z = enum.auto()

        class Mode(enum.IntEnum):
            ONE = enum.auto()
            TWO = enum.auto()

        p_flag = torch.zeros(Feature.NORMALS.value, Feature.DEPTH.value)
        p_intflag = torch.zeros(Bits.A + 1, int(Bits.C))
        p_enum = torch.zeros(Plain.X.value, Plain.Z.value)
        p_intenum = torch.zeros(Mode.TWO)
        p_members = torch.zeros(len(list(Feature)))
    ''')


def test_lists_of_unknown_length_are_never_one_item_nor_truthy(analyzer: Analyzer) -> None:
    never_wrong(analyzer, '''
        import collections
        import itertools
        import torch

        flat = list(itertools.chain.from_iterable([]))
        pairs = list(itertools.combinations([], 2))
        kept = list(itertools.compress([1, 2], [0, 0]))
        groups = [k for k, _ in itertools.groupby([])]
        counts = list(collections.Counter([0, 3]).values())
        starred = [*itertools.takewhile(lambda x: x < 1, itertools.count(1)), *range(4)]
        p_flat = torch.zeros(len(flat) + 1)
        p_pairs = torch.zeros(len(pairs) + 1)
        p_kept = torch.zeros(len(kept) + 1)
        p_groups = torch.zeros(len(groups) + 1)
        p_counts = torch.zeros(len(counts) + 1)
        p_starred = torch.zeros(len(starred))
        p_truthy = torch.zeros(2 if flat else 3)
        p_not = torch.zeros(2 if not pairs else 3)
    ''')


def test_padding_lists_of_unknown_length_and_empty_ranges_are_not_errors(analyzer: Analyzer) -> None:
    seen = analyzer.analyze(textwrap.dedent('''
        import collections
        import itertools
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        pads = list(collections.Counter([0, 3]).values())
        y = F.pad(torch.zeros(2, 3, 4, 5), pads)
        flat = list(itertools.chain.from_iterable([]))
        z = F.pad(torch.zeros(2, 3, 4), flat)
        starred = [*itertools.takewhile(lambda x: x < 1, itertools.count(1)), *range(4)]
        s = F.pad(torch.zeros(2, 3, 4, 5), starred)
        width = len(collections.Counter("abcde"))
        extra = list(range(width, 4))
        h = nn.Linear(width, 2)(torch.zeros(1, 5))
        extra2 = list(itertools.combinations([], 2))
        g = nn.Linear(len(extra2) + 2, 3)(torch.zeros(1, 2))
    '''))
    assert seen.crash is None and not seen.errors, seen.errors


def test_containers_filled_over_an_unknown_number_of_items_have_an_unknown_length(analyzer: Analyzer) -> None:
    never_wrong(analyzer, '''
        import collections
        import itertools
        import torch

        keys = list(itertools.chain.from_iterable([[4, 0], [5]]))
        groups = {}
        for k in keys:
            groups[k] = 1
        counts = collections.defaultdict(int)
        for k in keys:
            counts[k] += 1
        seen = set()
        for k in keys:
            seen.add(k)
        merged = {}
        for k in keys:
            merged.update({k: 2})
        p_dict = torch.zeros(len(groups))
        p_default = torch.zeros(len(counts))
        p_set = torch.zeros(len(seen))
        p_update = torch.zeros(len(merged))
        p_comp = torch.zeros(len({k: 1 for k in keys}))
    ''')


def test_a_symbolic_key_and_a_concrete_key_are_not_two_keys_for_certain(analyzer: Analyzer) -> None:
    got = never_wrong(analyzer, '''
        import collections
        import torch

        k = len(collections.Counter("ab"))  # 2, a length the analyzer keeps symbolic
        widths = {k: 8, 2: 16}
        kinds = {k, 2}
        frozen = frozenset([k, 2, 2])
        p_dict = torch.zeros(len(widths))
        p_set = torch.zeros(len(kinds))
        p_frozen = torch.zeros(len(frozen))
        p_plain = torch.zeros(len({1: 2, 3: 4}))
    ''')
    assert got["p_plain"] == "exact", got


def test_a_str_mixin_enum_member_equal_to_its_value_is_never_unequal(analyzer: Analyzer) -> None:
    never_wrong(analyzer, '''
        import enum
        import torch

        class Kind(str, enum.Enum):
            SMALL = "small"
            LEARNED = "learned"

        p_eq = torch.zeros(2 if Kind.LEARNED == "learned" else 3)
    ''')


def test_members_of_int_and_str_valued_enums_are_their_values_and_their_class(analyzer: Analyzer) -> None:
    """IntEnum, IntFlag, StrEnum and `(str, Enum)` members: an int or str wherever one goes, and a
    member of their class (`isinstance`, `type`, `is`, `.name`, `.value`, `str()`); an Enum class's
    `len` and iteration skip aliases, a Flag's its multi-bit members. On main: `isinstance(H.A, H)` was
    False, `len(E)` and `m is E.X` of an IntEnum not known, `m == "bcd"` of a `(str, Enum)` not known."""
    exact(analyzer, '''
        import enum
        import torch

        class H(enum.IntEnum):
            A = 1
            B = 2
            C = 1  # an alias of A

        class G(str, enum.Enum):
            A = "ab"
            B = "bcd"

        class S(enum.StrEnum):
            LOW = enum.auto()

        class F(enum.Flag):
            R = 1
            W = 2
            RW = 3  # multi-bit: not iterated

        class M(int, enum.Enum):
            X = 4

            def twice(self):
                return self * 2

        m = H.A
        p_isinstance = torch.zeros(3 if isinstance(m, H) and isinstance(m, int) and isinstance(m, enum.Enum) else 5)
        p_is = torch.zeros(2 if m is H.A and m is H.C and m is not H.B and H(2) is H.B else 7)
        p_len = torch.zeros(len(H), len(G), len(F), len(list(F)))
        p_values = torch.zeros(*[e.value for e in H])
        p_names = torch.zeros(*[len(e.name) for e in G])
        p_str_eq = torch.zeros(4 if G.B == "bcd" and G("ab") is G.A and {"bcd": 1}[G.B] == 1 else 6)
        p_len_str = torch.zeros(len(G.B), len(G.B.value), len(G.B.upper()))
        p_text = torch.zeros(len(str(G.B)), len(str(S.LOW)), len(str(H.B)), len(str(M.X)))
        p_type = torch.zeros(8 if type(G.A) is G and type(H.B) is H else 9)
        p_method = torch.zeros(M.X.twice(), M.X + 1)
        p_sorted = torch.zeros(sorted(H)[-1].value)
    ''')


def test_operator_index_and_contains(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import operator
        import torch

        n = operator.index(3) + operator.index(True)
        p_index = torch.zeros(n, operator.index(len(range(6, 5, 1))) + 1)
        p_contains = torch.zeros(2 if operator.contains([1, 2], 2) and not operator.contains("ab", "c") else 5)
    ''')


def test_a_generators_items_from_loops_not_followed_may_be_none(analyzer: Analyzer) -> None:
    """A generator yielding inside a loop over a range of a length not known: the representative
    iteration's item is not one every run yields (the range may be empty), so `list(gen)` has at least
    the items yielded outside it. On main its length was at least 2 here, and the Linear below an
    error that CPython and torch do not raise (fuzz_python seed 400316)."""
    source = textwrap.dedent('''
        import torch
        import torch.nn as nn

        class Reg:
            pass

        class Sub(Reg):
            pass

        k = len(Reg.__subclasses__())

        def gen(n):
            for i in range(n):
                if i % 2 == 0:
                    yield i
            yield 7

        v = len(list(gen(k - 3)))
        y = nn.Linear(v, 2)(torch.zeros(1, 1))
    ''')
    no_error_and_runs(analyzer, source)


def test_next_takes_the_next_item_of_an_iterator(analyzer: Analyzer) -> None:
    """`next()` moves through an iterator (of a list, of a generator) as CPython does; a loop over it
    runs the rest; an empty one gives next's default. On main every `next(it)` was the first item."""
    exact(analyzer, '''
        import torch

        def gen():
            yield 3
            yield 4

        it = iter([1, 2, 3])
        a = next(it)
        b = next(it)
        rest = list(it)
        g = gen()
        c = next(g)
        d = next(g)
        rows = iter([[1, 2], [3, 4], [5, 6]])
        header = next(rows)
        n = 0
        for r in rows:
            n += len(r) + r[0]
        p_next = torch.zeros(a, b, len(rest), c, d)
        p_loop = torch.zeros(n, len(header))
        p_default = torch.zeros(next(iter([]), 9), next(g, 2))
    ''')


def test_a_loop_over_a_range_of_a_length_not_understood_may_not_run(analyzer: Analyzer) -> None:
    """`for i in range(k - 3)` with `k` a length not understood: its representative iteration put
    `0 <= i < k - 3` on the path, so every path assumed the loop ran (`k >= 4`), and `nn.Linear(k, 2)` fed
    2 features was an error that CPython and torch (`k` is 2) do not raise (fuzz_python seed 400316, the
    second cause). Whether the loop runs is now a choice of its own."""
    source = textwrap.dedent('''
        import torch
        import torch.nn as nn

        class Reg:
            pass

        class A(Reg):
            pass

        class B(Reg):
            pass

        k = len(Reg.__subclasses__())
        total = 0
        for i in range(k - 3):
            if i % 2 == 0:
                total += i
        y = nn.Linear(k, 2)(torch.zeros(1, 2))
    ''')
    no_error_and_runs(analyzer, source)


def test_text_of_known_values_is_cpythons(analyzer: Analyzer) -> None:
    """`str`/`repr`/`format`/`hex`/`chr`/`ord` of known numbers, strings and tuples print what CPython
    prints (the fuzzer's `[int(c) for c in str(len(...))]` padding lists were a guessed one item)."""
    exact(analyzer, '''
        import torch

        n = len(frozenset(list(range(4, 3))))
        digits = [int(c) for c in str(n + 120)]
        p_digits = torch.zeros(len(digits))
        p_repr = torch.zeros(len(repr((1, "ab"))))
        p_format = torch.zeros(len(format(7, "04d")) + len(f"{n:>3}"))
        p_hex = torch.zeros(len(hex(255)) + ord(chr(2)))
        p_str_none = torch.zeros(len(str(None)) + len(str(2.5)) + len(str()))
    ''')


def test_text_of_tuples_and_lists_of_classes_is_cpythons(analyzer: Analyzer) -> None:
    """`str(cls.__bases__)` prints each class as CPython does (transformers 5 asks whether
    `'GenerationMixin' in str(cls.__bases__)` of every model class it builds)."""
    exact(analyzer, '''
        import torch

        class Base:
            pass

        class Leaf(Base):
            pass

        p_bases = torch.zeros(len(str(Leaf.__bases__)))
        p_mixin = torch.zeros(2 if "Base" in str(Leaf.__bases__) else 3, 4 if "Mixin" in str(Leaf.__bases__) else 5)
        p_list = torch.zeros(len(repr([Leaf, 1, "a"])) + len(str((Base, Leaf))))
    ''')


def test_itertools_over_known_items_give_cpythons_items(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import collections
        import itertools
        import torch

        p_product = torch.zeros(len(list(itertools.product([1, 2], "ab", repeat=1))))
        p_perm = torch.zeros(len(list(itertools.permutations(range(3), 2))))
        p_comb = torch.zeros(len(list(itertools.combinations([], 2))) + 1)
        p_cwr = torch.zeros(len(list(itertools.combinations_with_replacement([1, 2], 2))))
        p_chain = torch.zeros(*itertools.chain([2], (3,)))
        p_flat = torch.zeros(*itertools.chain.from_iterable([[2], [3, 1]]))
        p_islice = torch.zeros(len(list(itertools.islice(range(10), 1, 7, 2))))
        p_zl = torch.zeros(len(list(itertools.zip_longest([1, 2, 3], [4]))))
        p_pairs = torch.zeros(len(list(itertools.pairwise("abcd"))))
        p_compress = torch.zeros(*itertools.compress([4, 5, 6], [1, 0, 1]))
        p_groups = torch.zeros(len([k for k, g in itertools.groupby(sorted([3, 1, 3, 2]))]))
        p_acc = torch.zeros(*itertools.accumulate([1, 2, 3]))
        p_starmap = torch.zeros(*itertools.starmap(lambda a, b: a * b, zip([2, 3], [1, 2])))
        p_keys = torch.zeros(len(dict.fromkeys([1, 2, 2])) + len(collections.OrderedDict.fromkeys("aab")))
    ''')


def test_itertools_with_functions_or_items_not_known_are_never_guessed(analyzer: Analyzer) -> None:
    got = never_wrong(analyzer, '''
        import collections
        import itertools
        import random
        import torch

        xs = [random.randint(0, 3) for _ in range(random.randint(0, 5))]
        p_comb = torch.zeros(len(list(itertools.combinations(xs, 2))) + 1)
        p_key = torch.zeros(len(list(itertools.groupby([1, 2, 3], key=lambda v: v % 2))) + 1)
        p_acc = torch.zeros(len(list(itertools.accumulate([1, 2], lambda a, b: a * b))) + 1)
        p_big = torch.zeros(len(list(itertools.product(range(100), repeat=2))) // 1000 + 1)
        groups = list(itertools.groupby([1, 1, 2]))
        p_group = torch.zeros(len(list(groups[0][1])) + 1)  # CPython: emptied when the groupby moved on
        p_counter = torch.zeros(collections.Counter([1, 1])[random.randint(0, 1)] + 1)  # 0 or 2: not known
    ''')
    assert got["p_comb"] != "exact" and got["p_counter"] != "exact", got


def test_set_operators_of_dict_keys(analyzer: Analyzer) -> None:
    """`a.keys() & b.keys()`, `d.keys() - {...}`: sets, as CPython's views give (a TypeError that ended
    the path before); the keys of a dict filled over an unknown number of items are not known."""
    exact(analyzer, '''
        import torch

        a = {"w": 1, "b": 2, "extra": 3}
        b = dict.fromkeys(["w", "b", "head"])
        p_and = torch.zeros(len(a.keys() & b.keys()))
        p_sub = torch.zeros(len(a.keys() - {"extra"}) + len({"w"} | a.keys()))
        p_xor = torch.zeros(len(a.keys() ^ b.keys()) + len(a.items() & {("w", 1)}))
    ''')
    got = never_wrong(analyzer, '''
        import random
        import torch

        d = {}
        for i in range(random.randint(1, 9)):
            d[i] = i
        p_and = torch.zeros(len(d.keys() & {0, 1}) + 1)
    ''')
    assert got["p_and"] != "exact", got


def test_a_program_object_matches_no_sequence_or_mapping_pattern(analyzer: Analyzer) -> None:
    """A dataclass instance is no sequence: `case [first, *rest]` is decided False, so the side CPython
    never takes gives no warning."""
    source = textwrap.dedent('''
        import dataclasses
        import torch
        import torch.nn as nn

        @dataclasses.dataclass
        class Box:
            x: int

        def width(subject):
            match subject:
                case [first, *rest]:
                    return 4
                case {"x": x}:
                    return 4
                case Box(x=x):
                    return x
            return 4

        p_width = torch.zeros(width(Box(5)))
        y = nn.Linear(5, 2)(torch.zeros(1, width(Box(5))))
    ''')
    seen = analyzer.analyze(source)
    assert not seen.errors and not seen.warnings, (seen.errors, seen.warnings)
    assert judge_probe((5,), seen.shapes.get("p_width")) == "exact"


def test_operator_functions_counter_and_prod_compute_as_cpython(analyzer: Analyzer) -> None:
    """`operator.floordiv(3, 1)`, a Counter of known items (CPython's own: its methods and operators),
    `math.prod` of a list: the fuzzer's generator sizes that were unknown (sinks found only by a guess)."""
    exact(analyzer, '''
        import collections
        import math
        import operator
        import torch

        p_ops = torch.zeros(operator.floordiv(7, 2), operator.add(1, 1), operator.getitem([4, 5], 1))
        p_cmp = torch.zeros(2 if operator.lt(1, 2) else 3)
        c = collections.Counter([1, 1, 2, 3])
        c.update([4, 4])
        p_counts = torch.zeros(*c.values())
        p_common = torch.zeros(len(c.most_common(2)), c[1] + c[9], sum(c.values()))
        d = collections.Counter()
        d["k"] += 2
        p_missing = torch.zeros(len(d) + d["k"] + len(c + collections.Counter("ab")))
        p_prod = torch.zeros(math.prod([2, 3]) + math.prod(list(range(5))), int(math.fsum([0.5, 1.5])))
    ''')


def test_a_defaultdict_filled_at_keys_not_known_has_a_length_not_known(analyzer: Analyzer) -> None:
    """`d[k % 3].append(k)` with `k` an item not known (a comprehension over an iteration not followed)
    may add an item or not: `len(d)` is not known, never the 0 of a dict nothing was inserted into."""
    got = never_wrong(analyzer, '''
        import collections
        import itertools
        import torch

        d = collections.defaultdict(list)
        [d[k % 3].append(k) for k in list(itertools.takewhile(lambda x: x < 5, itertools.count(4)))]
        p_len = torch.zeros(len(d) + 1)
        e = collections.defaultdict(int)
        for k in [1, 2, 2]:
            e[k] += 1
        p_known = torch.zeros(len(e), e[2])
    ''')
    assert got == {"p_len": "symbolic", "p_known": "exact"}, got


def test_membership_in_a_list_holding_only_some_of_its_items_is_not_decided_by_absence(analyzer: Analyzer) -> None:
    """`5 not in list(takewhile(lambda x: x < 6, count(0)))` (an iteration not followed: no item known) is not True just
    because 5 is not among the items known (the fuzzer's islice/count membership class; `cycle`/`count` cut by `islice` are followed since stop 35, so `takewhile` stands for an iteration not followed)."""
    got = never_wrong(analyzer, '''
        import itertools
        import torch

        found = 5 not in list(itertools.takewhile(lambda x: x < 6, itertools.count(0)))
        p_not_in = torch.zeros(2 if found else 3)
        p_in = torch.zeros(2 if 1 in list(itertools.takewhile(lambda x: x < 3, itertools.count(1))) else 3)
        p_known = torch.zeros(2 if 9 in [1, 2] else 3)
        p_bool = torch.zeros(2 if bool(list(itertools.takewhile(lambda x: x < 5, itertools.count(4)))) else 3)
    ''')
    assert got["p_known"] == "exact" and got["p_not_in"] != "exact" and got["p_bool"] != "exact", got


def test_a_dict_looked_up_with_a_key_not_known_may_find_it(tmp_path: Any) -> None:
    """`{argv0: 1}.get(argv1)` is 1 when the two strings are equal (`python p.py p.py`): the lookup of a key
    not known (or in a dict holding keys not known) that is not there as itself is not known, never
    certainly missing; a key found as itself stays exact."""
    from pytea_ci.driver.run import Options, run

    src = textwrap.dedent("""\
        import sys
        import torch
        import torch.nn as nn
        table = {sys.argv[0]: 1}
        n = table.get(sys.argv[1]) or 7
        a = nn.Linear(1, 2)(torch.randn(2, n))
        b = nn.Linear(7, 2)(torch.randn(2, table.pop(sys.argv[2], 7)))
        k = sys.argv[3]
        known = {k: 3}
        c = nn.Linear(2, 2)(torch.randn(2, known.get(k, 5)))
        """)
    path = tmp_path / "p.py"
    path.write_text(src)
    found = {(x.span.line, x.rule, x.severity.value) for x in run([str(path)], Options(root=str(tmp_path), strict=True)).diagnostics
             if x.rule in ("PT001", "PT002")}
    assert found == {(10, "PT001", "error")}, found  # 3 features, exactly


def test_a_list_holding_only_some_of_its_items_compares_as_not_known(analyzer: Analyzer) -> None:
    """`list(itertools.takewhile(...))` of an iteration not followed holds no item known: `==` and `<` on it
    are not known (not the False of comparing an empty list), also inside another list (encodec's
    `list(z.shape) == [1, 128, 75]`, with `z` not understood, was a PT004 that torch never raises)."""
    got = never_wrong(analyzer, '''
        import itertools
        import torch

        xs = list(itertools.takewhile(lambda x: x < 4, itertools.count(1)))
        p_eq = torch.zeros(2 if xs == [1, 2, 3] else 3)
        p_lt = torch.zeros(2 if xs < [1, 2, 4] else 3)
        p_ne = torch.zeros(2 if [xs] != [[1, 2, 3]] else 3)
        p_known = torch.zeros(2 if [1, 2] == [1, 2] else 3)
    ''')
    assert got["p_known"] == "exact" and "exact" not in (got["p_eq"], got["p_lt"], got["p_ne"]), got


def test_a_global_nothing_binds_is_a_name_error(analyzer: Analyzer) -> None:
    """A name no statement of the module binds, and no builtin, raises NameError where it is read (fuzz_python
    seed 101972: the handler's value was taken as possibly unset, and a `match` on it forked)."""
    exact(analyzer, '''
        import torch

        try:
            undefined_name
        except NameError:
            v = 4

        def reads():
            return missing_too

        try:
            reads()
        except NameError as e:
            w = 3
        p_v = torch.zeros(v)
        p_w = torch.zeros(w)
    ''')


def test_devices_compare_by_type_and_index_not_identity(tmp_path: Any) -> None:
    """`torch.device("cpu") == torch.device("cpu")` is True in torch (a modeled class compares by its own
    rule, not identity); "cuda:0" is `("cuda", 0)`, "cuda" is not "cuda:0", and a device is not its string.
    A native class whose rule is not modeled (`torch.finfo`) compares as not known."""
    from pytea_ci.driver.run import Options, run

    src = textwrap.dedent("""\
        import torch
        import torch.nn as nn
        a = 2 if torch.device("cpu") == torch.device("cpu") else 3
        b = 2 if torch.device("cuda:0") == torch.device("cuda", 0) else 3
        c = 3 if torch.device("cuda") != torch.device("cuda:0") else 2
        d = 3 if torch.device("cpu") == "cpu" else 2
        e = 2 if torch.device("cpu") in [torch.device("cpu")] else 3
        f = 2 if torch.finfo(torch.float32) == torch.finfo(torch.float32) else 3
        y = nn.Linear(2, 2)(torch.randn(2, a + b + c + d + e - 9))
        z = nn.Linear(2, 2)(torch.randn(2, f))
        """)
    path = tmp_path / "p.py"
    path.write_text(src)
    found = [(x.span.line, x.rule) for x in run([str(path)], Options(root=str(tmp_path))).diagnostics
             if x.rule in ("PT001", "PT002")]
    assert found == [], found
    path.write_text(src.replace("- 9", "- 8"))
    found = [(x.span.line, x.rule) for x in run([str(path)], Options(root=str(tmp_path))).diagnostics
             if x.rule in ("PT001", "PT002")]
    assert found == [(9, "PT001")], found  # every comparison decided, as torch decides it


def test_operator_unary_functions_and_equality_across_kinds(analyzer: Analyzer) -> None:
    """`operator.neg` and the other one-operand functions compute as the operators do, and a list is
    never equal to a number, whatever its items (fuzz_python seed 102111: `case 1 | 2 | 4` on
    `list(map(operator.neg, [5, 2]))` was undecided)."""
    exact(analyzer, '''
        import operator
        import torch

        def m(subject):
            match subject:
                case 1 | 2 | 4:
                    return 8
                case [p, q]:
                    return p + q
                case _:
                    return 13

        class Opaque:
            pass

        p_neg = torch.zeros(-m(list(map(operator.neg, [5, 2]))))
        p_ops = torch.zeros(operator.pos(3) + operator.invert(-3) + operator.inv(-2) + (4 if operator.not_(0) else 9))
        p_list = torch.zeros(2 if [Opaque(), 1] == 1 else 3)
        p_tuple = torch.zeros(2 if (Opaque(),) != [Opaque()] else 3)
        p_str = torch.zeros(2 if "1" == 1 else 3)
    ''')


def test_max_and_min_with_key_and_default(analyzer: Analyzer) -> None:
    """`max(xs, default=d)` and `min(xs, key=f)` pick as CPython does (the first item whose key is
    largest; the default of an empty iterable); they were not known (fuzz_python seed 100003)."""
    exact(analyzer, '''
        import torch

        words = ["ab", "abcd", "xyzw", "a"]
        p_default = torch.zeros(max(list(range(1, 5)), default=9))
        p_empty = torch.zeros(max([], default=3) + min((), default=2))
        p_key = torch.zeros(len(max(words, key=len)) + len(min(words, key=len)))
        p_first = torch.zeros(2 if max(words, key=len) == "abcd" else 3)
        p_args = torch.zeros(min(5, 3, 7, key=lambda v: -v))
    ''')


def test_a_member_in_its_enum_class(analyzer: Analyzer) -> None:
    """`E.A in E` is True for a member of a Flag or an Enum (fuzz_python seed 100041)."""
    exact(analyzer, '''
        import enum
        import torch

        class E(enum.Flag):
            A = enum.auto()
            B = enum.auto()

        class F(enum.Enum):
            X = 1

        m = E.A
        p_flag = torch.zeros(2 if m in E else 3)
        p_enum = torch.zeros(2 if F.X in F else 3)
        p_not = torch.zeros(2 if F.X not in F else 3)
    ''')


def test_flag_members_combine_by_their_bits(analyzer: Analyzer) -> None:
    """`E.A | E.C` is the pseudo-member CPython makes (the same object each time, named "A|C"), it
    iterates and contains its one-bit members, `&` of disjoint members is falsy (fuzz_python seeds 100016,
    100040: a Flag operation was not known)."""
    exact(analyzer, '''
        import enum
        import torch
        class E(enum.Flag):
            A = enum.auto()
            B = enum.auto()
            C = enum.auto()
        m = E.A
        p_1 = torch.zeros(len(list(E.A | E.C)))
        p_2 = torch.zeros((E.B | E.C).value)
        p_3 = torch.zeros(2 if (E.A | E.C) is (E.C | E.A) else 3)
        p_4 = torch.zeros(len((E.A | E.C).name))
        p_5 = torch.zeros(2 if E.A in (E.A | E.C) else 3)
        p_6 = torch.zeros(2 if (E.A & E.B) else 3)
        p_7 = torch.zeros(len(E.A | E.B))
        p_8 = torch.zeros(2 if (E.A ^ (E.A | E.B)) is E.B else 3)
    ''')


# classes whose instances are false by `__len__`, false by `__bool__`, true by default
_TRUTHS = '''
        class Empty:
            def __len__(self):
                return 0

        class No:
            def __bool__(self):
                return False

        class Plain:
            pass
'''


def test_an_object_is_true_unless_its_bool_or_len_says_otherwise(analyzer: Analyzer) -> None:
    """`if obj:` calls the class's `__bool__`, else its `__len__` (every instance was true)."""
    exact(analyzer, '''
        import torch
''' + _TRUTHS + '''
        p_len = torch.zeros(2 if Empty() else 3)
        p_bool = torch.zeros(2 if No() else 3)
        p_plain = torch.zeros(2 if Plain() else 3)
        p_not = torch.zeros(2 if not Empty() else 3)
    ''')


def test_a_sequence_subclass_iterates_by_its_getitem_until_index_error(analyzer: Analyzer) -> None:
    """A class deriving from `collections.abc.Sequence` (subscripted, as annotations write it) with only
    `__getitem__` and `__len__` gets CPython's mixins: `__iter__` (`self[0]`, `self[1]`, ... until
    IndexError, so `zip`, `list` and `for` see its items), `__contains__`, `index`, `count`; and
    `isinstance(i, slice)` is decided (transformers 5's per-layer config view, iterated by `zip`)."""
    exact(analyzer, '''
        from collections.abc import Sequence
        import torch

        class View(Sequence["int"]):
            def __init__(self, n):
                self.n = n

            def __len__(self):
                return self.n

            def __getitem__(self, i):
                if isinstance(i, slice):
                    return [self[j] for j in range(*i.indices(len(self)))]
                if i < 0:
                    i += len(self)
                if i < 0 or i >= len(self):
                    raise IndexError("list index out of range")
                return 10 + i

        v = View(2)
        p_list = torch.zeros(*list(v))
        p_zip = torch.zeros(*[a + b for a, b in zip([1, 2], v)])
        p_for = torch.zeros(sum(x for x in v))
        p_in = torch.zeros(2 if 11 in v else 3, 2 if 12 in v else 3)
        p_index = torch.zeros(v.index(11) + 1, v.count(10) + 1, v.count(7) + 1)
        p_isinstance = torch.zeros(2 if isinstance(v, Sequence) else 3, 2 if isinstance([], Sequence) else 3,
                                   2 if isinstance({}, Sequence) else 3)
        p_slice = torch.zeros(2 if isinstance(slice(1, 2), slice) else 3, 2 if isinstance(1, slice) else 3)
    ''')


def test_an_object_with_getitem_and_no_iter_iterates_by_index(analyzer: Analyzer) -> None:
    """CPython iterates an object whose class has `__getitem__` and no `__iter__` by calling it with
    0, 1, ... until IndexError or StopIteration (a subclass of IndexError too); `in` without
    `__contains__` looks through those items."""
    exact(analyzer, '''
        import torch

        class Missing(IndexError):
            pass

        class Old:
            def __getitem__(self, i):
                if i >= 3:
                    raise IndexError(i)
                return i + 1

        class Stops:
            def __getitem__(self, i):
                if i == 2:
                    raise StopIteration
                return 5

        class Own:
            def __getitem__(self, i):
                if i > 0:
                    raise Missing
                return 4

        p_old = torch.zeros(*list(Old()))
        p_stops = torch.zeros(*[x for x in Stops()])
        p_own = torch.zeros(*Own())
        p_in = torch.zeros(2 if 3 in Old() else 3, 2 if 4 in Old() else 3)
    ''')


def test_re_on_known_text_is_what_cpython_computes(analyzer: Analyzer) -> None:
    exact(analyzer, r'''
        import re
        import torch

        opts = {}
        for op in 'r1_k3_s22_e6_i32_o16_se0.25'.split('_'):
            parts = re.split(r'(\d.*)', op)
            if len(parts) >= 2:
                opts[parts[0]] = parts[1]
        p_k = torch.zeros(int(opts['k']), int(opts['s'][0]), int(float(opts['se']) * 8))
        p_split = torch.zeros(len(re.split(r'[,;]\s*', 'a, b;c,d', maxsplit=2)))
        p_find = torch.zeros(len(re.findall(r'\d+', 'x12y3z456')), len(re.findall(r'(\w)(\d)', 'a1b2c3', re.I)))
        p_sub = torch.zeros(len(re.sub('a+', '-', 'caaat aa')), len(re.sub('A', '', 'banana', flags=re.IGNORECASE)))
        p_subn = torch.zeros(re.subn('a', 'b', 'banana')[1])
        p_esc = torch.zeros(len(re.escape('a.b*c')))
    ''')


def test_re_that_may_backtrack_long_or_on_unknown_text_is_not_known(analyzer: Analyzer) -> None:
    got = never_wrong(analyzer, r'''
        import re
        import sys
        import torch

        p_nested = torch.zeros(len(re.split(r'(a+)+b', 'aaaaaaaaaaaaaaaaaaaaaaaac')))
        p_backref = torch.zeros(len(re.findall(r'(a)\1', 'aaaa')))
        p_argv = torch.zeros(len(re.split(',', sys.argv[0])) + 1)
    ''')
    assert set(got.values()) == {"symbolic"}, got  # a length not known


def test_a_parameter_kind_is_an_int_and_a_singleton_as_cpythons_enum_member(analyzer: Analyzer) -> None:
    """`p.kind is inspect.Parameter.VAR_KEYWORD` (a decorator placing an argument before `**kwargs`) is
    decided, not a fact of the machine: enum members are singletons, never the same object as a plain
    int; a kind is an int in arithmetic and comparisons all the same."""
    exact(analyzer, """
        import inspect
        import torch

        def f(a, *args, b=1, **kw):
            return a

        ps = list(inspect.signature(f).parameters.values())
        four = 4
        p_last = torch.zeros(2 if ps[-1].kind is inspect.Parameter.VAR_KEYWORD else 3)
        p_first = torch.zeros(2 if ps[0].kind is inspect.Parameter.VAR_KEYWORD else 3)
        p_not = torch.zeros(2 if ps[0].kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD else 3)
        p_plain = torch.zeros(2 if ps[-1].kind is four else 3)
        p_int = torch.zeros(ps[-1].kind + 1, int(ps[2].kind == inspect.Parameter.KEYWORD_ONLY) + 1)
        p_order = torch.zeros(2 if ps[1].kind < inspect.Parameter.KEYWORD_ONLY else 3)
    """)


def test_type_of_plain_values_and_how_classes_print(analyzer: Analyzer) -> None:
    """`type(v)` of ints (a literal remembers its place: still an `int`), bools, strings, lists, ranges,
    None; `str(type(v))` as CPython prints it (transformers' framework inference)."""
    exact(analyzer, '''
        import types
        import torch

        n = 3
        p_int = torch.zeros(2 if type(n) is int and type(True) is not int and type(True) is bool else 3)
        p_str = torch.zeros(len(str(type("a"))))
        p_none = torch.zeros(2 if type(None) is types.NoneType and str(type(None)) == "<class 'NoneType'>" else 3)
        p_list = torch.zeros(2 if type([1]) is list and type(range(2)) is range and type(2.5) is float else 3)
        p_text = torch.zeros(len(repr(type(1.0))) + len(str(type(n))))
    ''')


def test_a_property_subclass_keeps_its_accessors(analyzer: Analyzer) -> None:
    """`class classproperty(property)`: the base keeps `fget`/`fset` as CPython's `property.__init__`;
    a subclass's own `__get__` reads them; without one it is a property (instance reads call `fget`,
    the setter made by `.setter` keeps the subclass)."""
    exact(analyzer, '''
        import torch

        class classproperty(property):
            def __get__(self, owner_self, owner_cls):
                return self.fget(owner_cls)

        class plainprop(property):
            pass

        class Config:
            width = 4

            @classproperty
            def doubled(cls):
                return cls.width * 2

            def __init__(self):
                self._h = 1

            @plainprop
            def h(self):
                return self._h

            @h.setter
            def h(self, v):
                self._h = v + 1

        c = Config()
        c.h = 5
        p_cls = torch.zeros(Config.doubled)
        p_inst = torch.zeros(c.doubled + c.h)
        p_kind = torch.zeros(2 if isinstance(Config.__dict__["h"], property) and type(Config.__dict__["h"]) is plainprop
                             else 3)
        p_fget = torch.zeros(2 if Config.__dict__["h"].fget is not None else 3)
    ''')


def test_annotations_read_of_a_class_and_class_attributes_absent_as_cpython(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import inspect
        import typing
        import torch

        class A:
            x: int
            y: "str" = "a"

        class B(A):
            z: float = 1.0

            @classmethod
            def cached(cls):
                found = getattr(cls, "_cached", None)
                if found is None:
                    cls._cached = 2
                    return 5
                return found

        own_a, own_b = inspect.get_annotations(A), inspect.get_annotations(B)
        hints = typing.get_type_hints(B)  # a read: B is not handed to code that may give it attributes
        p_ann = torch.zeros(len(own_a), len(own_b), 3 if "x" in own_a and "x" not in own_b else 4)
        p_absent = torch.zeros(7 if hasattr(B, "_cached") or hasattr(A, "w") else 6, getattr(A, "v", 8))
        p_cached = torch.zeros(B.cached(), B.cached(), 4 if hasattr(B, "_cached") and not hasattr(A, "_cached") else 1)
    ''')


def test_re_search_match_and_compiled_patterns(analyzer: Analyzer) -> None:
    """`re.search`/`match`/`fullmatch` and `re.compile(...)`'s methods on known text: None or a match
    with CPython's groups and spans (transformers' `is_kernel("sdpa")`)."""
    exact(analyzer, '''
        import re
        import torch

        kernel = r"^[^/:]+/[^/:]+(?:@[^/:]+)?(?::[^/:]+)?$"
        p_none = torch.zeros(2 if re.search(kernel, "sdpa") is None else 3)
        p_hit = torch.zeros(2 if re.search(kernel, "kernels-community/flash-attn") is not None else 3)
        m = re.match(r"(?P<kind>[a-z]+)_(\\d+)", "layer_12_x")
        p_group = torch.zeros(int(m.group(2)), len(m.group("kind")), len(m.groups()), m.end())
        p_span = torch.zeros(m.span(1)[1] + 1, m.start(2), len(m[0]))
        pat = re.compile(r"blocks\\.(\\d+)\\.", re.I)
        found = pat.search("model.BLOCKS.7.attn")
        p_compiled = torch.zeros(int(found.group(1)), 2 if pat.fullmatch("blocks.1.") else 3)
        p_subs = torch.zeros(len(pat.sub("b.", "blocks.3.x")), len(pat.findall("blocks.1.blocks.22.")))
        p_missing = torch.zeros(2 if re.fullmatch(r"\\d+", "12a") is None else 3)
    ''')


def test_endless_iterators_cut_by_islice_and_zip(analyzer: Analyzer) -> None:
    """`zip(range(depth), islice(cycle(attn_types), depth), cycle(range(depth)))` (DALLE-pytorch's
    transformer): the rows CPython makes, so the layer built per row is known."""
    exact(analyzer, '''
        from itertools import count, cycle, islice
        import torch

        depth = 3
        rows = list(zip(range(depth), islice(cycle(('full', 'axial')), depth), cycle(range(2))))
        p_rows = torch.zeros(len(rows), rows[2][2] + 1, 2 if rows[1][1] == 'axial' else 3)
        p_count = torch.zeros(list(islice(count(5, 2), 1, 4))[-1])
        p_empty = torch.zeros(len(list(zip([1, 2], cycle([])))) + 1)
        p_skip = torch.zeros(len(list(islice(cycle('ab'), 2, 7, 2))))
    ''')


def test_partial_reads_back_func_args_and_keywords(analyzer: Analyzer) -> None:
    """timm's `get_norm_act_layer` unbinds a partial (`norm_layer.keywords`, `norm_layer.func`) to pick the
    norm-act class by the wrapped class's name; a partial of a partial is flattened as CPython does."""
    exact(analyzer, '''
        import functools
        import torch

        def layer(width, eps=1.0, groups=1):
            return width * groups

        inner = functools.partial(layer, eps=2.0)
        outer = functools.partial(inner, 3, groups=2)
        p_func = torch.zeros(2 if outer.func is layer else 3)
        p_args = torch.zeros(len(outer.args), outer.args[0])
        p_keys = torch.zeros(len(outer.keywords), int(outer.keywords["eps"]))
        p_name = torch.zeros(len(inner.func.__name__))
        p_call = torch.zeros(outer())
        p_kind = torch.zeros(2 if isinstance(outer, functools.partial) else 3)
    ''')


def test_item_methods_of_a_list_of_unknown_length_raise_nothing_cpython_does_not(analyzer: Analyzer) -> None:
    """`pop`, `remove`, `index`, `count` of a list holding only some of its items (its length comes from the
    environment) answer "not known", never the answer of the items it shows: torchdrug's `copy_args` pops the
    `self` of a signature's parameters after reading `parameters[0]`, and the analyzer ended that path
    with an IndexError CPython never raises."""
    got = never_wrong(analyzer, '''
        import sysconfig
        import torch

        xs = list(sysconfig.get_paths().values())  # an API not modeled: items not known
        if xs[0] != "":
            xs.pop(0)
        p_popped = torch.zeros(len(xs) - len(xs) + 2)
        ys = list(sysconfig.get_paths().values())
        ys.remove(ys[1])
        p_removed = torch.zeros(ys.index(ys[0]) + ys.count(ys[0]) + 3)
        p_after = torch.zeros(3)
    ''')
    assert got["p_after"] == "exact"


def test_the_text_of_a_caught_exception_is_cpythons(analyzer: Analyzer) -> None:
    """`str(e)`, `repr(e)` and `e.args` of an exception the program raised with known arguments, of a
    KeyError or IndexError a lookup raised and of a NameError: what CPython prints (the messages every
    Python since 3.8 gives); an exception printed its own way (OSError's errno) stays not known."""
    exact(analyzer, '''
        import torch

        class Missing(KeyError):
            pass

        try:
            w = {"a": 1}["ab"]
        except KeyError as e:
            w = len(str(e)) + len(e.args)
        p_key = torch.zeros(w)
        try:
            u = name_nothing_binds
        except NameError as e:
            u = len(str(e))
        p_name = torch.zeros(u)
        try:
            t = [1][3]
        except IndexError as e:
            t = len(str(e)) + len(repr(e))
        p_index = torch.zeros(t)
        try:
            t = "ab"[5]
        except IndexError as e:
            t = len(str(e))
        p_string = torch.zeros(t)
        try:
            raise ValueError("abc", 2)
        except ValueError as e:
            s = len(e.args) + len(str(e)) + len(repr(e))
        p_value = torch.zeros(s)
        try:
            raise Missing("k")
        except LookupError as e:
            s = len(str(e)) * 10 + len(repr(e))
        p_subclass = torch.zeros(s)
        p_empty = torch.zeros(len(str(RuntimeError())) + 1, len(repr(RuntimeError("x"))))
        gone = 3
        del gone
        again = 4
        del again
        again = 5
        try:
            r = gone
        except NameError as e:
            r = len(str(e)) + again
        p_deleted = torch.zeros(r)
    ''')
    got = verdicts(analyzer, '''
        import torch

        p_errno = torch.zeros(len(str(OSError(2, "No such file"))))
    ''')
    assert got["p_errno"] != "wrong"


def test_isinstance_against_function_types_is_decided_for_plain_values(analyzer: Analyzer) -> None:
    """`types.LambdaType` is `types.FunctionType` (CPython's alias): a list, a float or a dict is none, a
    program's lambda is one (a registry of factories tested `isinstance(v, types.LambdaType)`)."""
    exact(analyzer, '''
        import types
        import torch

        p_0 = torch.zeros(3 if isinstance([1, 2], types.LambdaType) else 4)
        p_1 = torch.zeros(3 if isinstance(2.5, types.LambdaType) else 4)
        p_2 = torch.zeros(3 if isinstance(lambda x: x, types.LambdaType) else 4)
        p_3 = torch.zeros(3 if types.LambdaType is types.FunctionType else 4)
        p_4 = torch.zeros(3 if isinstance({"a": 1}, (types.LambdaType, type)) else 4)
    ''')


def test_bool_any_and_all_of_objects_ask_their_truth(analyzer: Analyzer) -> None:
    """`bool`, `any` and `all` of objects see their truth as a branch does: an object is true unless its
    `__bool__` (else `__len__`) says otherwise, a regex match is true (transformers 5's
    `all(regex.match(k) for k in tied.keys() | tied.values())` forked every model with tied weights)."""
    exact(analyzer, '''
        import re
        import torch
''' + _TRUTHS + '''
        tied = {"lm_head.weight": "transformer.wte.weight"}
        pattern = re.compile(r"^[A-Za-z0-9_\\.]+(weight)|(bias)$")
        p_all_match = torch.zeros(2 if all(pattern.match(k) for k in tied.keys() | tied.values()) else 5)
        p_any_match = torch.zeros(3 if any(pattern.match(k) for k in ["a.b", "c"]) else 6)
        p_bool_objects = torch.zeros(int(bool(Plain())), int(bool(Empty())) + 1, int(bool(No())) + 2)
        p_all_objects = torch.zeros(4 if all([Plain(), Empty()]) else 7, 8 if any([No(), Empty()]) else 9)
        p_any_object = torch.zeros(10 if any([No(), Plain()]) else 11)
    ''')


def test_ids_of_objects_key_a_dict(analyzer: Analyzer) -> None:
    """`id(obj)` of an object of the program is one int per object (not known), so a dict keyed by ids
    finds what was stored under the object's id and misses another object's (kernels routes a forward's
    kernel functions so: `funcs[id(fn)] = ...`, then `funcs.get(id(self))` in every kernelized layer)."""
    got = never_wrong(analyzer, '''
        import torch

        class Fn:
            pass

        a, b = Fn(), Fn()
        table = {id(a): 3, "name": 8}
        p_hit = torch.zeros(table.get(id(a), 5))
        p_miss = torch.zeros(7 if table.get(id(b)) is None else 9)
        p_pop = torch.zeros(table.pop(id(b), 6), len(table))
        p_same = torch.zeros(2 if id(a) == id(a) else 4)
        numbers = {1: 2}
        p_int_keys = torch.zeros(3 if numbers.get(id(a)) is None else 4)  # an int key may be an id: not claimed
    ''')
    assert got["p_hit"] == got["p_miss"] == "exact", got


@pytest.mark.skipif(importlib.util.find_spec("packaging") is None, reason="the oracle is packaging itself")
def test_parsed_versions_give_their_release_as_packaging_does(analyzer: Analyzer) -> None:
    """`packaging.version.parse(text)`'s `base_version`, `release`, `major`, `minor`, `micro` of plain
    releases (with `.devN`, `.postN`, `+local`) as packaging computes them (transformers 5 parses a version's
    `base_version` again to compare it: `is_torch_greater_or_equal("2.13", accept_dev=True)`); other forms
    are not claimed."""
    got = never_wrong(analyzer, '''
        import torch
        from packaging import version

        v = version.parse("2.13.0+cpu")
        p_base = torch.zeros(3 if version.parse(v.base_version) >= version.parse("2.13") else 4, len(v.base_version))
        p_parts = torch.zeros(v.major, v.minor, v.micro + 1, len(v.release))
        short = version.parse("2.7.dev20250320")
        p_short = torch.zeros(len(short.base_version), short.micro + 1, len(short.release))
        post = version.parse("1.02.post3")
        p_post = torch.zeros(len(post.base_version), post.minor)
        odd = version.parse("1.0rc1")
        p_odd = torch.zeros(len(odd.base_version))
    ''')
    assert {k for k, v in got.items() if v == "exact"} >= {"p_base", "p_parts", "p_short", "p_post"}, got


def test_defaults_are_a_tuple_and_a_mutable_default_is_shared_by_calls(analyzer: Analyzer) -> None:
    """A function's defaults are held as CPython's `__defaults__` (a tuple, shared by copies of the state:
    interp/snapshot.py); the mutable object inside is the one every call gets."""
    exact(analyzer, '''
        import torch

        def grow(acc=[], *, step=2):
            acc.append(step)
            return len(acc)

        def plain(x, y=3):
            return x + y

        grow()
        p_calls = torch.zeros(grow())
        p_tuple = torch.zeros(2 if type(grow.__defaults__) is tuple else 3)
        p_len = torch.zeros(len(plain.__defaults__) + 1)
        p_value = torch.zeros(plain.__defaults__[0])
        p_lambda = torch.zeros((lambda a, b=6: a + b)(1))
    ''')
