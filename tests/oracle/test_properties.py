"""Property-based oracle tests: for random shapes and arguments of the formula-heavy rules, pytea-ci
reports an error iff real torch raises, and otherwise predicts torch's exact output shape.

Each example is one expression (constructing any module inline, so a constructor's own error is
also the expression's). The program asserts the shape torch computed, so a wrong shape rule shows
up as a PT004 finding. Analysis runs in-process with one shared Decider to keep 200 examples per
property fast; examples are derandomized so CI sees the same cases every run.
"""

from __future__ import annotations

import os
import textwrap
from typing import Any

import pytest

from tests.oracle.harness import InProcess, PRELUDE, torch_outcome

torch = pytest.importorskip("torch")
hypothesis = pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# PYTEA_PROPS_RANDOM=1 explores fresh random examples (for hunting new counterexamples locally).
SETTINGS = settings(max_examples=200, deadline=None, derandomize=not os.environ.get("PYTEA_PROPS_RANDOM"), database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

_RUNNER = InProcess("props")


def _analyze(setup: str, expr: str, shape: tuple[int, ...] | None) -> tuple[int, set[tuple[int, str]]]:
    body = PRELUDE + textwrap.dedent(setup) + f"y = {expr}\n"
    line = body.count("\n")
    if shape is not None:
        body += "if isinstance(y, (tuple, list)):\n    y = y[0]\n"
        body += f"assert tuple(y.shape) == {shape!r}\n"
    return line, _RUNNER.findings(body)


def agree(setup: str, expr: str) -> None:
    status, info = torch_outcome(setup, expr)
    line, found = _analyze(setup, expr, info if status == "ok" else None)
    if status == "ok":
        assert not found, f"torch accepts `{expr}` after `{setup!r}` giving {info}, but pytea-ci reported {sorted(found)}"
    else:
        assert found & {(line, "PT001"), (line, "PT003")}, (
            f"torch rejects `{expr}` after `{setup!r}` ({info}), but pytea-ci reported {sorted(found) or 'nothing'}")


def shape_st(min_rank: int = 0, max_rank: int = 4, lo: int = 1, hi: int = 4) -> Any:
    return st.lists(st.integers(lo, hi), min_size=min_rank, max_size=max_rank).map(tuple)


def randn(shape: tuple[int, ...]) -> str:
    return f"torch.randn({', '.join(map(str, shape))}{',' if len(shape) == 1 else ''})" if shape else "torch.randn(())"


# ----- convolution, transposed convolution, pooling ----------------------------------------------------------


@SETTINGS
@given(n=st.sampled_from([1, 2]), batch=st.integers(1, 2), c_in=st.integers(1, 4), c_mod=st.integers(1, 4),
       c_out=st.integers(1, 4), size=st.lists(st.integers(1, 12), min_size=2, max_size=2),
       k=st.integers(1, 5), stride=st.integers(1, 3), pad=st.sampled_from([0, 1, 2, "same", "valid"]),
       dil=st.integers(1, 2), groups=st.sampled_from([1, 1, 2]), batched=st.booleans())
def test_conv_output_size(n: int, batch: int, c_in: int, c_mod: int, c_out: int, size: list[int], k: int,
                          stride: int, pad: Any, dil: int, groups: int, batched: bool) -> None:
    shape = ((batch,) if batched else ()) + (c_in,) + tuple(size[:n])
    expr = (f"nn.Conv{n}d({c_mod}, {c_out}, {k}, stride={stride}, padding={pad!r}, dilation={dil}, "
            f"groups={groups})(x)")
    agree(f"x = {randn(shape)}\n", expr)


@SETTINGS
@given(n=st.sampled_from([1, 2]), batch=st.integers(1, 2), c_in=st.integers(1, 3), c_out=st.integers(1, 3),
       size=st.lists(st.integers(1, 8), min_size=2, max_size=2), k=st.integers(1, 4), stride=st.integers(1, 3),
       pad=st.integers(0, 2), out_pad=st.integers(0, 2), dil=st.integers(1, 2), batched=st.booleans(),
       wrong_c=st.booleans())
def test_conv_transpose_output_size(n: int, batch: int, c_in: int, c_out: int, size: list[int], k: int, stride: int,
                                    pad: int, out_pad: int, dil: int, batched: bool, wrong_c: bool) -> None:
    shape = ((batch,) if batched else ()) + (c_in + int(wrong_c),) + tuple(size[:n])
    expr = (f"nn.ConvTranspose{n}d({c_in}, {c_out}, {k}, stride={stride}, padding={pad}, output_padding={out_pad}, "
            f"dilation={dil})(x)")
    agree(f"x = {randn(shape)}\n", expr)


@SETTINGS
@given(kind=st.sampled_from(["max", "avg"]), n=st.sampled_from([1, 2]), lead=shape_st(1, 2, 1, 2),
       size=st.lists(st.integers(1, 10), min_size=2, max_size=2), k=st.integers(1, 4),
       stride=st.sampled_from([None, 1, 2, 3]), pad=st.integers(0, 2), dil=st.integers(1, 2),
       ceil=st.booleans())
def test_pool_output_size(kind: str, n: int, lead: tuple[int, ...], size: list[int], k: int, stride: Any, pad: int,
                          dil: int, ceil: bool) -> None:
    shape = lead + tuple(size[:n])
    extra = f", dilation={dil}" if kind == "max" else ""
    expr = f"F.{kind}_pool{n}d(x, {k}, stride={stride}, padding={pad}{extra}, ceil_mode={ceil})"
    agree(f"x = {randn(shape)}\n", expr)


# ----- broadcasting, view/reshape, cat/stack, matmul family -------------------------------------------------


@SETTINGS
@given(a=shape_st(0, 4, 1, 3), b=shape_st(0, 4, 1, 3), op=st.sampled_from(["+", "*", "-", "/"]))
def test_broadcasting(a: tuple[int, ...], b: tuple[int, ...], op: str) -> None:
    agree(f"a = {randn(a)}\nb = {randn(b)}\n", f"a {op} b")


@SETTINGS
@given(src=shape_st(1, 4, 1, 6), target=st.lists(st.integers(-1, 8), min_size=1, max_size=4),
       method=st.sampled_from(["view", "reshape"]))
def test_view_reshape(src: tuple[int, ...], target: list[int], method: str) -> None:
    target = [t if t != 0 else 1 for t in target]
    agree(f"x = {randn(src)}\n", f"x.{method}({', '.join(map(str, target))})")


@SETTINGS
@given(base=shape_st(1, 3, 1, 3), count=st.integers(1, 3), data=st.data(), fn=st.sampled_from(["cat", "stack"]),
       dim=st.integers(-4, 3))
def test_cat_stack(base: tuple[int, ...], count: int, data: Any, fn: str, dim: int) -> None:
    shapes = []
    for _ in range(count):
        s = list(base)
        if data.draw(st.booleans()):
            i = data.draw(st.integers(0, len(s) - 1))
            s[i] = data.draw(st.integers(1, 4))
        shapes.append(tuple(s))
    agree("", f"torch.{fn}([{', '.join(randn(s) for s in shapes)}], dim={dim})")


# edges the oracles never drew before (issue 31 item 4): zero-size and size-1 dims, empty sequences
EDGES = settings(SETTINGS, max_examples=80)


@EDGES
@given(src=shape_st(1, 4, 0, 3), target=st.lists(st.integers(-1, 6), min_size=1, max_size=4),
       method=st.sampled_from(["view", "reshape"]), transposed=st.booleans())
def test_view_reshape_of_empty_and_unit_dims(src: tuple[int, ...], target: list[int], method: str,
                                             transposed: bool) -> None:
    """torch: any view of an empty tensor that keeps numel 0 is valid, even of a non-contiguous one."""
    setup = f"x = {randn(src)}\n" + ("x = x.transpose(0, -1)\n" if transposed else "")
    agree(setup, f"x.{method}({', '.join(map(str, target))})")


@EDGES
@given(base=shape_st(1, 3, 0, 2), count=st.integers(0, 3), data=st.data(), fn=st.sampled_from(["cat", "stack"]),
       dim=st.integers(-3, 2))
def test_cat_stack_of_empty_and_unit_dims(base: tuple[int, ...], count: int, data: Any, fn: str, dim: int) -> None:
    shapes = [tuple(data.draw(st.sampled_from([d, 0, 1])) for d in base) for _ in range(count)]
    agree("", f"torch.{fn}([{', '.join(randn(s) for s in shapes)}], dim={dim})")


@EDGES
@given(shape=shape_st(1, 3, 0, 2), fn=st.sampled_from(["sum", "mean", "amax", "prod", "argmax", "max", "min", "logsumexp"]),
       dim=st.one_of(st.none(), st.integers(-3, 2)), keepdim=st.booleans())
def test_reductions_of_empty_and_unit_dims(shape: tuple[int, ...], fn: str, dim: int | None, keepdim: bool) -> None:
    if dim is None:
        agree(f"x = {randn(shape)}\n", f"x.{fn}()" if fn != "logsumexp" else "x.logsumexp(0)")
    else:
        agree(f"x = {randn(shape)}\n", f"x.{fn}(dim={dim}, keepdim={keepdim})")


@EDGES
@given(shape=shape_st(2, 4, 0, 3), features=st.integers(1, 3), training=st.booleans(),
       layer=st.sampled_from(["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d",
                              "LayerNorm", "GroupNorm", "Linear", "Conv1d", "Conv2d"]))
def test_layers_on_empty_and_unit_dims(shape: tuple[int, ...], features: int, training: bool, layer: str) -> None:
    """torch checks a batch norm's channels only when the input has elements (an empty batch passes
    whatever its channel count); the other layers check theirs whatever the input holds."""
    ctor = {"LayerNorm": f"nn.LayerNorm({features})", "GroupNorm": f"nn.GroupNorm(1, {features})",
            "Linear": f"nn.Linear({features}, 2)", "Conv1d": f"nn.Conv1d({features}, 2, 1)",
            "Conv2d": f"nn.Conv2d({features}, 2, 1)"}.get(layer, f"nn.{layer}({features})")
    agree(f"m = {ctor}\nm.train({training})\n", f"m({randn(shape)})")


@SETTINGS
@given(a=shape_st(1, 4, 1, 3), b=shape_st(1, 4, 1, 3), fn=st.sampled_from(["matmul", "mm", "bmm", "mv", "dot"]))
def test_matmul_family(a: tuple[int, ...], b: tuple[int, ...], fn: str) -> None:
    agree(f"a = {randn(a)}\nb = {randn(b)}\n", f"torch.{fn}(a, b)")


# ----- indexing and slicing ---------------------------------------------------------------------------------

_bound = st.one_of(st.none(), st.integers(-6, 6))
_slice = st.builds(lambda a, b, c: f"{'' if a is None else a}:{'' if b is None else b}"
                   f"{'' if c is None else ':' + str(c)}", _bound, _bound, st.sampled_from([None, 1, 2, 3]))
_index = st.one_of(st.integers(-5, 5).map(str), _slice, st.just("None"), st.just("..."))


@SETTINGS
@given(shape=shape_st(1, 4, 1, 5), idx=st.lists(_index, min_size=1, max_size=4))
def test_indexing(shape: tuple[int, ...], idx: list[str]) -> None:
    if idx.count("...") > 1:
        idx = [i for i in idx if i != "..."] + ["..."]
    agree(f"x = {randn(shape)}\n", f"x[{', '.join(idx)}]")


# ----- RNN outputs ------------------------------------------------------------------------------------------


@SETTINGS
@given(kind=st.sampled_from(["RNN", "LSTM", "GRU"]), feat=st.integers(1, 4), feat_x=st.integers(1, 4),
       hidden=st.integers(1, 4), layers=st.integers(1, 2), bidir=st.booleans(), batch_first=st.booleans(),
       seq=st.integers(1, 3), batch=st.integers(1, 3), batched=st.booleans(), which=st.sampled_from([0, 1]),
       h0=st.sampled_from([None, "ok", "bad"]))
def test_rnn_outputs(kind: str, feat: int, feat_x: int, hidden: int, layers: int, bidir: bool, batch_first: bool,
                     seq: int, batch: int, batched: bool, which: int, h0: Any) -> None:
    x = ((batch, seq) if batch_first else (seq, batch)) if batched else (seq,)
    setup = f"x = {randn(x + (feat_x,))}\n"
    args = "x"
    if h0 is not None:
        nd = layers * (2 if bidir else 1)
        hs = (nd, batch + (1 if h0 == "bad" else 0), hidden) if batched else (nd, hidden + (1 if h0 == "bad" else 0))
        setup += f"h = {randn(hs)}\n"
        args = "x, (h, h)" if kind == "LSTM" else "x, h"
    pick = f"[{which}]" if which == 0 or kind != "LSTM" else "[1][0]"
    expr = (f"nn.{kind}({feat}, {hidden}, {layers}, bidirectional={bidir}, batch_first={batch_first})"
            f"({args}){pick}")
    agree(setup, expr)


# ----- interpolate and padding ------------------------------------------------------------------------------


@SETTINGS
@given(lead=shape_st(1, 2, 1, 2), spatial=shape_st(1, 3, 1, 6), by_size=st.booleans(),
       size=st.lists(st.integers(1, 8), min_size=1, max_size=3), scale=st.sampled_from([1, 2, 3, 0.5, 1.5, 2.5]),
       as_tuple=st.booleans())
def test_interpolate(lead: tuple[int, ...], spatial: tuple[int, ...], by_size: bool, size: list[int], scale: Any,
                     as_tuple: bool) -> None:
    shape = lead + spatial
    if by_size:
        arg = f"size={tuple(size) if as_tuple else size[0]}"
    else:
        arg = f"scale_factor={tuple([scale] * len(spatial)) if as_tuple else scale}"
    agree(f"x = {randn(shape)}\n", f"F.interpolate(x, {arg})")


@SETTINGS
@given(shape=shape_st(1, 4, 1, 5), pads=st.lists(st.integers(-2, 4), min_size=1, max_size=6),
       mode=st.sampled_from(["constant", "reflect", "replicate", "circular"]))
def test_padding(shape: tuple[int, ...], pads: list[int], mode: str) -> None:
    if mode != "constant":
        pads = [abs(p) for p in pads]
    agree(f"x = {randn(shape)}\n", f"F.pad(x, {tuple(pads)}, mode={mode!r})")
