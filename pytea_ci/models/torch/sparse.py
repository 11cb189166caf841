"""Layouts and sparse COO tensors: `Tensor.layout` (and `is_sparse`, `is_sparse_csr`) and the layout
constants (`torch.strided`, `torch.sparse_coo`, ...: each equal only to itself, as torch's are);
`torch.sparse_coo_tensor` (indices [sparse_dim, nnz], values [nnz, *dense]), and the products of a sparse
matrix with a dense one (`torch.spmm`, `torch.sparse.mm`), which follow `mm`'s rule. A sparse tensor is
modeled by its shape, like a dense one, with its layout not known (`Tensor.dense`; how it follows through
ops: models/call_facets.py)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import fmt, known, shape_of, sizes_arg
from pytea_ci.models.registry import model, native_class, prop, register
from pytea_ci.models.torch.tensor import mm
from pytea_ci.shapes import pred as P
from pytea_ci.models.values import Instance, Unknown
from pytea_ci.shapes.tensor import Tensor


@native_class("torch.layout", identity_eq=True)
class layout:
    """The class of the layout constants, which compare by identity."""


LAYOUTS = {name: Instance(layout, {"name": name})
           for name in ("strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "_mkldnn")}
for _name, _value in LAYOUTS.items():
    register(f"torch.{_name}", _value)
STRIDED = LAYOUTS["strided"]


@prop("torch.Tensor.layout")
def tensor_layout(ctx: Ctx, t: Tensor) -> Any:
    """`torch.strided` for a tensor dense for certain; else not known (a sparse tensor, or one made
    from a value not understood)."""
    return STRIDED if t.dense and t.lib == "torch" else ctx.unknown("layout")


@prop("torch.Tensor.is_sparse", "torch.Tensor.is_sparse_csr")
def tensor_is_sparse(ctx: Ctx, t: Tensor) -> Any:
    """False for a tensor dense for certain (`is_sparse`: COO, `is_sparse_csr`: CSR); else not known."""
    return False if t.dense and t.lib == "torch" else Unknown("sparse flag of a tensor", pytype="bool")


@model("torch.sparse_coo_tensor", "torch.sparse.FloatTensor")
def sparse_coo_tensor(ctx: Ctx, indices: Any, values: Any, size: Any = None, *args: Any, **kwargs: Any) -> Any:
    """The nnz of indices and values agree; `size` has sparse_dim + dense_dim entries (inferred from
    the largest indices when absent: sizes of unknown value)."""
    if not known(indices, values) or len(shape_of(indices)) != 2:
        return ctx.unknown("sparse_coo_tensor of unknown indices or values")
    i, v = shape_of(indices), shape_of(values)
    ctx.require(len(v) >= 1 and P.eq(i[1], v[0]), "sparse_coo_tensor", "indices and values must have same nnz, but "
                f"got nnz from indices: {i[1]!r}, nnz from values: {v[0] if v else 0!r}",
                operands=(f"indices: {fmt(i)}", f"values: {fmt(v)}"))
    dense = tuple(v[1:])
    dtype = kwargs["dtype"].name if hasattr(kwargs.get("dtype"), "name") else values.dtype
    if size is None:
        if not isinstance(i[0], int):
            return Tensor(None, dtype, dense=None)
        return Tensor(tuple(ctx.fresh("sparse size") for _ in range(i[0])) + dense, dtype, dense=None)
    s = sizes_arg((size,), held=ctx)
    if s is None:
        return Tensor(None, dtype, dense=None)
    ctx.require(P.eq(len(s), i[0] + len(dense)), "sparse_coo_tensor", f"'len(size) == sparse_dim + dense_dim' is not "
                f"satisfied: len(size) = {len(s)}, sparse_dim = {i[0]!r}, dense_dim = {len(dense)}",
                operands=(f"indices: {fmt(i)}", f"values: {fmt(v)}"))
    return Tensor(tuple(s), dtype, dense=None)


@model("torch.spmm", "torch.sparse.mm", "torch.smm", "torch.Tensor.smm")
def spmm(ctx: Ctx, sparse: Any, dense: Any) -> Any:
    """A sparse matrix times a dense matrix: `mm`'s rule, a dense [n, p] result."""
    return mm(ctx, sparse, dense)
