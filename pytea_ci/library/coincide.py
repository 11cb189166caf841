"""Library mode's general position (DESIGN §3 "Library mode", docs/shapes.md "Plausible inputs").

A module checked alone is built with its required integer parameters as symbols: independent
hyperparameters. A check of `forward` that fails for some inputs normally joins the module's input
contract. One kind of check is no contract on the input: a layer's declared size (a Linear's
`in_features`, a conv's `in_channels`, a norm's `normalized_shape`, an RNN's `input_size`) compared
with a size that the contract so far already fixes to *other* constructor parameters, so that
whether it holds no longer depends on the input at all. `nn.Linear(dim, patch_dim)` fed the
`patch_dim` features a `LayerNorm(patch_dim)` declared works only when `dim == patch_dim`: for any
other choice of the two, every input fails. That is a warning (PT002) naming the coincidence, and
the check joins the contract as before (so the rest of `forward` is still checked).

What stays silent: the first layer that declares a size of an input (the input's own size joins
the contract), sizes tied by the code (an assert, a branch, a residual `x + f(x)`, a `cat`: those
are not declarations of a layer with weights), divisibility (`dim % heads == 0`, or the halves of a `chunk(2)` equal
to `dim // 2`, is a constraint on hyperparameters, not a coincidence), modules built with concrete sizes (defaults, the project's
construction sites), modules built with a guessed number of sizes per stage (`protocol.STAGES`: a number that
disagrees with another parameter puts sizes on axes they are not), and any check over a value library mode did
not make itself.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any

from pytea_ci.library import plausible
from pytea_ci.interp.runtime import FunctionVal
from pytea_ci.library.inputs import LibraryTarget, constructor_size, is_own
from pytea_ci.models.values import Instance
from pytea_ci.shapes.dim import Dim, Op, Sym, Term, symbols
from pytea_ci.shapes.pred import Cond, Pred, eq, ge, understood
from pytea_ci.solver import Verdict
from pytea_ci.solver.witness import subst_cond

if TYPE_CHECKING:
    from pytea_ci.library.interpreter import LibraryInterpreter

# the checks of a layer with weights comparing an input size with the size its constructor declared
DECLARED = re.compile(r"(Lazy)?(Linear|Bilinear|Conv(Transpose)?[123]d|LayerNorm|RMSNorm|BatchNorm[123]d|"
                      r"InstanceNorm[123]d|GroupNorm|LSTM|GRU|RNN|LSTMCell|GRUCell|RNNCell|MultiheadAttention|PReLU)"
                      r"|linear|bilinear|conv(_transpose)?[123]d|layer_norm|rms_norm|batch_norm|instance_norm|"
                      r"group_norm")


def general(ctx: LibraryInterpreter) -> bool:
    """Whether the module runs in general position: built by library mode with symbolic sizes whose number is
    not a guess, inside the driver's call, with no `forward` input defaulting to None left out (`optional_left`)."""
    return ctx.active and not ctx.shared.guessed and not ctx.guessed_lengths and not ctx.optional_left


def coincidence(ctx: LibraryInterpreter, cond: Cond, op: str) -> str | None:
    """The coincidence of constructor arguments `cond` (a check that may fail, under the path condition)
    needs, as text ("dim == 3*(patch_size * patch_size); with dim = 2, patch_size = 1 every input fails
    here"), when it is a declared size that only a coincidence
    of constructor arguments meets (see the module docstring); else None."""
    if not general(ctx) or not DECLARED.fullmatch(op) or not isinstance(cond, Pred):
        return None
    cond = plausible.nonempty(ctx, cond)  # BatchNorm's `numel == 0 or C == num_features`: C == num_features
    if cond.op != "eq" or _divisibility(cond) or not understood(cond) or not all(is_own(s) for s in symbols(cond)):
        return None
    pc = [c for c in ctx.pc if isinstance(c, Pred) and understood(c)]
    others = {s for c in pc + [cond] for s in symbols(c) if not constructor_size(s)}
    primed: dict[Term, Dim] = {s: Sym(s.name + "'", s.kind, s.lo, s.hi, values=s.values) for s in others}
    again = [subst_cond(c, primed) for c in pc]  # another input of the same module, under the same contract
    if ctx.decider.check(subst_cond(cond, primed), pc + again + [cond]).verdict is not Verdict.HOLDS:
        return None  # some input decides whether it holds: the input's contract
    ctor = {s for c in pc + [cond] for s in symbols(c) if constructor_size(s)}
    sizes: list[Cond] = [ge(s, 2) for s in sorted(ctor, key=repr) + ctx.free_sizes]
    failing = ctx.decider.check(cond, [*pc, *sizes])  # by constructor sizes that are not degenerate either
    if failing.verdict not in (Verdict.MAY_FAIL, Verdict.FAILS):
        return None  # only a width of 1 fails it (a broadcast's other case): no coincidence of real sizes
    return _named(ctx, cond, pc, failing.counterexample)


def _named(ctx: LibraryInterpreter, cond: Pred, pc: list[Pred], counterexample: dict[str, int]) -> str:
    """The coincidence in constructor arguments alone when the contract pins the input sizes of `cond`
    (`C * p * p == dim` with `C == 3`: "dim == 3*(p * p)"), and constructor sizes that fail it."""
    pinned: dict[Term, Dim] = {}
    for s in symbols(cond):
        v = next((_other(c, s) for c in pc if _other(c, s) is not None), counterexample.get(s.name))
        if not constructor_size(s) and v is not None and ctx.decider.check(eq(s, v), list(pc)).verdict is Verdict.HOLDS:
            pinned[s] = v
    named = subst_cond(cond, pinned) if pinned else cond
    ctor = {s.name for s in symbols(named)} if all(constructor_size(s) for s in symbols(named)) else \
        {s.name for c in pc + [cond] for s in symbols(c) if constructor_size(s)}
    example = ", ".join(f"{n} = {counterexample[n]}" for n in sorted(ctor) if n in counterexample)
    return f"{named!r}" + (f"; with {example} every input fails here" if example else "")


def optional_left(model: Any, target: LibraryTarget) -> bool:
    """Whether `forward` has a parameter defaulting to None that library mode does not give (`context=None`,
    then `context = default(context, x)`): giving it may be what makes the coincidence unnecessary (a
    context of its own width), so no coincidence is reported for the module."""
    fwd = model.cls.lookup("forward") if isinstance(model, Instance) else None
    if not isinstance(fwd, FunctionVal) or isinstance(fwd.node, ast.Lambda):
        return False
    a = fwd.node.args
    params = a.posonlyargs + a.args
    with_default = list(zip(params[len(params) - len(a.defaults):], a.defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
    given = {s.name for s in target.inputs + target.optional}
    return any(isinstance(d, ast.Constant) and d.value is None and p.arg not in given for p, d in with_default)


def _other(c: Pred, s: Sym) -> Dim | None:
    """`e` when `c` is `s == e` (or `e == s`) with `e` over constructor arguments alone."""
    if c.op != "eq" or s not in c.args:
        return None
    e = c.args[1] if c.args[0] == s else c.args[0]
    return e if not isinstance(e, Pred) and all(constructor_size(t) for t in symbols(e)) else None


def _divisibility(cond: Pred) -> bool:
    stack: list[object] = list(cond.args)
    while stack:
        x = stack.pop()
        if isinstance(x, Op) and x.op in ("mod", "floordiv"):  # `ceil(dim_ff / 2) == dim_ff // 2`: dim_ff even
            return True
        if isinstance(x, (Op, Pred)):
            stack.extend(x.args)
        elif hasattr(x, "terms"):
            stack.extend(a for a, _ in x.terms)  # type: ignore[attr-defined]
    return False


MARK = "works only when its constructor arguments coincide"  # in each such warning (`verdict._symbolic` reads it)


def message(cls: str, op: str, text: str, named: str) -> str:
    """`Linear: ... (ViT works only when its constructor arguments coincide, whatever the input: ...)`."""
    return f"{op}: {text} ({cls} {MARK}, whatever the input: {named})"
