"""`torch.fft` (fft/ifft/rfft/irfft and their 2-D and n-D forms with `n`/`s`/`dim`/`norm`, the
frequency helpers and shifts) and the complex views it is used with: `torch.polar`, `torch.complex`,
`torch.view_as_real`, `torch.view_as_complex`, `x.real`, `x.imag`. Results carry complex dtypes; values are not tracked."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import broadcast_shapes, fmt, known, norm_dim, shape_of, sizes_arg
from pytea_ci.models.registry import model, prop
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Dim, floordiv, is_dim
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.diagnostics.rules import DTYPE_MISMATCH, INVALID_ARGUMENT

_TO_COMPLEX = {"float64": "complex128", "complex128": "complex128", "float16": "complex32"}
_TO_REAL = {"complex128": "float64", "complex32": "float16"}


def complex_of(dtype: str | None) -> str:
    return _TO_COMPLEX.get(dtype or "", "complex64")


def real_of(dtype: str | None) -> str:
    return _TO_REAL.get(dtype or "", "float32")


def _points(ctx: Ctx, n: Dim, op: str) -> None:
    ctx.require(P.le(1, n), op, f"Invalid number of data points ({n!r}) specified", dims=(("data points", n),))


def _dims_and_sizes(ctx: Ctx, x: Tensor, s: Any, dim: Any, op: str, default_dims: int | None) -> tuple[list[int], list[Any]] | None:
    """The dims transformed (normalized) and the signal size requested for each (None: the input's)."""
    rank = len(shape_of(x))
    sizes = None if s is None else sizes_arg((s,), held=ctx)
    if s is not None and sizes is None:
        return None
    if dim is None:
        count = len(sizes) if sizes is not None else (default_dims if default_dims is not None else rank)
        dims_raw: list[Any] = list(range(rank - count, rank))
    else:
        dims_raw = list(dim) if isinstance(dim, (list, tuple)) else [dim]
    dims = [norm_dim(ctx, d, rank, op) for d in dims_raw]
    if any(d is None for d in dims):
        return None
    if sizes is not None:
        ctx.require(len(sizes) == len(dims), op, "When given, dim and shape arguments must have the same length", INVALID_ARGUMENT)
    return [int(d) for d in dims if d is not None], list(sizes) if sizes is not None else [None] * len(dims)


def _transform(ctx: Ctx, x: Any, s: Any, dim: Any, op: str, kind: str, default_dims: int | None) -> Any:
    """kind: "c2c" (sizes kept or set), "r2c" (last dim n//2+1), "c2r" (last dim n, default 2*(m-1))."""
    if not known(x):
        return ctx.unknown(f"{op} of an unknown tensor")
    picked = _dims_and_sizes(ctx, x, s, dim, op, default_dims)
    if picked is None:
        return Tensor(None, real_of(x.dtype) if kind == "c2r" else complex_of(x.dtype))
    dims, sizes = picked
    out = list(shape_of(x))
    for k, (d, n) in enumerate(zip(dims, sizes)):
        last = k == len(dims) - 1
        if kind == "c2r" and last:
            size = n if n is not None else 2 * (out[d] - 1)
        else:
            size = n if n is not None else out[d]
        if not is_dim(size):
            return Tensor(None, complex_of(x.dtype))
        _points(ctx, size, op)
        out[d] = floordiv(size, 2) + 1 if kind == "r2c" and last else size
    return Tensor(tuple(out), real_of(x.dtype) if kind == "c2r" else complex_of(x.dtype))


@model("torch.fft.fft", "torch.fft.ifft", "torch.fft.hfft", "torch.fft.ihfft")
def fft(ctx: Ctx, input: Any, n: Any = None, dim: Any = -1, norm: Any = None, **kwargs: Any) -> Any:
    """One dim (`dim`, default the last) resized to `n` when given."""
    return _transform(ctx, input, None if n is None else (n,), dim, "fft", "c2c", None)


@model("torch.fft.rfft")
def rfft(ctx: Ctx, input: Any, n: Any = None, dim: Any = -1, norm: Any = None, **kwargs: Any) -> Any:
    """A real signal of n points gives n // 2 + 1 complex frequencies."""
    return _transform(ctx, input, None if n is None else (n,), dim, "rfft", "r2c", None)


@model("torch.fft.irfft")
def irfft(ctx: Ctx, input: Any, n: Any = None, dim: Any = -1, norm: Any = None, **kwargs: Any) -> Any:
    """m complex frequencies give n real points (default 2 * (m - 1))."""
    return _transform(ctx, input, None if n is None else (n,), dim, "irfft", "c2r", None)


@model("torch.fft.fft2", "torch.fft.ifft2")
def fft2(ctx: Ctx, input: Any, s: Any = None, dim: Any = (-2, -1), norm: Any = None, **kwargs: Any) -> Any:
    return _transform(ctx, input, s, dim, "fft2", "c2c", 2)


@model("torch.fft.rfft2")
def rfft2(ctx: Ctx, input: Any, s: Any = None, dim: Any = (-2, -1), norm: Any = None, **kwargs: Any) -> Any:
    return _transform(ctx, input, s, dim, "rfft2", "r2c", 2)


@model("torch.fft.irfft2")
def irfft2(ctx: Ctx, input: Any, s: Any = None, dim: Any = (-2, -1), norm: Any = None, **kwargs: Any) -> Any:
    return _transform(ctx, input, s, dim, "irfft2", "c2r", 2)


@model("torch.fft.fftn", "torch.fft.ifftn")
def fftn(ctx: Ctx, input: Any, s: Any = None, dim: Any = None, norm: Any = None, **kwargs: Any) -> Any:
    """Every dim (or the last len(s), or `dim`) transformed."""
    return _transform(ctx, input, s, dim, "fftn", "c2c", None)


@model("torch.fft.rfftn")
def rfftn(ctx: Ctx, input: Any, s: Any = None, dim: Any = None, norm: Any = None, **kwargs: Any) -> Any:
    return _transform(ctx, input, s, dim, "rfftn", "r2c", None)


@model("torch.fft.irfftn")
def irfftn(ctx: Ctx, input: Any, s: Any = None, dim: Any = None, norm: Any = None, **kwargs: Any) -> Any:
    return _transform(ctx, input, s, dim, "irfftn", "c2r", None)


@model("torch.fft.fftshift", "torch.fft.ifftshift")
def fftshift(ctx: Ctx, input: Any, dim: Any = None) -> Any:
    if known(input) and dim is not None:
        for d in dim if isinstance(dim, (list, tuple)) else (dim,):
            norm_dim(ctx, d, len(shape_of(input)), "fftshift")
    return input if isinstance(input, Tensor) else ctx.unknown("fftshift of a value not understood")


@model("torch.fft.fftfreq")
def fftfreq(ctx: Ctx, n: Any, d: Any = 1.0, **kwargs: Any) -> Any:
    return Tensor((n if is_dim(n) else ctx.fresh("n"),), "float32")


@model("torch.fft.rfftfreq")
def rfftfreq(ctx: Ctx, n: Any, d: Any = 1.0, **kwargs: Any) -> Any:
    return Tensor((floordiv(n, 2) + 1 if is_dim(n) else ctx.fresh("n"),), "float32")


@model("torch.polar", "torch.complex")
def polar(ctx: Ctx, abs: Any, angle: Any, **kwargs: Any) -> Any:
    """Two real tensors broadcast into one complex tensor."""
    if not known(abs, angle):
        return ctx.unknown("polar of unknown tensors")
    return Tensor(broadcast_shapes(ctx, shape_of(abs), shape_of(angle), "polar", ("abs", "angle")), complex_of(abs.dtype))


@prop("torch.Tensor.real")
def real(ctx: Ctx, t: Tensor) -> Any:
    """`x.real`: of a complex tensor its real part (the same shape, the real dtype); of a real tensor
    the tensor itself; of a dtype not known, the shape with a dtype not known."""
    if t.is_complex():
        return t.with_shape(t.shape, real_of(t.dtype))
    return t if t.dtype is not None else t.with_shape(t.shape, None)


@prop("torch.Tensor.imag")
def imag(ctx: Ctx, t: Tensor) -> Any:
    """`x.imag`: of a complex tensor its imaginary part; of a real one torch's RuntimeError."""
    if t.dtype is not None and not t.is_complex():
        ctx.require(False, "imag", "imag is not implemented for tensors with non-complex dtypes.", DTYPE_MISMATCH,
                    operands=(f"input dtype: {t.dtype}",))
        return None
    return t.with_shape(t.shape, real_of(t.dtype) if t.dtype is not None else None)


@model("torch.view_as_real")
def view_as_real(ctx: Ctx, input: Any) -> Any:
    """A complex [*] tensor seen as real [*, 2] (dtypes are not checked: they are only approximated)."""
    if not known(input):
        return ctx.unknown("view_as_real of an unknown tensor")
    return Tensor(shape_of(input) + (2,), real_of(input.dtype))


@model("torch.view_as_complex")
def view_as_complex(ctx: Ctx, input: Any) -> Any:
    """A real [*, 2] tensor seen as complex [*]."""
    if not known(input):
        return ctx.unknown("view_as_complex of an unknown tensor")
    s = shape_of(input)
    ctx.require(len(s) >= 1 and P.eq(s[-1], 2), "view_as_complex", f"Tensor must have a last dimension of size 2, got "
                f"{fmt(s)}", operands=(f"input: {fmt(s)}",), dims=(("last dimension", s[-1] if s else 0),))
    return Tensor(tuple(s[:-1]), complex_of(input.dtype))
