"""Random programs in the Python real model code is written in, for differential testing of the
interpreter's Python semantics against CPython (issue 31, item 1).

A program is a few *snippets* (`fuzz_python_snippets.py`, their expressions from the grammar of
`fuzz_python_exprs.py`), each written with one or two constructs (builtins, enum, itertools,
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
import tempfile
import traceback
from dataclasses import dataclass, field
from typing import Any

from tests.oracle.fuzz_python_exprs import HEADER, Gen, Reject, deadline, small


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
        with deadline(1.0):
            exec("\n".join(lines), trial)  # noqa: S102  (CPython is the oracle)
    except Reject:
        raise
    except Exception as e:
        raise Reject(repr(e)) from None
    value = trial.get(var)
    if not small(value):
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


def probe_lines(s: Snippet) -> list[tuple[str, str, tuple[int, ...]]]:
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
    for s in snippets:  # one program line per list item: the probes' and sinks' line numbers count on it
        if not s.raises:
            prog.lines += "\n".join(s.lines).split("\n") + [""]
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
            prog.lines += [""] + "\n".join(s.lines).split("\n")
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
        with deadline(20.0):
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

        editor = observe.Editor.of({}, record)
        try:
            result = run_one(path, Options(root=self.folder, strict=self.strict, editor=editor), self.decider)
        except Exception as e:  # an analyzer bug under strict mode: a finding of the fuzzer
            return Analysis(seen, [], [], f"{type(e).__name__}: {e}")
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
