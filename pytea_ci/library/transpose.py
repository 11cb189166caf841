"""Library mode: an axis whose size the operation needs is on the wrong axis (DESIGN §3 "Library mode").

A module checked alone gets fresh symbols for its input sizes, and a check that fails for some inputs
joins its contract. A forgotten `transpose`/`permute`/`Rearrange` leaves every shape consistent under
such inputs: `q @ k` with `k` of shape `[b, h, n, d]` (`k.transpose(-1, -2)` dropped) only needs the
sequence length `n` to equal the head width `d`, a contract on the input like any other. What gives
it away is that the width the check asks for is already the size of *another axis of the same
tensor*: with the axes swapped the check would hold for every input. Sizes have roles (a sequence
or spatial size comes from the input, a width from the constructor), and a check that asks an input
size to equal a width sitting on another axis of the same operand is a warning (PT002) naming both
axes; the check joins the contract as before, so the rest of `forward` is still checked.

What stays silent: an input size compared with a width no other axis of the operand has (a token
mixing `Linear(num_patches)` over a transposed `[b, dim, n]`, a positional embedding of
`num_patches`, LeNet's `Linear(16 * 5 * 5)`), two input sizes (a square image), a width of 1 (a
broadcast), the batch size, a module built with a guessed number of sizes per stage (`protocol.STAGES`: a
number that disagrees with another parameter puts sizes on axes they are not), and anything over a value
library mode did not make itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pytea_ci.library import plausible
from pytea_ci.library.inputs import constructor_size
from pytea_ci.shapes.dim import Dim, symbols
from pytea_ci.shapes.pred import Cond, Pred, eq, ge
from pytea_ci.shapes.tensor import Tensor, fmt_shape
from pytea_ci.solver import Verdict

if TYPE_CHECKING:
    from pytea_ci.library.interpreter import LibraryInterpreter

MARK = "a size of its input must equal a width already on another axis"  # in each such warning


def misplaced(ctx: LibraryInterpreter, cond: Cond, operands: list[Any]) -> str | None:
    """The axes `cond` (a check that may fail) confuses, as text, when it asks an input size to equal a
    width that another axis of the same operand already has (see the module docstring); else None."""
    if not ctx.active or ctx.shared.guessed or ctx.guessed_lengths or not isinstance(cond, Pred):
        return None
    for size, width in _equalities(ctx, plausible.nonempty(ctx, cond)):
        for t in operands:
            shape = t.shape if isinstance(t, Tensor) else None
            if shape is None or size not in shape:
                continue
            i = list(shape).index(size)
            for j, other in enumerate(shape):
                if j != i and _same(ctx, other, width):
                    return (f"{size!r} (axis {i - len(shape)} of {fmt_shape(shape)}) must equal {width!r}, the size "
                            f"of its axis {j - len(shape)}; a forgotten transpose or permute?")
    return None


def example(ctx: LibraryInterpreter, cond: Cond, fallback: dict[str, int] | None) -> dict[str, int] | None:
    """A plausible input that fails `cond` (its sizes and the constructor's at least 2), else `fallback`."""
    sizes = set(ctx.free_sizes) | {s for c in [*ctx.pc, cond] for s in symbols(c) if constructor_size(s)}
    out = ctx.decider.check(cond, [*ctx.pc, *(ge(s, 2) for s in sorted(sizes, key=repr))])
    return out.counterexample if out.verdict in (Verdict.MAY_FAIL, Verdict.FAILS) and out.counterexample else fallback


def _equalities(ctx: LibraryInterpreter, cond: Pred) -> list[tuple[Dim, Dim]]:
    """(input size, width) of `cond` when it is `a == b`, or a broadcast's `a == b or a == 1 or b == 1`,
    with one side over the input's own sizes (at least one, never the batch) and the other a width:
    constructor arguments (plausibly at least 2, as in `coincide.py`) or a constant of at least 2."""
    if cond.op == "or":
        eqs = [a for a in cond.args if isinstance(a, Pred) and a.op == "eq" and 1 not in a.args]
        if len(eqs) != 1:
            return []
        cond = eqs[0]
    if cond.op != "eq":
        return []
    a, b = cond.args
    if isinstance(a, Pred) or isinstance(b, Pred):
        return []
    return [(s, w) for s, w in ((a, b), (b, a)) if _input_size(ctx, s) and _width(ctx, w)]


def _input_size(ctx: LibraryInterpreter, d: Any) -> bool:
    syms = symbols(d)
    free = set(ctx.free_sizes)
    return not isinstance(d, (int, Pred)) and any(s in free for s in syms) \
        and all(s in free or constructor_size(s) for s in syms)


def _width(ctx: LibraryInterpreter, d: Any) -> bool:
    if isinstance(d, int):
        return d >= 2
    syms = symbols(d)
    return not isinstance(d, Pred) and bool(syms) and all(constructor_size(s) for s in syms)


def _same(ctx: LibraryInterpreter, other: Any, width: Dim) -> bool:
    """Whether `other` (another size of the operand) is `width` under the contract so far."""
    return not isinstance(other, Pred) and ctx.decider.check(eq(other, width), ctx.pc).verdict is Verdict.HOLDS
