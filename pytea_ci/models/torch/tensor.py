"""Shape methods of `torch.Tensor` (and their `torch.*` function forms): size, view, reshape,
flatten, (un)squeeze, permute, transpose, expand, matmul, dtype/device conversions."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.dtype_device import CONVERTS, cast, device_of, placed, require_matrix_operands
from pytea_ci.models.prim import (as_int, broadcast_shapes, fmt, known, matmul_shapes, matrix_operands, norm_dim, reshape_shape,
                                  scalar_unknown, shape_of, sizes_arg, view_strides, with_strides)
from pytea_ci.models.ranges import scalar_of as ranged_scalar
from pytea_ci.models.ranges import SCALAR
from pytea_ci.models.registry import BY_ARGUMENTS, CONTIGUOUS, KEEPS, model, prop
from pytea_ci.models.torch.dtypes import scalar_of
from pytea_ci.models.values import DType, IterVal, SizeVal, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import is_dim, prod
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.shapes.vrange import ValueRange
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT


@prop("torch.Tensor.shape", "numpy.ndarray.shape")
def shape(ctx: Ctx, t: Tensor) -> Any:
    return SizeVal(t.shape) if t.shape is not None else ctx.unknown("shape of unknown rank")


@prop("torch.Tensor.ndim", "numpy.ndarray.ndim")
def ndim(ctx: Ctx, t: Tensor) -> Any:
    return t.rank if t.rank is not None else ctx.unknown("rank")


@prop("torch.Tensor.dtype", "numpy.ndarray.dtype")
def dtype(ctx: Ctx, t: Tensor) -> Any:
    return DType(t.dtype, t.lib) if t.dtype else ctx.unknown("dtype")


@prop("torch.Tensor.T", "numpy.ndarray.T")
def T(ctx: Ctx, t: Tensor) -> Any:
    if t.shape is None:
        return t.with_shape(None)
    return _permuted(t, list(reversed(range(len(t.shape)))))


@prop("torch.Tensor.mT", "torch.Tensor.mH")
def mT(ctx: Ctx, t: Tensor) -> Any:
    """The last two dims swapped (a batch of matrices transposed)."""
    if t.shape is None:
        return t.with_shape(None)
    n = len(t.shape)
    ctx.require(n >= 2, "mT", f"mT is only supported on matrices or batches of matrices, got a {n}-D tensor", INVALID_ARGUMENT)
    return _permuted(t, [*range(n - 2), n - 1, n - 2])


@prop("torch.Tensor.H")
def H(ctx: Ctx, t: Tensor) -> Any:
    """The (conjugate) transpose of a matrix."""
    if t.shape is None:
        return t.with_shape(None)
    n = len(t.shape)
    ctx.require(n in (0, 2), "H", f"H is only supported on matrices (2-D tensors), got a {n}-D tensor", INVALID_ARGUMENT)
    return _permuted(t, list(reversed(range(n))))


def _permuted(t: Tensor, order: list[int]) -> Tensor:
    """`t` with its dims reordered, as a view (strides follow when the sizes are concrete)."""
    s = shape_of(t)
    base = t.strides
    new_shape = tuple(s[i] for i in order)
    return with_strides(t, new_shape, None if base is None else tuple(base[i] for i in order))


@prop("torch.Tensor.data", "torch.Tensor.grad")
def data(ctx: Ctx, t: Tensor) -> Any:
    return t


@prop("torch.Tensor.device")
def device(ctx: Ctx, t: Tensor) -> Any:
    """The tensor's device when known; else a device of unknown type (never a guessed CPU)."""
    from pytea_ci.models.torch.creation import CPU
    from pytea_ci.models.values import Instance

    if t.device == "cpu":
        return CPU
    kind: Any = t.device
    if kind is None:
        kind = Unknown("device of a tensor", pytype="str")
    # `from_tensor`: moving to it places nothing anywhere new (models/torch/devices.py)
    return Instance(CPU.cls, {"type": kind, "index": None, "from_tensor": True})


@prop("torch.Tensor.is_cuda", "torch.Tensor.requires_grad", "torch.Tensor.grad_fn")
def tensor_flags(ctx: Ctx, t: Tensor) -> Any:
    return Unknown("tensor flag", pytype="bool")


@prop("numpy.ndarray.size")
def np_size(ctx: Ctx, t: Tensor) -> Any:
    return t.numel() if t.shape is not None else ctx.unknown("size")


@model("torch.Tensor.size")
def size(ctx: Ctx, self: Tensor, dim: Any = None) -> Any:
    if self.shape is None:
        return ctx.unknown("size of unknown rank")
    if dim is None:
        return SizeVal(self.shape)
    d = norm_dim(ctx, dim, len(self.shape), "size")
    return self.shape[d] if d is not None else ctx.unknown("size(dim)")


@model("torch.Tensor.dim", "torch.Tensor.ndimension")
def dim(ctx: Ctx, self: Tensor) -> Any:
    return self.rank if self.rank is not None else ctx.unknown("rank")


@model("torch.Tensor.numel", "torch.numel", "torch.Tensor.nelement")
def numel(ctx: Ctx, self: Tensor) -> Any:
    return self.numel() if self.shape is not None else ctx.unknown("numel")


@model("torch.Tensor.__len__", "numpy.ndarray.__len__")
def tensor_len(ctx: Ctx, self: Tensor) -> Any:
    if self.shape is None:
        return ctx.unknown("len")
    ctx.require(len(self.shape) > 0, "len", "len() of a 0-d tensor", INVALID_ARGUMENT)
    return self.shape[0]


@model("torch.Tensor.__iter__", "numpy.ndarray.__iter__")
def tensor_iter(ctx: Ctx, self: Tensor) -> Any:
    if self.shape is None:
        return IterVal([ctx.unknown("iteration over a tensor")], truncated=True)
    ctx.require(len(self.shape) > 0, "iteration", "iteration over a 0-d tensor", INVALID_ARGUMENT)
    item = self.with_shape(self.shape[1:])
    if self.vrange is not None and not self.is_float():  # every element is met over the loop
        item = replace(item, vrange=replace(self.vrange, attained=False))
        r = self.vrange
        if self.lib == "numpy" and len(self.shape) == 1:  # numpy yields scalars: a ranged int for drawn values
            item = ranged_scalar(ctx, item, item)
        elif len(self.shape) == 1 and isinstance(r.lo, int) and isinstance(r.hi, int):
            # a 0-d tensor whose value is one symbol in the range, which `i + k` shifts: `x[i:i + k]` has k rows
            v = ctx.fresh("item", lo=int(r.lo), hi=int(r.hi), note=f"an element of a tensor with values in {r.describe()}")
            item = replace(item, vrange=ValueRange(v, v, origin=r.origin, note=r.note))
    n = self.shape[0]
    if isinstance(n, int) and n <= 8:
        return IterVal([item] * int(n))
    return IterVal([item], truncated=True)


@model("torch.Tensor.view", layout=KEEPS)
def view(ctx: Ctx, self: Tensor, *shape: Any, **kw: Any) -> Any:
    if "dtype" in kw or (len(shape) == 1 and isinstance(shape[0], DType)):
        return self
    if "shape" in kw:
        shape = (kw["shape"],)
    return reshaped(ctx, self, shape, "view")


def reshaped(ctx: Ctx, self: Tensor, shape: tuple[Any, ...], op: str) -> Any:
    """`self` viewed with `shape` (sizes or one tuple of them); `op` names the call in messages. Only a
    view needs compatible strides: a tensor with no known layout (what `reshape` passes) is not checked."""
    target = sizes_arg(shape, held=ctx)
    if not known(self) or target is None:
        return Tensor(None, self.dtype)
    new_shape = reshape_shape(ctx, shape_of(self), target, op)
    if self.strides is None or new_shape is None or not all(isinstance(d, int) for d in new_shape + shape_of(self)):
        return self.with_shape(new_shape)
    strides = view_strides(shape_of(self), self.strides, new_shape)
    ctx.require(strides is not None, "view", f"view size {fmt(new_shape)} is not compatible with the input's size "
                f"{fmt(shape_of(self))} and strides {list(self.strides)} (the input is not contiguous, e.g. after "
                "transpose/permute); use .reshape(...) or .contiguous().view(...)",
                operands=(f"input: {fmt(shape_of(self))} strides {list(self.strides)}",))
    return with_strides(self, new_shape, strides)


@model("torch.Tensor.reshape")
def tensor_reshape(ctx: Ctx, self: Tensor, *shape: Any, **kw: Any) -> Any:
    return reshaped(ctx, Tensor(self.shape, self.dtype, self.lib), (kw["shape"],) if "shape" in kw else shape,
                    "reshape")


@model("torch.reshape")
def reshape(ctx: Ctx, input: Tensor, shape: Any) -> Any:
    return tensor_reshape(ctx, input, shape) if isinstance(input, Tensor) else ctx.unknown("reshape")


@model("torch.Tensor.view_as", "torch.Tensor.reshape_as")
def view_as(ctx: Ctx, self: Tensor, other: Any) -> Any:
    if not known(other):
        return Tensor(None, self.dtype)
    return view(ctx, self, tuple(shape_of(other)))


@model("torch.flatten", "torch.Tensor.flatten")
def flatten(ctx: Ctx, input: Tensor, start_dim: Any = 0, end_dim: Any = -1) -> Any:
    if not known(input):
        return Tensor(None, getattr(input, "dtype", None))
    s = shape_of(input)
    if not s:
        return input.with_shape((1,))
    a, b = norm_dim(ctx, start_dim, len(s), "flatten"), norm_dim(ctx, end_dim, len(s), "flatten")
    if a is None or b is None:
        return Tensor(None, input.dtype)
    ctx.require(a <= b, "flatten", "start_dim cannot come after end_dim", INVALID_ARGUMENT)
    return input.with_shape(s[:a] + (prod(s[a:b + 1]),) + s[b + 1:])


@model("torch.unflatten", "torch.Tensor.unflatten")
def unflatten(ctx: Ctx, input: Tensor, dim: Any, sizes: Any) -> Any:
    if not known(input):
        return Tensor(None, getattr(input, "dtype", None))
    s = shape_of(input)
    d = norm_dim(ctx, dim, len(s), "unflatten")
    target = sizes_arg((sizes,), held=ctx)
    if d is None or target is None:
        return Tensor(None, input.dtype)
    inner = reshape_shape(ctx, (s[d],), target, "unflatten")
    return input.with_shape(s[:d] + tuple(inner or ()) + s[d + 1:])


@model("torch.Tensor.unfold")
def unfold(ctx: Ctx, self: Tensor, dimension: Any, size: Any, step: Any) -> Any:
    """Windows of `size` every `step` along `dimension`: that dim becomes the window count and a
    last dim of `size` is added."""
    if not known(self):
        return Tensor(None, getattr(self, "dtype", None))
    s = shape_of(self)
    if not s:
        return self.with_shape((size,))
    d = norm_dim(ctx, dimension, len(s), "unfold")
    if d is None or not is_dim(size) or not is_dim(step):
        return Tensor(None, self.dtype)
    ctx.require(P.lt(0, step), "unfold", f"step is {step!r} but must be > 0", INVALID_ARGUMENT, dims=(("step", step),))
    ctx.require(P.le(size, s[d]), "unfold", f"maximum size for tensor at dimension {d} is {s[d]!r} but size is "
                f"{size!r}", INVALID_ARGUMENT, dims=(("size", size), ("dimension size", s[d])))
    return self.with_shape(s[:d] + ((s[d] - size) // step + 1,) + s[d + 1:] + (size,))


@model("torch.unsqueeze", "torch.Tensor.unsqueeze", "torch.Tensor.unsqueeze_", layout=KEEPS)
def unsqueeze(ctx: Ctx, input: Tensor, dim: Any) -> Any:
    if not known(input):
        return Tensor(None, getattr(input, "dtype", None))
    s = shape_of(input)
    d = norm_dim(ctx, dim, len(s) + 1, "unsqueeze")
    if d is None:
        return Tensor(None, input.dtype)
    st = input.strides  # a view: the new dim's stride is never read by a later view (size 1)
    return with_strides(input, s[:d] + (1,) + s[d:], None if st is None else st[:d] + (1,) + st[d:])


@model("torch.squeeze", "torch.Tensor.squeeze", "torch.Tensor.squeeze_", layout=KEEPS)
def squeeze(ctx: Ctx, input: Tensor, dim: Any = None) -> Any:
    if not known(input):
        return Tensor(None, getattr(input, "dtype", None))
    s = shape_of(input)
    dims = range(len(s)) if dim is None else (dim if isinstance(dim, (tuple, list)) else (dim,))
    drop: set[int] = set()
    for d in dims:
        n = norm_dim(ctx, d, len(s), "squeeze") if dim is not None else d
        if n is None or not s:
            continue
        # a size that may be 1: each is a case of the inputs (an image's pooled height), a finding only one
        # case makes is no error
        if s[n] == 1 or (not isinstance(s[n], int) and ctx.fork(P.eq(s[n], 1), per_run=True, guess=True)):
            drop.add(n)
    st = input.strides  # a view: the size-1 dims and their strides go
    return with_strides(input, tuple(x for i, x in enumerate(s) if i not in drop),
                        None if st is None else tuple(x for i, x in enumerate(st) if i not in drop))


@model("torch.permute", "torch.Tensor.permute", layout=KEEPS)
def permute(ctx: Ctx, input: Tensor, *dims: Any) -> Any:
    order = sizes_arg(dims, held=ctx)
    if not known(input) or order is None:
        return Tensor(None, getattr(input, "dtype", None))
    s = shape_of(input)
    ctx.require(len(order) == len(s), "permute", f"number of dims don't match: the input is {len(s)}-D {fmt(s)} "
                f"but {len(order)} dims were given", INVALID_ARGUMENT, (f"input: {fmt(s)}",))
    norm = [norm_dim(ctx, d, len(s), "permute") for d in order]
    if any(n is None for n in norm):
        return Tensor(None, input.dtype)
    ctx.require(len(set(norm)) == len(norm), "permute", "repeated dim in permute", INVALID_ARGUMENT)
    return _permuted(input, [n for n in norm if n is not None])


@model("torch.transpose", "torch.Tensor.transpose", "torch.swapaxes", "torch.Tensor.swapaxes",
       "torch.swapdims", "torch.Tensor.swapdims", "torch.Tensor.transpose_", layout=KEEPS)
def transpose(ctx: Ctx, input: Tensor, dim0: Any, dim1: Any) -> Any:
    if not known(input):
        return Tensor(None, getattr(input, "dtype", None))
    s = list(shape_of(input))
    a, b = norm_dim(ctx, dim0, len(s), "transpose"), norm_dim(ctx, dim1, len(s), "transpose")
    if a is None or b is None:
        return Tensor(None, input.dtype)
    order = list(range(len(s)))
    if s:
        order[a], order[b] = order[b], order[a]
    return _permuted(input, order)


@model("torch.t", "torch.Tensor.t", layout=KEEPS)
def t(ctx: Ctx, input: Tensor) -> Any:
    if not known(input):
        return Tensor(None, getattr(input, "dtype", None))
    s = shape_of(input)
    ctx.require(len(s) <= 2, "t", f"t() expects a tensor with <= 2 dimensions, but self is {len(s)}-D", INVALID_ARGUMENT)
    return _permuted(input, list(reversed(range(len(s)))))


@model("torch.Tensor.expand")
def expand(ctx: Ctx, self: Tensor, *sizes: Any, size: Any = None) -> Any:
    if size is not None:  # `expand(size=(b, n))`, torch's keyword
        if sizes:
            raise TypeError("expand() got multiple values for argument 'size'")
        sizes = (size,)
    target = sizes_arg(sizes, held=ctx)
    if not known(self) or target is None:
        return Tensor(None, self.dtype)
    s = shape_of(self)
    ctx.require(len(target) >= len(s), "expand", f"the number of sizes provided ({len(target)}) must be greater or "
                f"equal to the number of dimensions in the tensor ({len(s)})", INVALID_ARGUMENT)
    pad = len(target) - len(s)
    out = []
    for i, want in enumerate(target):
        have = s[i - pad] if i >= pad else None
        if isinstance(want, int) and want == -1:
            ctx.require(have is not None, "expand", "-1 is not allowed in a leading, non-existing dimension", INVALID_ARGUMENT)
            out.append(have)
            continue
        if have is not None and have != 1:
            # torch expands a dimension of size 1 to any size: a symbolic one (`t[:, :1]`: min(1, n)) may be 1
            ctx.require(P.eq(have, want) if isinstance(have, int) else P.or_(P.eq(have, 1), P.eq(have, want)), "expand", f"the expanded size of the tensor ({want!r}) must match the "
                        f"existing size ({have!r}) at non-singleton dimension {i}: {fmt(s)} to {fmt(tuple(target))}",
                        operands=(f"input: {fmt(s)}",), dims=(("existing size", have), ("expanded size", want)))
        out.append(want)
    return self.with_shape(tuple(out))


@model("torch.Tensor.expand_as")
def expand_as(ctx: Ctx, self: Tensor, other: Any) -> Any:
    return expand(ctx, self, tuple(shape_of(other))) if known(other) else Tensor(None, self.dtype)


@model("torch.broadcast_to", "torch.Tensor.broadcast_to")
def broadcast_to(ctx: Ctx, self: Tensor, size: Any) -> Any:
    """`expand` to `size` (torch's own rules and messages)."""
    return expand(ctx, self, size)


@model("torch.broadcast_tensors")
def broadcast_tensors(ctx: Ctx, *tensors: Any) -> Any:
    """Each tensor expanded to the shape all of them broadcast to (checked pair by pair, left to right,
    as torch's message names them: tensor a, tensor b)."""
    if not all(isinstance(t, Tensor) for t in tensors):
        return ctx.unknown("broadcast_tensors of values not understood")
    if not all(known(t) for t in tensors):
        return tuple(t.with_shape(None) for t in tensors)
    shape: tuple[Any, ...] = ()
    for t in tensors:
        shape = broadcast_shapes(ctx, shape, shape_of(t), "broadcast_tensors", ("tensor a", "tensor b"))
    return tuple(t.with_shape(shape) for t in tensors)


@model("torch.Tensor.repeat")
def repeat(ctx: Ctx, self: Tensor, *sizes: Any) -> Any:
    reps = sizes_arg(sizes, held=ctx)
    if not known(self) or reps is None:
        return Tensor(None, self.dtype)
    s = shape_of(self)
    ctx.require(len(reps) >= len(s), "repeat", "number of dimensions of repeat dims can not be smaller than "
                "number of dimensions of tensor", INVALID_ARGUMENT)
    s = (1,) * (len(reps) - len(s)) + tuple(s)
    return self.with_shape(tuple(a * b for a, b in zip(s, reps)))


@model("torch.matmul", "torch.Tensor.matmul", "torch.Tensor.__matmul__", "numpy.matmul", "numpy.ndarray.__matmul__",
       layout=CONTIGUOUS)
def matmul(ctx: Ctx, input: Any, other: Any) -> Any:
    if not known(input, other):
        return ctx.unknown("matmul of unknown operands")
    out = input.with_shape(matmul_shapes(ctx, shape_of(input), shape_of(other), "matmul"))
    require_matrix_operands(ctx, "matmul", input, other)  # after the shapes, as torch
    return out


@model("torch.Tensor.__rmatmul__")
def rmatmul(ctx: Ctx, self: Any, other: Any) -> Any:
    return matmul(ctx, other, self)


@model("torch.mm", "torch.Tensor.mm", layout=CONTIGUOUS)
def mm(ctx: Ctx, input: Any, mat2: Any) -> Any:
    shapes = matrix_operands(ctx, "mm", input, mat2, (2, 2), ("self", "mat2"), "mm expects 2-D matrices")
    if shapes is None:
        return ctx.unknown("mm of unknown operands")
    a, b = shapes
    out = input.with_shape(matmul_shapes(ctx, a, b, "mm"))
    require_matrix_operands(ctx, "mm", input, mat2)
    return out


@model("torch.bmm", "torch.Tensor.bmm", layout=CONTIGUOUS)
def bmm(ctx: Ctx, input: Any, mat2: Any) -> Any:
    shapes = matrix_operands(ctx, "bmm", input, mat2, (3, 3), ("batch1", "batch2"),
                             "batch1 and batch2 must be 3-D tensors")
    if shapes is None:
        return ctx.unknown("bmm of unknown operands")
    a, b = shapes
    ctx.require(P.eq(a[0], b[0]), "bmm", f"batch sizes differ: {fmt(a)} and {fmt(b)}", dims=(("batch1", a[0]), ("batch2", b[0])))
    ctx.require(P.eq(a[2], b[1]), "bmm", f"expected size for first two dimensions of batch2 tensor to be: "
                f"[{a[0]!r}, {a[2]!r}] but got: [{b[0]!r}, {b[1]!r}]", operands=(f"batch1: {fmt(a)}", f"batch2: {fmt(b)}"),
                dims=(("batch1 inner", a[2]), ("batch2 inner", b[1])))
    require_matrix_operands(ctx, "bmm", input, mat2)
    return input.with_shape((a[0], a[1], b[2]))


_LEGACY = {"Float": "float32", "Double": "float64", "Half": "float16", "BFloat16": "bfloat16", "Long": "int64",
           "Int": "int32", "Short": "int16", "Char": "int8", "Byte": "uint8", "Bool": "bool"}


def legacy_type(v: Any) -> tuple[str | None, str | None] | None:
    """(dtype, device) of a legacy tensor type (`torch.LongTensor`, `torch.cuda.FloatTensor` or its
    name as a string); None when `v` is not one."""
    name = v if isinstance(v, str) else getattr(v, "name", None) if not isinstance(v, (DType, Tensor)) else None
    if not isinstance(name, str) or not name.endswith("Tensor"):
        return None
    parts = name.split(".")
    dtype = _LEGACY.get(parts[-1][:-len("Tensor")])
    return (dtype, "cuda" if "cuda" in parts else "cpu") if dtype else (None, None)


def _convert(ctx: Ctx, self: Tensor, op: str, *args: Any, **kwargs: Any) -> Any:
    """`.to(...)`/`.type(...)`: dtype and device from the arguments. An argument not understood may be
    a dtype or a device: both become unknown (never the old dtype kept by guess)."""
    dtype: str | None | bool = False  # False: unchanged
    device: str | None | bool = False
    for key, a in [(None, a) for a in args] + list(kwargs.items()):
        legacy = legacy_type(a)
        if isinstance(a, DType):
            dtype = a.name
        elif legacy is not None:
            dtype, device = legacy
        elif isinstance(a, Tensor):
            dtype, device = a.dtype, a.device
        elif key in ("non_blocking", "copy", "memory_format") or a is None or isinstance(a, bool):
            continue
        elif isinstance(a, str) or (isinstance(a, Unknown) and a.pytype == "str") or key == "device" or \
                (hasattr(a, "cls") and getattr(a.cls, "name", "") == "device"):
            device = device_of(a)
        else:
            dtype = device = None
    out = self if dtype is False else cast(ctx, self, dtype, f"{op}({dtype})" if dtype else op)  # type: ignore[arg-type]
    return out if device is False else placed(ctx, out, device, f"{op}({device})" if device else op)  # type: ignore[arg-type]


@model("torch.Tensor.to", layout=KEEPS, places=BY_ARGUMENTS, device=CONVERTS)
def to(ctx: Ctx, self: Tensor, *args: Any, **kwargs: Any) -> Any:
    return _convert(ctx, self, ".to", *args, **kwargs)


@model("torch.Tensor.type", device=CONVERTS)
def type_(ctx: Ctx, self: Tensor, *args: Any, **kwargs: Any) -> Any:
    """`.type(dtype)` converts; `.type()` is the type's name (`"torch.FloatTensor"`)."""
    if not args and "dtype" not in kwargs:
        names = {v: k for k, v in _LEGACY.items()}
        if self.dtype in names and self.device in ("cpu", "cuda"):
            return f"torch.{'cuda.' if self.device == 'cuda' else ''}{names[self.dtype]}Tensor"
        out = ctx.unknown("tensor type name")
        out.pytype = "str"
        return out
    return _convert(ctx, self, ".type", *args, **kwargs)


def _cast(dtype: str, name: str) -> Any:
    def run(ctx: Ctx, self: Tensor, *args: Any, **kwargs: Any) -> Any:
        return cast(ctx, self, dtype, f".{name}()")

    return run


for _name, _dt in (("float", "float32"), ("double", "float64"), ("half", "float16"), ("bfloat16", "bfloat16"),
                   ("long", "int64"), ("int", "int32"), ("short", "int16"), ("bool", "bool"), ("byte", "uint8"),
                   ("char", "int8")):
    model(f"torch.Tensor.{_name}", device=CONVERTS)(_cast(_dt, _name))


@model("torch.Tensor.type_as", device=CONVERTS)
def type_as(ctx: Ctx, self: Tensor, other: Any) -> Any:
    """`self.type(other.type())`: the type's name holds the device, so a CPU tensor `type_as` a CUDA one is
    on CUDA (`torch.zeros(n, d).type_as(self.h.data)` of recurrent cells' zero inputs)."""
    if not isinstance(other, Tensor):
        return ctx.unknown("type_as of a non-tensor")
    return _convert(ctx, self, ".type_as", other)


@model("torch.Tensor.item", values=SCALAR, reads_data=True)
def item(ctx: Ctx, self: Tensor) -> Any:
    if known(self):
        ctx.require(P.eq(self.numel(), 1), "item", f"a Tensor with {self.numel()!r} elements cannot be converted to "
                    f"Scalar (shape {fmt(self.shape)})", operands=(f"self: {fmt(self.shape)}",))
    out = ctx.unknown("value from tensor data (.item())")
    out.pytype = scalar_of(self.dtype)  # a number of unknown value, of the element's Python type
    return out


@model("torch.Tensor.tolist", "numpy.ndarray.tolist", reads_data=True)
def tolist(ctx: Ctx, self: Tensor) -> Any:
    """Nested lists of the tensor's shape holding numbers of unknown value (of the tensor's kind)."""
    n = self.numel()
    kind = "bool" if self.dtype == "bool" else ("int" if self.is_int() else "float")
    one_d = self.dtype is not None and self.shape is not None and len(self.shape) == 1
    if one_d and (not isinstance(n, int) or n > _TOLIST_MAX):
        # a long or symbolic 1-D list: one representative number, the length known
        r = self.vrange
        if kind == "int" and r is not None and isinstance(r.lo, int) and isinstance(r.hi, int):  # a value in its range
            one: Any = ctx.fresh("value", lo=int(r.lo), hi=int(r.hi), note=f"a value of a tensor in {r.describe()}")
        else:
            one = scalar_unknown(ctx, "value from tensor data (.tolist())", kind)
        return ctx.sized_items([one], self.shape[0])  # type: ignore[index]
    if self.dtype is None or self.shape is None or not isinstance(n, int) or n > _TOLIST_MAX:
        return ctx.unknown("values from tensor data (.tolist())")

    def build(dims: tuple[Any, ...]) -> Any:
        if not dims:
            return scalar_unknown(ctx, "value from tensor data (.tolist())", kind)
        return [build(dims[1:]) for _ in range(int(dims[0]))]

    return build(self.shape)


_TOLIST_MAX = 64  # larger tensors become one unknown value, not thousands of them


@model("torch.Tensor.numpy")
def numpy(ctx: Ctx, self: Tensor, *args: Any, **kwargs: Any) -> Any:
    return Tensor(self.shape, self.dtype, "numpy")


@model("torch.Tensor.backward", "torch.Tensor.register_hook", "torch.Tensor.copy_")
def backward(ctx: Ctx, self: Tensor, *args: Any, **kwargs: Any) -> Any:
    return None


@model("torch.Tensor.new_zeros", "torch.Tensor.new_ones", "torch.Tensor.new_empty")
def new_zeros(ctx: Ctx, self: Tensor, *size: Any, **kwargs: Any) -> Any:
    s = sizes_arg(size, held=ctx)
    out = self.with_shape(tuple(s) if s is not None else None)
    return cast(ctx, out, kwargs["dtype"].name, "dtype=") if isinstance(kwargs.get("dtype"), DType) else out


@model("torch.Tensor.new_full")
def new_full(ctx: Ctx, self: Tensor, size: Any, fill_value: Any, **kwargs: Any) -> Any:
    return new_zeros(ctx, self, size, **kwargs)


@model("torch.Tensor.new_tensor")
def new_tensor(ctx: Ctx, self: Tensor, data: Any, *args: Any, **kwargs: Any) -> Any:
    from pytea_ci.models.torch.creation import tensor

    out = tensor(ctx, data, **kwargs)  # self's dtype and device unless given
    if isinstance(out, Tensor) and "dtype" not in kwargs:
        out = cast(ctx, out, self.dtype, ".new_tensor()")
    return placed(ctx, out, self.device, ".new_tensor()") if "device" not in kwargs else out


_ = as_int
