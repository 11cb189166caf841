"""Linear algebra on batches of matrices (`torch.linalg` and the older `torch.*` names): `inv det logdet
slogdet cholesky eigh eigvalsh svd svdvals qr pinv matrix_rank matrix_norm matrix_exp matrix_power solve`.
Every input is `(*, m, n)`: at least 2-D, square where torch needs it, of a floating dtype; outputs
follow torch's shapes (`svd` reduced or full, `qr`'s modes, `solve`'s vector right-hand side)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import require_floating
from pytea_ci.models.prim import broadcast_shapes, fmt, known, shape_of
from pytea_ci.models.registry import model
from pytea_ci.models.values import return_type
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Dim, dmin
from pytea_ci.shapes.tensor import Tensor

Shape = tuple[Dim, ...]
_FLOAT = "{op}: Expected a floating point or complex tensor as input. Got {{got}}"


def matrices(ctx: Ctx, a: Any, op: str, square: bool, name: str = "A", floating: bool = True,
             too_few: str | None = None) -> Shape | None:
    """The shape of a batch of matrices `a` (at least 2-D, square when `square`, of a floating dtype when
    `floating`), None when not known; `too_few`: torch's message for fewer than 2 dims, if not the usual."""
    if not known(a):
        return None
    s = shape_of(a)
    ctx.require(len(s) >= 2, op, too_few or f"{op}: The input tensor {name} must have at least 2 dimensions.",
                operands=(f"{name}: {fmt(s)}",))
    if floating:
        require_floating(ctx, op, a, name, _FLOAT.format(op=op))
    if square:
        ctx.require(P.eq(s[-2], s[-1]), op, f"{op}: {name} must be batches of square matrices, but they are "
                    f"{s[-2]!r} by {s[-1]!r} matrices", operands=(f"{name}: {fmt(s)}",),
                    dims=(("rows", s[-2]), ("columns", s[-1])))
    return s


def _square(op: str) -> Callable[..., Any]:
    """An `(*, n, n)` result of an `(*, n, n)` input: inverse, exponential, Cholesky factor."""
    def fn(ctx: Ctx, A: Any, *args: Any, **kwargs: Any) -> Any:
        s = matrices(ctx, A, op, True)
        return A.with_shape(s) if s is not None else ctx.unknown(op)
    return fn


def _det(op: str) -> Callable[..., Any]:
    """An `(*)` result of an `(*, n, n)` input."""
    def fn(ctx: Ctx, A: Any) -> Any:
        s = matrices(ctx, A, op, True)
        return A.with_shape(s[:-2]) if s is not None else ctx.unknown(op)
    return fn


model("torch.linalg.inv", "torch.inverse", "torch.Tensor.inverse")(_square("linalg.inv"))
model("torch.linalg.matrix_exp", "torch.matrix_exp", "torch.Tensor.matrix_exp")(_square("linalg.matrix_exp"))
model("torch.linalg.cholesky")(_square("linalg.cholesky"))
model("torch.cholesky", "torch.Tensor.cholesky")(_square("cholesky"))
model("torch.linalg.det", "torch.det", "torch.Tensor.det")(_det("linalg.det"))
model("torch.logdet", "torch.Tensor.logdet")(_det("logdet"))


@model("torch.linalg.matrix_power", "torch.matrix_power", "torch.Tensor.matrix_power")
def matrix_power(ctx: Ctx, A: Any, n: Any) -> Any:
    s = matrices(ctx, A, "linalg.matrix_power", True, floating=False)  # integer matrices too
    return A.with_shape(s) if s is not None else ctx.unknown("matrix_power")


@model("torch.linalg.slogdet", "torch.slogdet", "torch.Tensor.slogdet")
def slogdet(ctx: Ctx, A: Any) -> Any:
    s = matrices(ctx, A, "linalg.slogdet", True)
    if s is None:
        return ctx.unknown("slogdet")
    return return_type("sign", "logabsdet")((A.with_shape(s[:-2]), A.with_shape(s[:-2])))


@model("torch.linalg.eigh")
def eigh(ctx: Ctx, A: Any, UPLO: Any = "L") -> Any:
    s = matrices(ctx, A, "linalg.eigh", True)
    if s is None:
        return ctx.unknown("eigh")
    return return_type("eigenvalues", "eigenvectors")((A.with_shape(s[:-1]), A.with_shape(s)))


@model("torch.linalg.eigvalsh")
def eigvalsh(ctx: Ctx, A: Any, UPLO: Any = "L") -> Any:
    s = matrices(ctx, A, "linalg.eigh", True)
    return A.with_shape(s[:-1]) if s is not None else ctx.unknown("eigvalsh")


@model("torch.linalg.svd")
def svd(ctx: Ctx, A: Any, full_matrices: Any = True, **kwargs: Any) -> Any:
    s = matrices(ctx, A, "linalg.svd", False)
    if s is None or not isinstance(full_matrices, bool):
        return ctx.unknown("svd")
    *batch, m, n = s
    k = dmin(m, n)
    u, vh = ((m, m), (n, n)) if full_matrices else ((m, k), (k, n))
    return return_type("U", "S", "Vh")((A.with_shape((*batch, *u)), A.with_shape((*batch, k)),
                                        A.with_shape((*batch, *vh))))


@model("torch.svd", "torch.Tensor.svd")
def svd_old(ctx: Ctx, A: Any, some: Any = True, compute_uv: Any = True) -> Any:
    """`torch.svd`: (U, S, V) with V not transposed; `some=False` gives the full U and V."""
    rank = len(shape_of(A)) if known(A) else 0
    s2 = matrices(ctx, A, "linalg.svd", False, too_few=f"linalg.svd: input should have at least 2 dimensions, but "
                  f"has {rank} dimensions instead")
    if s2 is None or not isinstance(some, bool):
        return ctx.unknown("svd")
    *batch, m, n = s2
    k = dmin(m, n)
    u, v = ((m, k), (n, k)) if some else ((m, m), (n, n))
    return return_type("U", "S", "V")((A.with_shape((*batch, *u)), A.with_shape((*batch, k)),
                                       A.with_shape((*batch, *v))))


@model("torch.linalg.svdvals")
def svdvals(ctx: Ctx, A: Any, **kwargs: Any) -> Any:
    s = matrices(ctx, A, "linalg.svd", False)
    return A.with_shape((*s[:-2], dmin(s[-2], s[-1]))) if s is not None else ctx.unknown("svdvals")


@model("torch.linalg.qr", "torch.qr", "torch.Tensor.qr")
def qr(ctx: Ctx, A: Any, mode: Any = "reduced", some: Any = None) -> Any:
    s = matrices(ctx, A, "linalg.qr", False)
    if some is not None:  # torch.qr(A, some): some=True is "reduced"
        mode = "reduced" if some else "complete"
    if s is None or mode not in ("reduced", "complete", "r"):
        return ctx.unknown("qr")
    *batch, m, n = s
    k = dmin(m, n)
    if mode == "complete":
        q, r = (m, m), (m, n)
    else:
        q, r = (m, k), (k, n)
    return return_type("Q", "R")((A.with_shape((0,) if mode == "r" else (*batch, *q)), A.with_shape((*batch, *r))))


@model("torch.linalg.pinv", "torch.pinverse", "torch.Tensor.pinverse")
def pinv(ctx: Ctx, A: Any, *args: Any, **kwargs: Any) -> Any:
    s = matrices(ctx, A, "linalg.pinv", False)
    return A.with_shape((*s[:-2], s[-1], s[-2])) if s is not None else ctx.unknown("pinv")


@model("torch.linalg.matrix_norm")
def matrix_norm(ctx: Ctx, A: Any, ord: Any = "fro", dim: Any = (-2, -1), keepdim: Any = False, **kwargs: Any) -> Any:
    s = matrices(ctx, A, "linalg.matrix_norm", False)
    if s is None or dim != (-2, -1) or not isinstance(keepdim, bool):
        return ctx.unknown("matrix_norm")
    return A.with_shape((*s[:-2], 1, 1) if keepdim else s[:-2])


@model("torch.linalg.matrix_rank")
def matrix_rank(ctx: Ctx, A: Any, *args: Any, **kwargs: Any) -> Any:
    s = matrices(ctx, A, "linalg.matrix_rank", False, floating=False,
                 too_few="torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    return A.with_shape(s[:-2], "int64") if s is not None else ctx.unknown("matrix_rank")


@model("torch.linalg.solve")
def solve(ctx: Ctx, A: Any, B: Any, *, left: Any = True, **kwargs: Any) -> Any:
    """X with AX = B: `B` is `(*, n, k)`, or a batch of vectors `(*, n)` when it is 1-D or has A's shape
    without its last dim (torch's rule); the batch dims broadcast."""
    sa = matrices(ctx, A, "linalg.solve", True)
    if sa is None or not known(B) or left is not True:
        return ctx.unknown("solve")
    sb = shape_of(B)
    require_floating(ctx, "linalg.solve", B, "B", _FLOAT.format(op="linalg.solve"))
    same = len(sb) == len(sa) - 1 and P.and_(*(P.eq(x, y) for x, y in zip(sb, sa[:-1])))
    if len(sb) != 1 and not isinstance(same, bool):
        return ctx.unknown("solve")  # whether B is a batch of vectors is not decided
    vector = len(sb) == 1 or same is True
    ctx.require(vector or len(sb) >= 2, "linalg.solve", "linalg.solve: The input tensor B must have at least 2 "
                "dimensions.", operands=(f"B: {fmt(sb)}",))
    rows = sb[-1] if vector else sb[-2]
    cols: Shape = () if vector else (sb[-1],)
    ctx.require(P.eq(sa[-1], rows), "linalg.solve", f"linalg.solve: Incompatible shapes of A and B for the equation "
                f"AX = B ({sa[-2]!r}x{sa[-1]!r} and {rows!r}x{cols[0] if cols else 1!r})",
                operands=(f"A: {fmt(sa)}", f"B: {fmt(sb)}"), dims=(("A columns", sa[-1]), ("B rows", rows)))
    batch = broadcast_shapes(ctx, sa[:-2], sb[:-1] if vector else sb[:-2], "linalg.solve", ("A", "B"))
    return Tensor((*batch, sa[-1], *cols), A.dtype, A.lib, device=A.device)
