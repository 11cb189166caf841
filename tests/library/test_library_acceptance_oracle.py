"""Library mode's contracts on the acceptance corpus's models, checked against real torch.

For every module of the corpus's correct programs (`*_ok`) that library mode builds by itself (a call
site with literals, a factory, or its defaults with symbolic integers) and whose contract and output
shape it fully determines, the module's file is loaded here (the test only: the analyzer never runs
code; the corpus's torchvision stand-in serves the programs' imports), the module is built the same
way with the example's constructor values, and torch must run the example input of `pytea-ci shapes`,
give the predicted output shape, and give each submodule of the per-layer table the predicted output
shape (forward hooks). Skipped without torch or without the corpus (`PYTEA_ACCEPTANCE`, default
../shared/acceptance)."""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from pytea_ci.library import targets as lib
from pytea_ci.driver.discover import python_files
from pytea_ci.library.results import analyze_module
from pytea_ci.solver import Decider
from tests.library.helpers import rebuildable, too_big_to_build

torch = pytest.importorskip("torch")
torch.backends.mha.set_fastpath_enabled(False)  # the nested-tensor fast path fails on fully padded rows

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.environ.get("PYTEA_ACCEPTANCE") or os.path.join(REPO, "..", "shared", "acceptance")
CASES = sorted(c for c in os.listdir(CORPUS) if c.endswith("_ok")) if os.path.isdir(CORPUS) else []
SECONDS = 5.0


@contextlib.contextmanager
def _importable(folder: str) -> Iterator[None]:
    """The case's folder and the corpus's torchvision stand-in on sys.path, their modules forgotten after."""
    paths = [folder, os.path.join(CORPUS, "_oracle")]
    before = set(sys.modules)
    sys.path[:0] = paths
    try:
        yield
    finally:
        del sys.path[:len(paths)]
        for name in set(sys.modules) - before:
            if name.split(".")[0] not in ("torch", "numpy", "PIL"):  # the torchvision stand-in goes too
                del sys.modules[name]


def _load(path: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"acceptance_{abs(hash(path))}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(model: Any, shapes: list[list[int]]) -> Any:
    """Float inputs, or integer ones (token ids, edge lists, lengths: all 0 or all 1) where the module
    wants indices: every mix is tried, floats first (the contract does not carry dtypes or values)."""
    error: Exception | None = None
    make = (lambda s: torch.randn(*s), lambda s: torch.zeros(*s, dtype=torch.long),
            lambda s: torch.ones(*s, dtype=torch.long))
    for kinds in itertools.product(make, repeat=len(shapes)):
        args = [k(s) for k, s in zip(kinds, shapes)]
        try:
            return model(*args)
        except (RuntimeError, IndexError) as e:
            if not any(w in str(e) for w in ("Long", "Int", "long", "int", "Index", "index", "Float", "ength")):
                raise
            error = error or e
    assert error is not None
    raise error


def _first_shape(o: Any) -> list[int] | None:
    if isinstance(o, torch.Tensor):
        return list(o.shape)
    if isinstance(o, (tuple, list)) and o and isinstance(o[0], torch.Tensor):
        return list(o[0].shape)
    return None


@pytest.mark.skipif(not CASES, reason="acceptance corpus not found")
@pytest.mark.parametrize("case", CASES)
def test_determined_contracts_run_under_torch(case: str) -> None:
    folder = os.path.join(CORPUS, case)
    files = python_files(folder, folder, [])
    checked = 0
    for t in lib.targets(files, files, folder).targets:
        if t.via or not rebuildable(t.construct):
            continue  # built by a script, or with an argument that is not an integer: not rebuilt here
        s = analyze_module(t, folder, Decider(), SECONDS)
        if s.status != "determined" or any(i.example is None for i in s.inputs):
            continue
        with _importable(folder):
            mod = _load(t.path)
            env = dict(vars(mod), __pytea_dim__=lambda name, v=s.symbols: v.get(name, 4),
                       __pytea_stages__=lambda name, n, v=s.symbols: tuple(v.get(f"{name}{i}", 4) for i in range(n)))
            if too_big_to_build(t.construct, env):
                continue  # the project's full-size default configuration: more than a CI machine holds
            torch.manual_seed(0)
            model = eval(t.construct, env).eval()  # the construction library mode analyzed
            seen: dict[str, list[list[int]]] = {}
            for name, sub in model.named_modules():
                if name:
                    sub.register_forward_hook(
                        lambda m, i, o, n=name, seen=seen: seen.setdefault(n, []).append(_first_shape(o) or []))
            with torch.no_grad():
                out = _run(model, [list(i.example or []) for i in s.inputs])
        assert _first_shape(out) == s.output_example, (s.module, t.label)
        for row in s.layers:
            if row.kind != "op" and row.depth >= 1 and row.output_example is not None and row.name in seen:
                assert row.output_example in seen[row.name], (s.module, row.name, seen[row.name])
        checked += 1
    if checked == 0:
        pytest.skip("no module of this case is built by library mode alone with a determined contract")
