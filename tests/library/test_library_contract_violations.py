"""The other half of the acceptance corpus's contract oracle: inputs that violate the contract.

For every module `test_library_acceptance_oracle` checks (built by library mode alone, contract and
output shape determined), inputs the inferred contract rejects are built with the project's own
solver (`solver.example.smallest`): one condition of the contract falsified while the others hold,
the constructor's integers kept at the example's values, and accepted only when no completed path of
that rank combination holds for them (`holds`); and every rank combination the analyzer rejected
(no path completed, none cut by a budget). Torch must raise on each. Where the contract leaves input
symbols free, hypothesis draws lower bounds for them and the solver finds satisfying inputs above
those bounds: torch must run them and give the predicted output shape. Modules run in training mode
(as constructed): the contract includes training-only preconditions (BatchNorm's >1 value per channel).
Skipped without torch or without the corpus."""

from __future__ import annotations

import functools
import os
from typing import Any

import pytest

from pytea_ci.library import targets as lib
from pytea_ci.driver.discover import python_files
from pytea_ci.library.interpreter import PathOutcome
from pytea_ci.library.inputs import LibraryTarget, is_own
from pytea_ci.library.results import _best_path, _fill, evaluate, holds
from pytea_ci.library.verdict import ComboResult, prefer, run_module
from pytea_ci.diagnostics.modshapes import ModuleShapes
from pytea_ci.shapes.dim import Sym, symbols
from pytea_ci.shapes.pred import Cond, Pred, eq, ge, lt, not_
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.solver import Decider
from pytea_ci.solver.example import smallest
from tests.library.helpers import rebuildable, too_big_to_build
from tests.library.test_library_acceptance_oracle import CASES, CORPUS, SECONDS, _first_shape, _importable, _load, _run

torch = pytest.importorskip("torch")
hypothesis = pytest.importorskip("hypothesis")
st = pytest.importorskip("hypothesis.strategies")

RAISES = (RuntimeError, ValueError, LookupError, AssertionError)  # LookupError: IndexError, and einops's KeyError on a rank


@functools.lru_cache(maxsize=None)
def _determined(folder: str) -> list[tuple[LibraryTarget, ModuleShapes, ComboResult, list[ComboResult]]]:
    """The modules the acceptance oracle checks (as `analyze_module` reports them, from one run over
    their rank combinations), with that run; shared by both tests of a case."""
    out = []
    files = python_files(folder, folder, [])
    for t in lib.targets(files, files, folder).targets:
        if t.via or not rebuildable(t.construct):
            continue
        run = run_module(t, folder, Decider(), SECONDS)
        if not run.accepted:
            continue
        combo = prefer(run.accepted)
        s = ModuleShapes(t.cls, t.path, t.line, t.label, "skipped")
        _fill(s, _best_path(combo), Decider(), [i.name for i in t.inputs])
        if s.status == "determined" and all(i.example is not None for i in s.inputs):
            with _importable(folder):
                env = dict(vars(_load(t.path)), __pytea_dim__=lambda name, v=s.symbols: v.get(name, 4),
                       __pytea_stages__=lambda name, n, v=s.symbols: tuple(v.get(f"{name}{i}", 4) for i in range(n)))
                if too_big_to_build(t.construct, env):
                    continue  # the project's full-size default configuration: more than a CI machine holds
            out.append((t, s, combo, run.combos))
    return out


def _own(path: PathOutcome) -> list[Cond]:
    return [c for c in path.pc if isinstance(c, Pred) and all(is_own(x) for x in symbols(c))]


def _input_syms(path: PathOutcome) -> list[Sym]:
    found = {x for v in path.inputs if isinstance(v, Tensor) and v.shape for d in v.shape for x in symbols(d)}
    return sorted(found, key=lambda x: x.name)


def _pins(path: PathOutcome, fixed: dict[str, int]) -> list[Cond]:
    """The constructor's integers (in the contract or the output shape) at the values the module is built with."""
    shown = list(path.output.shape or ()) if isinstance(path.output, Tensor) else []
    ctor = ({x for c in _own(path) for x in symbols(c)} | {x for d in shown for x in symbols(d) if is_own(x)}) \
        - set(_input_syms(path))
    return [eq(x, fixed[x.name]) for x in sorted(ctor, key=lambda x: x.name) if x.name in fixed]


def _shapes(path: PathOutcome, values: dict[str, int]) -> list[list[int]]:
    return [[int(evaluate(d, values) or 0) for d in v.shape] for v in path.inputs if isinstance(v, Tensor) and v.shape]


def _violations(combo: ComboResult, fixed: dict[str, int]) -> list[dict[str, int]]:
    """Per contract condition on the inputs: values falsifying it while the rest holds, kept when every
    completed path of the combination is falsified by them."""
    path = _best_path(combo)
    contract, inputs, pins = _own(path), _input_syms(path), _pins(path, fixed)
    out: list[dict[str, int]] = []
    for i, c in enumerate(contract):
        if not set(symbols(c)) & set(inputs):
            continue  # a condition on the constructor's integers only
        for negation in _negations(c):
            m = smallest(contract[:i] + contract[i + 1:] + pins + [negation], inputs)
            if m is not None and m not in out and all(any(holds(k, m) is False for k in _own(p))
                                                      for p in combo.completed):
                out.append(m)
    return out


def _negations(c: Cond) -> list[Cond]:
    """An equality is falsified on both sides (a < b, a > b): the solver's choice between them is not stable."""
    if isinstance(c, Pred) and c.op == "eq":
        a, b = c.args
        return [lt(a, b), lt(b, a)]  # type: ignore[arg-type]
    return [not_(c)]


def _rank_shape(example: list[int], rank: int) -> list[int]:
    """An input of another rank, from the example's sizes."""
    return (example * rank)[:rank]


def _build(t: LibraryTarget, s: ModuleShapes) -> Any:
    mod = _load(t.path)
    env = dict(vars(mod), __pytea_dim__=lambda name, v=s.symbols: v.get(name, 4),
                       __pytea_stages__=lambda name, n, v=s.symbols: tuple(v.get(f"{name}{i}", 4) for i in range(n)))
    torch.manual_seed(0)
    return eval(t.construct, env)  # training mode, as constructed


# Contracts stricter than torch, found by this test (each an open analyzer issue, not a skip: strict xfail).
STRICTER: dict[str, str] = {}  # case -> why the contract is stricter than torch (none known)


@pytest.mark.skipif(not CASES, reason="acceptance corpus not found")
@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(reason=STRICTER[c], strict=True))
                                  if c in STRICTER else c for c in CASES])
def test_inputs_violating_the_contract_raise_under_torch(case: str) -> None:
    folder = os.path.join(CORPUS, case)
    tried = 0
    for t, s, combo, combos in _determined(folder):
        path = _best_path(combo)
        examples = [list(i.example or []) for i in s.inputs]
        bad = [_shapes(path, m) for m in _violations(combo, s.symbols)]
        for c in combos:
            if not c.completed and not c.incomplete:
                bad.append([e if r == a else _rank_shape(e, r) for e, r, a in zip(examples, c.ranks, combo.ranks)])
        with _importable(folder):
            for shapes in bad:
                model = _build(t, s)
                with pytest.raises(RAISES), torch.no_grad():
                    _run(model, shapes)
                    print(f"{s.module}: torch accepted {shapes}, which the contract rejects")
                tried += 1
    if tried == 0:
        pytest.skip("no determined module of this case has an input its contract rejects")


def _draw(folder: str, t: LibraryTarget, s: ModuleShapes, path: PathOutcome, out: Tensor) -> bool:
    """Satisfying inputs above drawn lower bounds on the free input sizes: torch runs them and gives
    the predicted output shape (False: no input size is free)."""
    contract, inputs = _own(path) + _pins(path, s.symbols), _input_syms(path)
    free = [x for x in inputs if smallest(contract + [not_(eq(x, s.symbols[x.name]))], inputs) is not None]
    if not free:
        return False

    @hypothesis.settings(max_examples=6, deadline=None, database=None,
                         suppress_health_check=list(hypothesis.HealthCheck))
    @hypothesis.given(st.lists(st.integers(1, 40), min_size=len(free), max_size=len(free)))
    def check(lows: list[int]) -> None:
        wanted = contract + [ge(x, lo) for x, lo in zip(free, lows)]
        m = smallest(wanted, inputs, timeout_ms=500)  # a bound the solver cannot meet quickly is dropped
        hypothesis.assume(m is not None)
        assert m is not None
        with _importable(folder):
            model = _build(t, s)
            with torch.no_grad():
                got = _run(model, _shapes(path, m))
        assert _first_shape(got) == [evaluate(d, m) for d in out.shape or ()], (s.module, m)

    check()
    return True


@pytest.mark.skipif(not CASES, reason="acceptance corpus not found")
@pytest.mark.parametrize("case", CASES)
def test_inputs_drawn_from_the_contract_run_under_torch(case: str) -> None:
    folder = os.path.join(CORPUS, case)
    checked = 0
    for t, s, combo, _ in _determined(folder):
        path = _best_path(combo)
        out = path.output
        if not isinstance(out, Tensor) or not out.shape:
            continue
        if _draw(folder, t, s, path, out):
            checked += 1
    if checked == 0:
        pytest.skip("no determined module of this case leaves an input size free")
