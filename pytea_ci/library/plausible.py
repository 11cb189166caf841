"""Library mode's plausible inputs (DESIGN §3 "Library mode", docs/shapes.md "Plausible inputs").

Real inputs are not degenerate: every free size of an input is at least 2 (channels, spatial sizes,
sequence lengths, features), except a leading batch dimension, which may be 1. A check that fails
for some inputs normally joins the module's contract; when, under the contract so far, it fails for
every non-degenerate input and holds only for degenerate ones (a 1x1 image), the module accepts
only degenerate inputs, which is a finding at that check, not a contract. Exceptions:
* the check pins one size to what the module fixes (`C == 1` for `Conv2d(1, ...)`, `256 * C == 256`
  for a Linear(16 * 16) patch embedding: one input size times module constants equal to module
  constants; or each size of a shape compared whole, as an RNN's hidden state `[1, 1, 100]`): a
  narrow contract, not a degenerate one;
* a project call site passes that size as 1 (`Net()(torch.randn(8, 3, 1, 32))`: a height of 1 is
  plausible for Net, however the call site builds it);
* the module itself already rules the non-degenerate inputs out (an `assert x.size(2) == 1`, a
  branch taken on `H == 1`): the path condition then admits no non-degenerate input, and nothing is
  reported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pytea_ci.library.inputs import constructor_size
from pytea_ci.shapes.dim import Lin, Op, Sym, symbols
from pytea_ci.shapes.pred import Cond, Pred, ge
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.solver import Verdict

if TYPE_CHECKING:
    from pytea_ci.library.interpreter import LibraryInterpreter


def free_sizes(inputs: list[Any], named: dict[str, Any], unit: tuple[tuple[int, int, int], ...] = ()) -> list[Sym]:
    """The input sizes that must be at least 2: every symbolic dim of each tensor input but a
    leading one (the batch), those a jaxtyping variadic (`*batch`, `...`) stands for, and those a
    project call site passes as 1 (`unit`: (input, rank, position), `LibraryTarget.unit_sizes`)."""
    variadic = {id(s) for v in named.values() if isinstance(v, list) for s in v}
    ones = {id(t.shape[p]) for k, t in enumerate(inputs) if isinstance(t, Tensor) and t.shape is not None
            for j, rank, p in unit if j == k and rank == len(t.shape)}
    out: list[Sym] = []
    for t in inputs:
        if not isinstance(t, Tensor) or t.shape is None:
            continue
        shape = list(t.shape)
        for i, d in enumerate(shape):
            if isinstance(d, Sym) and id(d) not in variadic | ones and (i > 0 or len(shape) < 2) and d not in out:
                out.append(d)
    return out


def _factors(d: Any) -> list[Any]:
    """The factors of a product (`k * C * p * p`: [C, p, p]; constants dropped); [d] for anything else."""
    if isinstance(d, Lin) and d.const == 0 and len(d.terms) == 1:
        return _factors(d.terms[0][0])
    if isinstance(d, Op) and d.op == "mul":
        return [f for a in d.args if not isinstance(a, int) for f in _factors(a)]
    return [d]


def _pins(cond: Pred, free: list[Sym]) -> bool:
    """`size == literal`, or a size times module constants equal to module constants (`256 * C == 256`
    for a Linear(16 * 16) patch embedding, `C * p * p == p * p` with a symbolic patch size): one size
    fixed by the module, a narrow contract. A conjunction pins when each part that involves an input
    size pins one (an RNN's `h_0` must be `[layers, batch, hidden]` = `[1, 1, 100]` dim for dim)."""
    if cond.op == "and":
        parts = [a for a in cond.args if isinstance(a, Pred) and set(symbols(a)) & set(free)]
        return bool(parts) and all(_pins(a, free) for a in parts)
    if cond.op != "eq":
        return False
    sides = [set(symbols(a)) & set(free) if not isinstance(a, int) else set() for a in cond.args]
    if len([x for x in sides if x]) != 1:
        return False
    product = cond.args[0] if sides[0] else cond.args[1]
    inputs = [f for f in _factors(product) if isinstance(f, Sym) and f in free]
    others = [f for f in _factors(product) if not (isinstance(f, Sym) and f in free)]
    return len(inputs) == 1 and not any(set(symbols(f)) & set(free) for f in others if not isinstance(f, int))


def degenerate(ctx: LibraryInterpreter, cond: Cond) -> tuple[list[Sym], bool] | None:
    """(the sizes that must be 1 for `cond` to hold, True) when `cond` fails for every non-degenerate
    input under the path condition ((the sizes involved, False) when no single one must be 1); else None."""
    if not isinstance(cond, Pred) or not ctx.free_sizes:
        return None
    plausible: list[Cond] = [ge(s, 2) for s in ctx.free_sizes]
    if _pins(nonempty(ctx, cond), ctx.free_sizes):
        return None
    involved = [s for s in ctx.free_sizes if s in symbols(cond)]
    if not involved:
        return None
    if ctx.decider.check(cond, ctx.pc + plausible).verdict is not Verdict.FAILS:
        return None
    pinned = [s for s in involved if ctx.decider.check(cond, ctx.pc + [ge(s, 2)]).verdict is Verdict.FAILS]
    return (pinned, True) if pinned else (involved, False)


def plausibly_holds(ctx: LibraryInterpreter, cond: Cond) -> bool:
    """Whether `cond` holds for every non-degenerate input and module under the path condition, though not
    for every one (some degenerate one fails it): constructor sizes are at least 2 as well (`coincide.py`:
    `chunk(2)` of a `Linear(dim, dim_ff)`'s output is two pieces for every `dim_ff` but 1)."""
    if not isinstance(cond, Pred):
        return False
    sizes = set(ctx.free_sizes) | {s for c in [*ctx.pc, cond] for s in symbols(c) if constructor_size(s)}
    if not set(symbols(cond)) & sizes:
        return False
    return ctx.decider.check(cond, ctx.pc + [ge(s, 2) for s in sorted(sizes, key=repr)]).verdict is Verdict.HOLDS


def unit_construction(ctx: LibraryInterpreter, cond: Cond) -> list[Sym] | None:
    """The constructor sizes `cond` involves when, under the path condition, it fails for every input and
    every plausible construction (constructor sizes at least 2, as `plausibly_holds` reads them) though some
    construction meets it: a residual `attn(x) + x` whose attention projects to `dim + 1`
    broadcasts only for `dim == 1`. No user builds a transformer of width 1 for it to work: the module works
    only when its constructor sizes are 1, which is said as a warning, as a coincidence of constructor
    sizes is (`coincide.py`); the check joins the contract as before. None otherwise."""
    if not isinstance(cond, Pred):
        return None
    ctor = sorted({s for c in [*ctx.pc, cond] for s in symbols(c) if constructor_size(s)}, key=repr)
    involved = [s for s in ctor if s in symbols(cond)]
    if not involved:
        return None
    sizes = [ge(s, 2) for s in ctor]  # (whatever the input: an input size of 1 is `degenerate`'s)
    return involved if ctx.decider.check(cond, ctx.pc + sizes).verdict is Verdict.FAILS else None


def nonempty(ctx: LibraryInterpreter, cond: Pred) -> Pred:
    """`cond` without the alternatives no input of sizes at least 1 meets: BatchNorm's `numel == 0 or
    C == 1` (an empty input passes torch's channel check) is `C == 1` for every input with elements."""
    if cond.op != "or":
        return cond
    sizes: list[Cond] = [ge(s, 1) for s in ctx.free_sizes]
    kept = [a for a in cond.args
            if not (isinstance(a, Pred) and ctx.decider.check(a, ctx.pc + sizes).verdict is Verdict.FAILS)]
    return kept[0] if len(kept) == 1 and isinstance(kept[0], Pred) else cond


MARK = "for every input with"  # in each degenerate finding's message (`verdict.verdict` words its suffix)
UNIT_MARK = "works only when a constructor size is 1"  # in each `unit_construction` warning


def message(cls: str, sizes: list[Sym], pinned: bool, op: str, text: str) -> str:
    """`Conv2d: ... (ResNet accepts only inputs with W == 1; for every input with W >= 2 it fails here)`."""
    names = ", ".join(s.name for s in sizes)
    only = " and ".join(f"{s.name} == 1" for s in sizes) if pinned else f"one of {names} equal to 1"
    return f"{op}: {text} ({cls} accepts only inputs with {only}; {MARK} {names} >= 2 it fails here)"


def unit_message(cls: str, sizes: list[Sym], op: str, text: str) -> str:
    """`Tensor.__add__: ... (ViT works only when a constructor size is 1, whatever the input: one of dim == 1)`."""
    names = " or ".join(f"{s.name} == 1" for s in sizes)
    return f"{op}: {text} ({cls} {UNIT_MARK}, whatever the input: {names}; with every size at least 2 it fails here)"
